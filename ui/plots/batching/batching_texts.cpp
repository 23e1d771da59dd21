#include "ui/plots/batching/batching_texts.h"

#include "core/model/llm/engine_catalog.h"
#include "core/model/units.h"
#include "ui/plots/batching/batching_warnings.h"

#include <QCoreApplication>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::BatchingPanel", text);
}

QString times(double ratio)
{
    return QStringLiteral("\u00d7%1").arg(formatSignificant(ratio));
}

QString headlineOf(const BatchingScenario& s)
{
    const InferenceReport& r = s.report;
    const QString bound = r.step.bound == Bound::Memory ? tr("memory-bound") : tr("compute-bound");
    return tr("%1 tokens/s  \u00b7  %2 per step  \u00b7  %3 at %4 FLOP/byte")
               .arg(formatSignificant(r.tokensPerSecond), formatSeconds(r.step.seconds), bound,
                    formatSignificant(r.step.intensity)) +
           (r.memory.fits ? QString()
            : s.memory.maxFittingBatch > 0
                ? tr("  \u00b7  does not fit (max batch %1)").arg(formatGrouped(double(s.memory.maxFittingBatch)))
                : tr("  \u00b7  does not fit, not even one sequence"));
}

// Which engine terms the numbers use, in the words of the engine choice (inference_request.h).
QString engineText(const InferenceReport& r, const InferenceRequest& in)
{
    const QString shares = tr("%1 % of %2bandwidth, %3 % of peak")
                               .arg(formatSignificant(r.efficiency.bandwidth * 100.0, 2),
                                    r.terms.bandwidthBasis == BandwidthBasis::Sustained ? tr("sustained ") : QString(),
                                    formatSignificant(r.efficiency.compute * 100.0, 2));
    if (!in.engine.isEmpty()) {
        // The scenario resolved, so the engine is known: its profile, the version asked for and any fallback.
        const Result<EngineSelection> engine = selectEngine(in.engine);
        if (!engine)
            return engine.error().message;
        const EngineSelection& e = engine.value();
        QString text = tr("%1%2 engine profile: %3, %4 per layer")
                           .arg(e.profile->name, e.version.isEmpty() ? QString() : QLatin1Char(' ') + e.version, shares,
                                formatSeconds(r.terms.layerSeconds));
        if (!e.fallbackNote.isEmpty())
            text += QStringLiteral(" (") + e.fallbackNote + QLatin1Char(')');
        return text;
    }
    const std::optional<EngineChoice> choice = engineChoiceOf(in);
    if (choice == EngineChoice::Ideal)
        return tr("ideal datasheet");
    if (choice == EngineChoice::Plain)
        return tr("plain roofline: %1").arg(shares);
    return tr("%1: %2, %3 per layer")
        .arg(choice == EngineChoice::Measured ? tr("measured engine terms") : tr("fitted engine terms"), shares,
             formatSeconds(r.terms.layerSeconds));
}

QString detailOf(const BatchingScenario& s, const InferenceRequest& in)
{
    const InferenceReport& r = s.report;
    const QString efficiency = engineText(r, in);
    const QString gpus = r.gpus > 1 ? tr("%1 \u00d7 %2 over %3").arg(r.gpus).arg(s.gpuName, s.linkName) : s.gpuName;
    QString detail = tr("%1 on %2  \u00b7  %3 weights, %4 KV  \u00b7  batch %5 \u00d7 %6 tokens  \u00b7  %7 "
                        "(ridge %8 FLOP/byte)  \u00b7  %9 tokens/s per sequence")
                         .arg(s.modelName, gpus, numberFormatName(in.weights), numberFormatName(in.kv),
                              formatGrouped(double(in.batch)), formatGrouped(double(in.context)), efficiency,
                              formatSignificant(r.ridgeFlopPerByte), formatSignificant(r.tokensPerSecondPerSequence));
    if (r.gpus > 1)
        detail += tr("  \u00b7  all-reduces %1 % of the step").arg(formatSignificant(r.commFraction * 100.0, 2));
    for (const QString& note : r.notes)
        detail += QStringLiteral("  \u00b7  ") + note;
    return detail;
}

// The weights a step reads against what the memory bar holds: the same figure, or the reasons they differ (the
// input table is gathered a row per token, a MoE reads only the experts its tokens route to, a draft model adds
// its own passes and holds weights the memory bar does not count).
QString weightsStreamedOf(const BatchingScenario& s)
{
    const QString streamed = formatGB(s.report.step.weightBytes, 2);
    const QString held = formatGB(double(s.memory.weightsBytes), 2);
    if (streamed == held)
        return tr("Every step streams the weights once, whatever the batch: %1 per GPU, all the memory bar holds.")
            .arg(streamed);
    QStringList why;
    const ModelSpec& m = s.config.model;
    if (!m.tiedEmbeddings)
        why << tr("the input embedding table is read a row per token");
    if (m.experts > 0)
        why << tr("only the experts some token routes to are read");
    if (s.config.speculative.enabled())
        why << tr("the draft's %1 passes read their own weights, which the memory bar does not count")
                   .arg(s.config.speculative.tokens);
    const QString reasons = why.isEmpty() ? QString() : QStringLiteral(": ") + why.join(QStringLiteral("; "));
    return tr("Every step streams the weights once, whatever the batch: %1 per GPU against the %2 the memory bar "
              "holds%3.")
        .arg(streamed, held, reasons);
}

QString waitsOn(OperatorBound bound)
{
    switch (bound) {
        case OperatorBound::Memory:
            return tr("it waits on memory");
        case OperatorBound::Compute:
            return tr("it waits on the tensor cores");
        case OperatorBound::Link:
            return tr("it waits on the link");
        case OperatorBound::Fixed:
            break;
    }
    return tr("a fixed engine time");
}

// The takeaway box: the source text's argument, with this configuration's numbers.
QStringList takeawayOf(const BatchingScenario& s, const InferenceRequest& in)
{
    const InferenceReport& r = s.report;
    const BatchSample* one = nullptr;
    for (const BatchSample& sample : s.throughput.curve)
        if (sample.batch == 1)
            one = &sample;
    QStringList items;
    items << weightsStreamedOf(s);
    if (one && in.batch > 1)
        items << tr("From batch 1 to %1: tokens/s %2, time per step %3.")
                     .arg(formatGrouped(double(in.batch)), times(r.tokensPerSecond / one->tokensPerSecond),
                          times(r.step.seconds / one->stepSeconds));
    else if (one)
        items << tr("Batch 1 does %1 FLOP per byte read: the arithmetic units wait on memory.")
                     .arg(formatSignificant(one->intensity));
    if (const StepOperator* binds = bindingOperator(r.step.operators); binds && r.step.seconds > 0)
        items << tr("What binds the step: %1, %2 % of its time (%3).")
                     .arg(binds->name, formatSignificant(100.0 * binds->seconds / r.step.seconds, 2),
                          waitsOn(binds->bound));
    if (r.kneeBatch && *r.kneeBatch <= kPanelMaxBatch)
        items << tr("Compute-bound from batch %1 at this context; beyond it tokens/s flattens.")
                     .arg(formatGrouped(double(*r.kneeBatch)));
    else
        items << tr("Never compute-bound at %1 tokens: each sequence's KV reads grow as fast as its FLOPs.")
                     .arg(formatGrouped(double(in.context)));
    const MemoryBarData& m = s.memory;
    const QString cacheVsWeights = m.kvBytes > m.weightsBytes ? tr("the cache, not the model, fills the card")
                                                              : tr("the weights still take most of the card");
    items << tr("Each sequence carries %1 of KV cache; %2 of them take %3 against %4 of weights: %5.")
                 .arg(formatMemory(double(m.kvBytesPerSequence)), formatGrouped(double(in.batch)),
                      formatGiB(double(m.kvBytes)), formatGiB(double(m.weightsBytes)), cacheVsWeights);
    if (m.maxFittingBatch >= kMaxBatch)
        items << tr("Largest batch that fits at this context: at least %1 (the model counts no further).")
                     .arg(formatGrouped(double(kMaxBatch)));
    else if (m.maxFittingBatch > 0)
        items << tr("Largest batch that fits at this context: %1.").arg(formatGrouped(double(m.maxFittingBatch)));
    else
        items << tr("Not even one sequence fits at this context.");
    return items;
}

}  // namespace

BatchingTexts batchingTexts(const BatchingScenario& scenario, const InferenceRequest& request)
{
    BatchingTexts texts;
    if (scenario.error) {
        texts.error = true;
        texts.headline = tr("Cannot evaluate these inputs");
        QString message = scenario.error->message;
        if (!message.isEmpty())
            message[0] = message[0].toUpper();
        texts.detail = tr("%1. Change an input: the charts come back as soon as the model accepts it.").arg(message);
        return texts;
    }
    texts.headline = headlineOf(scenario);
    texts.detail = detailOf(scenario, request);
    // The scheduler the frontier runs: the engine's, as `ridgeline model --engine X --frontier` runs it.
    texts.scheduler = schedulerSummary(scenario.scheduler);
    texts.takeaway = takeawayOf(scenario, request);
    texts.warnings = batchingWarnings(scenario, request);
    return texts;
}

}  // namespace ridgeline::ui
