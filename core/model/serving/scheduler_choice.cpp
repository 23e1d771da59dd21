#include "core/model/serving/scheduler_choice.h"

#include "core/model/llm/engine_catalog.h"
#include "core/model/units.h"

#include <QStringList>

#include <array>
#include <utility>

namespace ridgeline {

const char* const kVllmSchedulerCitation =
    "vllm/config/scheduler.py, SchedulerConfig: DEFAULT_MAX_NUM_SEQS 128, DEFAULT_MAX_NUM_BATCHED_TOKENS 2048, "
    "chunked prefill on (the V1 engine); the KV cache gets all the memory beside the weights";

QString schedulerOriginKey(SchedulerOrigin origin)
{
    switch (origin) {
        case SchedulerOrigin::Default:
            return QStringLiteral("vllm-default");
        case SchedulerOrigin::Engine:
            return QStringLiteral("engine");
        case SchedulerOrigin::Given:
            return QStringLiteral("given");
    }
    return {};
}

bool SchedulerChoice::anyFrom(SchedulerOrigin origin) const
{
    return chunkedPrefill == origin || maxRunning == origin || tokenBudget == origin || kvMemoryShare == origin ||
           firstTokenLagSteps == origin;
}

SchedulerChoice chooseScheduler(const EngineProfile& engine, const SchedulerOverrides& given)
{
    SchedulerChoice c;
    c.policy = schedulingPolicy(engine);
    c.engineId = engine.id;
    c.engineName = engine.name;
    c.engineCitation = engine.schedulerSource;
    const auto fromEngine = [](bool set) { return set ? SchedulerOrigin::Engine : SchedulerOrigin::Default; };
    c.maxRunning = fromEngine(engine.maxRunning > 0);
    c.tokenBudget = fromEngine(engine.tokenBudget > 0);
    c.kvMemoryShare = fromEngine(engine.kvMemoryShare > 0);
    c.firstTokenLagSteps = fromEngine(engine.firstTokenLagSteps > 0);
    if (given.chunkedPrefill) {
        c.policy.chunkedPrefill = *given.chunkedPrefill;
        c.chunkedPrefill = SchedulerOrigin::Given;
    }
    if (given.maxRunning) {
        c.policy.maxRunning = *given.maxRunning;
        c.maxRunning = SchedulerOrigin::Given;
    }
    if (given.tokenBudget) {
        c.policy.tokenBudget = *given.tokenBudget;
        c.tokenBudget = SchedulerOrigin::Given;
    }
    return c;
}

SchedulerChoice engineScheduler(const QString& engineSpec)
{
    if (!engineSpec.isEmpty())
        if (const Result<EngineSelection> engine = selectEngine(engineSpec))
            return chooseScheduler(*engine.value().profile);
    return chooseScheduler(*genericEngine().profile);
}

std::optional<QString> schedulerConflict(const SchedulerChoice& choice, const QString& maxRunningOption,
                                         const QString& tokenBudgetOption)
{
    if (choice.policy.tokenBudget > choice.policy.maxRunning)
        return std::nullopt;
    const auto named = [&](SchedulerOrigin origin, const QString& option, const QString& term) {
        switch (origin) {
            case SchedulerOrigin::Given:
                return option;
            case SchedulerOrigin::Engine:
                return QStringLiteral("%1's %2").arg(choice.engineName, term);
            case SchedulerOrigin::Default:
                break;
        }
        return QStringLiteral("vLLM's default %1").arg(term);
    };
    return QStringLiteral("%1 (%2) must be above %3 (%4): each running request's decode token comes out of it first")
        .arg(named(choice.tokenBudget, tokenBudgetOption, QStringLiteral("token budget")))
        .arg(choice.policy.tokenBudget)
        .arg(named(choice.maxRunning, maxRunningOption, QStringLiteral("largest batch")))
        .arg(choice.policy.maxRunning);
}

QString schedulerText(const SchedulerChoice& choice)
{
    const SchedulingPolicy& p = choice.policy;
    QStringList terms{p.chunkedPrefill ? QStringLiteral("chunked prefill beside the decodes")
                                       : QStringLiteral("each prefill a pass of its own"),
                      QStringLiteral("at most %1 requests").arg(formatGrouped(p.maxRunning)),
                      QStringLiteral("%1 tokens a step").arg(formatGrouped(p.tokenBudget))};
    if (p.kvMemoryShare < 1.0)
        terms << QStringLiteral("%1 % of the free memory for the KV cache").arg(formatCompact(100.0 * p.kvMemoryShare));
    if (p.firstTokenLagSteps > 0)
        terms << QStringLiteral("the first token %1 steps after its prefill under load")
                     .arg(p.firstTokenLagSteps, 0, 'g', 4);
    if (!choice.anyFrom(SchedulerOrigin::Engine) && !choice.anyFrom(SchedulerOrigin::Given))
        return terms.join(QStringLiteral(", ")) + QStringLiteral(" (vLLM's scheduler defaults)");
    const std::array<std::pair<SchedulerOrigin, const char*>, 5> named{{
        {choice.chunkedPrefill, "chunked prefill"},
        {choice.maxRunning, "largest batch"},
        {choice.tokenBudget, "token budget"},
        {choice.kvMemoryShare, "KV share"},
        {choice.firstTokenLagSteps, "first-token lag"},
    }};
    QStringList origins;
    for (const SchedulerOrigin origin : {SchedulerOrigin::Given, SchedulerOrigin::Engine, SchedulerOrigin::Default}) {
        QStringList names;
        for (const auto& [from, name] : named)
            if (from == origin)
                names << QLatin1String(name);
        if (names.isEmpty())
            continue;
        const QString whose = origin == SchedulerOrigin::Given    ? QStringLiteral("given")
                              : origin == SchedulerOrigin::Engine ? choice.engineName + QStringLiteral("'s")
                                                                  : QStringLiteral("vLLM's default");
        origins << names.join(QStringLiteral(", ")) + u' ' + whose;
    }
    return terms.join(QStringLiteral(", ")) + QStringLiteral(" (") + origins.join(QStringLiteral("; ")) + u')';
}

QString schedulerSummary(const SchedulerChoice& choice)
{
    const QString whose = choice.anyFrom(SchedulerOrigin::Given)    ? QStringLiteral("Scheduler, partly given")
                          : choice.anyFrom(SchedulerOrigin::Engine) ? choice.engineName + QStringLiteral("'s scheduler")
                                                                    : QStringLiteral("vLLM's default scheduler");
    QString text = QStringLiteral("%1: up to %2 running, %3 tokens a step")
                       .arg(whose, formatGrouped(choice.policy.maxRunning), formatGrouped(choice.policy.tokenBudget));
    if (choice.policy.kvMemoryShare < 1.0)
        text += QStringLiteral(", KV %1 %").arg(formatCompact(100.0 * choice.policy.kvMemoryShare));
    if (!choice.policy.chunkedPrefill)
        text += QStringLiteral(", whole prefills");
    return text;
}

}  // namespace ridgeline
