#include "core/scene/training_facts.h"

#include "core/model/units.h"
#include "core/scene/training_scene.h"
#include "core/session/mixed_precision.h"

#include <algorithm>

namespace ridgeline {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// What a stage changed against the one before it, as the key its facts carry.
QString stageKey(const TrainingConfig& before, const TrainingConfig& after)
{
    if (after.precision != before.precision)
        return QStringLiteral("mixed");
    if (after.microBatch != before.microBatch)
        return QStringLiteral("accumulation");
    return QStringLiteral("checkpointing");
}

void addMemory(FactList& facts, const QString& key, double bytes)
{
    facts.add(key, bytes / kGiB, formatMemory(bytes));
}

double states(const TrainingMemory& m)
{
    return m.weights + m.gradients + m.optimizer;
}

// The largest bf16 product this CPU measured beside its sgemm: the source text's "roughly doubles", here.
void measuredMixedPrecision(const Session* session, FactList& facts)
{
    if (!session)
        return;
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(*session);
    const auto largest = std::max_element(pairs.begin(), pairs.end(),
                                          [](const auto& a, const auto& b) { return a.bf16->flops < b.bf16->flops; });
    if (largest != pairs.end() && largest->speedup() > 0.0)
        facts.addTimes(QStringLiteral("cpu_bf16_x"), largest->speedup());
}

void movesFacts(const std::vector<TrainingStage>& stages, const Session* session, FactList& facts)
{
    const TrainingStage& first = stages.front();
    const TrainingStage& last = stages.back();
    const TrainingMemory& end = last.report.memory;
    facts.add(QStringLiteral("model"), 0.0, first.config.model.name);
    facts.add(QStringLiteral("gpu"), 0.0, first.config.gpu.name);
    facts.add(QStringLiteral("capacity"), end.capacity / kGiB, 0, QStringLiteral("GiB"));
    facts.add(QStringLiteral("micro_batch"), static_cast<double>(first.config.microBatch), 0);
    facts.add(QStringLiteral("global_batch"), static_cast<double>(first.config.globalBatch), 0);
    addMemory(facts, QStringLiteral("memory_start"), first.report.memory.onCard());
    addMemory(facts, QStringLiteral("activations_start"), first.report.memory.activations);
    for (std::size_t i = 1; i < stages.size(); ++i) {
        const TrainingReport& before = stages[i - 1].report;
        const TrainingReport& after = stages[i].report;
        const QString key = stageKey(stages[i - 1].config, stages[i].config);
        addMemory(facts, QStringLiteral("memory_") + key, after.memory.onCard());
        addMemory(facts, QStringLiteral("activations_") + key, after.memory.activations);
        if (key == QLatin1String("mixed")) {
            facts.addTimes(QStringLiteral("activations_x_mixed"), before.memory.activations / after.memory.activations);
            facts.addTimes(QStringLiteral("matmul_x_mixed"), before.time.matmul / after.time.matmul);
        } else if (key == QLatin1String("accumulation")) {
            facts.add(QStringLiteral("accumulation_steps"), static_cast<double>(after.accumulationSteps), 0);
        } else {
            facts.addTimes(QStringLiteral("activations_x_checkpointing"),
                           before.memory.activations / after.memory.activations);
            facts.add(QStringLiteral("recompute_percent"), 100.0 * after.recomputeFlops / after.modelFlops, 0,
                      QStringLiteral("%"));
            facts.add(QStringLiteral("step_x_checkpointing"), after.time.total() / before.time.total(), 2,
                      QStringLiteral("x"));
        }
    }
    addMemory(facts, QStringLiteral("states"), states(end));
    const QString capacity = formatGrouped(end.capacity / kGiB) + QStringLiteral(" GiB");
    facts.add(QStringLiteral("verdict"), end.fits() ? 1.0 : 0.0,
              end.fits() ? QStringLiteral("fits in the card's %1").arg(capacity)
                         : QStringLiteral("does not fit in the card's %1").arg(capacity));
    measuredMixedPrecision(session, facts);
}

QString linkName(const LinkSpec& link)
{
    return link.name.isEmpty() ? link.id : link.name;
}

void hierarchyFacts(const std::vector<TrainingStage>& stages, FactList& facts)
{
    const TrainingStage& inside = stages.front();
    const TrainingStage& across = stages.back();
    const TrainingConfig& c = across.config;
    facts.add(QStringLiteral("model"), 0.0, c.model.name);
    facts.add(QStringLiteral("tp"), c.tensorParallel, 0);
    facts.add(QStringLiteral("boxes"), c.nodes, 0);
    facts.add(QStringLiteral("per_box"), c.gpusPerNode, 0);
    facts.add(QStringLiteral("inside_link"), 0.0, linkName(c.link));
    facts.add(QStringLiteral("across_link"), 0.0, linkName(c.network));
    facts.add(QStringLiteral("inside_gbs"), c.link.gbPerSecPerDirection,
              formatSignificant(c.link.gbPerSecPerDirection) + QStringLiteral(" GB/s"));
    facts.add(QStringLiteral("across_gbs"), c.network.gbPerSecPerDirection,
              formatSignificant(c.network.gbPerSecPerDirection) + QStringLiteral(" GB/s"));
    if (c.network.gbPerSecPerDirection > 0.0)
        facts.addTimes(QStringLiteral("link_ratio"), c.link.gbPerSecPerDirection / c.network.gbPerSecPerDirection);
    for (const auto& [key, stage] :
         {std::pair{QStringLiteral("inside"), &inside}, std::pair{QStringLiteral("across"), &across}}) {
        const TrainingStepTime& t = stage->report.time;
        facts.add(QStringLiteral("step_") + key, t.total(), formatSeconds(t.total()));
        facts.add(QStringLiteral("comm_percent_") + key, 100.0 * t.communication / t.total(), 0, QStringLiteral("%"));
        facts.add(QStringLiteral("tokens_s_") + key, stage->report.tokensPerSecond, 0, QStringLiteral("tokens/s"));
    }
    facts.add(QStringLiteral("step_x_across"), across.report.time.total() / inside.report.time.total(), 1,
              QStringLiteral("x"));
}

}  // namespace

std::optional<Error> trainingSceneFacts(const Scene& scene, const Session* session, FactList& facts)
{
    const bool moves = scene.kind == QLatin1String("training-moves");
    const Result<std::vector<TrainingStage>> stages = moves ? trainingMovesOf(scene) : trainingHierarchyOf(scene);
    if (!stages)
        return stages.error();
    if (moves)
        movesFacts(stages.value(), session, facts);
    else
        hierarchyFacts(stages.value(), facts);
    return std::nullopt;
}

}  // namespace ridgeline
