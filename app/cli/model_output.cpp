// `ridgeline model`'s output: the JSON object and the table.
#include "app/cli/model_output.h"

#include "core/model/llm/breakdown_text.h"
#include "core/model/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace ridgeline::cli {

namespace {

QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonObject breakdownJson(const StepBreakdown& b)
{
    QJsonObject o;
    for (const BreakdownPart part : kBreakdownParts)
        o[breakdownPartKey(part)] = breakdownSeconds(b, part);
    return o;
}

double shareOf(double seconds, const StepCost& step)
{
    return step.seconds > 0 ? seconds / step.seconds : 0.0;
}

// Every operator of the step with its FLOPs, bytes, time and share; the shares sum to 1.
QJsonArray operatorsJson(const StepCost& step)
{
    QJsonArray list;
    for (const StepOperator& op : step.operators) {
        QJsonObject o;
        o[QStringLiteral("name")] = op.name;
        o[QStringLiteral("flops")] = op.flops;
        o[QStringLiteral("bytes")] = op.bytes;
        o[QStringLiteral("seconds")] = op.seconds;
        o[QStringLiteral("share")] = shareOf(op.seconds, step);
        o[QStringLiteral("intensity")] = op.intensity();
        o[QStringLiteral("ridge_flop_per_byte")] = op.ridge;
        o[QStringLiteral("bound")] = operatorBoundName(op.bound);
        list.append(o);
    }
    return list;
}

QString basisName(BandwidthBasis basis)
{
    return basis == BandwidthBasis::Sustained ? QStringLiteral("sustained") : QStringLiteral("datasheet");
}

// Beyond the roofline: the breakdown, the engine terms, the quantities the validation set measures, the inputs.
void addIssue13Json(QJsonObject& o, const InferenceConfig& c, const InferenceReport& r)
{
    o[QStringLiteral("breakdown")] = breakdownJson(r.step.breakdown);
    o[QStringLiteral("overhead_time_s")] = r.step.overheadSeconds;
    o[QStringLiteral("token_latency_s")] = 1.0 / r.tokensPerSecondPerSequence;
    o[QStringLiteral("tokens_per_step")] = r.tokensPerStep;
    QJsonObject terms;
    for (const EngineTerm& term : allTerms())
        terms[termName(term)] = termValue(r.terms, term);
    o[QStringLiteral("terms")] = terms;
    o[QStringLiteral("bandwidth_basis")] = basisName(r.terms.bandwidthBasis);
    o[QStringLiteral("sustained_bandwidth_tbs")] = c.gpu.sustainedBandwidthTbs();
    o[QStringLiteral("attention_weights_precision")] = numberFormatName(c.attentionFormat());
    o[QStringLiteral("head_weights_precision")] = numberFormatName(r.headPrecision);
    o[QStringLiteral("attention_compute_precision")] = numberFormatName(r.attentionPrecision);
    o[QStringLiteral("expert_parallel")] = c.expertParallel;
    o[QStringLiteral("decode_attention")] = decodeAttentionName(c.decodeAttention);
    o[QStringLiteral("nodes")] = r.nodes;
    o[QStringLiteral("network")] = r.nodes > 1 ? QJsonValue(c.network.id) : QJsonValue();
    o[QStringLiteral("all_reduce")] = allReduceKernelsName(c.allReduce);
    if (c.speculative.enabled()) {
        QJsonObject spec;
        spec[QStringLiteral("tokens")] = c.speculative.tokens;
        spec[QStringLiteral("acceptance")] = c.speculative.acceptance;
        o[QStringLiteral("speculative")] = spec;
    }
    o[QStringLiteral("operators")] = operatorsJson(r.step);
    const StepOperator* binds = bindingOperator(r.step.operators);
    o[QStringLiteral("binding_operator")] = binds ? QJsonValue(binds->name) : QJsonValue();
    if (r.prefill) {
        o[QStringLiteral("prefill_breakdown")] = breakdownJson(r.prefill->breakdown);
        o[QStringLiteral("prefill_operators")] = operatorsJson(*r.prefill);
    }
    if (r.meanDecodeStepSeconds) {
        o[QStringLiteral("tpot_s")] = *r.meanDecodeStepSeconds;
        o[QStringLiteral("decode_tokens_per_s")] = static_cast<double>(c.batch) / *r.meanDecodeStepSeconds;
    }
    if (r.serving) {
        o[QStringLiteral("serving_tpot_s")] = r.serving->tpotSeconds;
        o[QStringLiteral("serving_tokens_per_s")] = r.serving->outputTokensPerSecond;
        o[QStringLiteral("serving_prefill_tokens_per_step")] = r.serving->prefillTokensPerStep;
        o[QStringLiteral("serving_breakdown")] = breakdownJson(r.serving->step.breakdown);
        o[QStringLiteral("serving_operators")] = operatorsJson(r.serving->step);
    }
}

QString termsText(const InferenceReport& r)
{
    const EngineTerms& t = r.terms;
    if (t.isIdeal())
        return QStringLiteral("ideal datasheet (every share 1, no fixed times)");
    if (t == EngineTerms(Efficiency{r.efficiency.bandwidth, r.efficiency.compute}))
        return QStringLiteral("plain roofline: bandwidth %1, compute %2 of the datasheet, no fixed times")
            .arg(r.efficiency.bandwidth, 0, 'f', 2)
            .arg(r.efficiency.compute, 0, 'f', 2);
    return QStringLiteral("weights %1, compute %2 (%3), fixed %4 per layer + %5 per sequence and layer%6")
        .arg(r.efficiency.bandwidth, 0, 'f', 2)
        .arg(r.efficiency.compute, 0, 'f', 2)
        .arg(t == EngineTerms::measured() ? QStringLiteral("measured defaults")
                                          : QStringLiteral("adjusted: an engine profile or terms you set"))
        .arg(formatSeconds(t.layerSeconds), formatSeconds(t.sequenceSeconds),
             t.bandwidthBasis == BandwidthBasis::Sustained ? QStringLiteral("; shares of the sustained bandwidth")
                                                           : QString());
}

void row(QTextStream& out, const char* label, const QString& value)
{
    out << "  " << QString::fromLatin1(label).leftJustified(24) << value << '\n';
}

// What runs where: model, GPUs and link, formats, batch and context, experts, nodes, speculation, engine terms.
void printSetup(QTextStream& out, const InferenceConfig& c, const InferenceReport& r)
{
    out << c.model.name << " on " << c.gpu.name
        << (r.gpus > 1 ? QStringLiteral(" x%1 over %2").arg(r.gpus).arg(c.link.name) : QString())
        << (r.gpus > 1 && c.allReduce == AllReduceKernels::Custom ? QStringLiteral(", custom all-reduce kernels")
                                                                  : QString())
        << (crossesSockets(c.link, r.gpus) ? QStringLiteral(", two CPU sockets of %1 GPUs (%2 GB/s between them)")
                                                 .arg(c.link.gpusPerSocket)
                                                 .arg(c.link.socketGbPerSec)
                                           : QString())
        << '\n';
    out << "  " << numberFormatName(c.weights) << " weights, " << numberFormatName(c.kv) << " KV cache, batch "
        << formatGrouped(c.batch) << ", context " << formatGrouped(c.context) << " tokens\n";
    if (c.attentionFormat() != c.weights || r.headPrecision != c.weights)
        out << "  attention weights " << numberFormatName(c.attentionFormat()) << ", embeddings and LM head "
            << numberFormatName(r.headPrecision) << '\n';
    if (c.model.isMoe())
        out << "  " << c.model.experts << " experts, " << c.model.activeExperts << " active per token"
            << (c.expertParallel > 1 ? QStringLiteral(", spread over %1 GPUs").arg(c.expertParallel) : QString())
            << '\n';
    if (r.nodes > 1)
        out << "  " << r.nodes << " nodes of " << c.gpusPerNode << " GPUs, " << c.network.name << " between them\n";
    if (c.speculative.enabled())
        out << "  speculative decoding: " << c.speculative.tokens << " draft tokens, "
            << QString::number(c.speculative.acceptance, 'g', 3) << " tokens gained per step\n";
    if (c.decodeAttention == DecodeAttention::PerQueryHead)
        out << "  decode attention per query head: each reads its KV head again from the cache ("
            << formatSeconds(r.terms.headReadSeconds) << " per GiB)\n";
    out << "  engine: " << termsText(r) << '\n';
}

// Memory per GPU: parameters, weights, KV cache per token, sequence and batch, and whether it fits.
void printMemory(QTextStream& out, const InferenceReport& r)
{
    out << "\nMemory" << (r.gpus > 1 ? " (per GPU)" : "") << '\n';
    row(out, "parameters",
        QStringLiteral("%1 (%2 B)").arg(formatGrouped(r.params)).arg(static_cast<double>(r.params) / 1e9, 0, 'f', 2) +
            (r.activeParams != r.params
                 ? QStringLiteral(", %1 B active per token").arg(static_cast<double>(r.activeParams) / 1e9, 0, 'f', 2)
                 : QString()));
    row(out, "weights",
        QStringLiteral("%1 = %2").arg(formatGB(static_cast<double>(r.weightsBytes)),
                                      formatGiB(static_cast<double>(r.weightsBytes))) +
            (r.gpus > 1
                 ? QStringLiteral(" in all, %1 per GPU").arg(formatGiB(static_cast<double>(r.memory.weightsPerGpu)))
                 : QString()));
    row(out, "KV cache per token",
        QStringLiteral("%1 (%2 bytes)")
            .arg(formatBinaryBytes(static_cast<double>(r.kvBytesPerToken)), formatGrouped(r.kvBytesPerToken)));
    row(out, "KV per sequence",
        QStringLiteral("%1 (%2 tokens)")
            .arg(formatBinaryBytes(static_cast<double>(r.kvBytesPerSequence)), formatGrouped(r.kvTokensPerSequence)));
    row(out, "KV for the batch",
        formatBinaryBytes(static_cast<double>(r.kvBytesTotal)) +
            (r.gpus > 1
                 ? QStringLiteral(" in all, %1 per GPU").arg(formatBinaryBytes(static_cast<double>(r.memory.kvPerGpu)))
                 : QString()));
    row(out, "required / capacity",
        QStringLiteral("%1 of %2: %3")
            .arg(formatGiB(static_cast<double>(r.memory.requiredPerGpu)),
                 formatGiB(static_cast<double>(r.memory.capacityPerGpu)),
                 r.memory.fits ? QStringLiteral("fits") : QStringLiteral("DOES NOT FIT")));
    row(out, "max batch that fits", formatGrouped(r.maxBatch));
}

// One decode step: FLOPs, bytes, intensity against the ridge, time and where it goes, the knee batch.
void printDecodeStep(QTextStream& out, const InferenceConfig& c, const InferenceReport& r)
{
    out << "\nDecode step" << (r.gpus > 1 ? " (per GPU)" : "") << '\n';
    row(out, "FLOPs", formatCount(r.step.flops));
    row(out, "bytes",
        QStringLiteral("%1 (weights %2, KV %3)")
            .arg(formatGB(r.step.bytes), formatGB(r.step.weightBytes), formatGB(r.step.kvBytes)));
    if (c.model.isMoe())
        row(out, "experts touched",
            QStringLiteral("%1 of %2 per layer").arg(r.step.expertsTouched, 0, 'f', 1).arg(c.model.experts));
    row(out, "arithmetic intensity",
        QStringLiteral("%1 FLOP/byte (weights only: %2)")
            .arg(r.step.intensity, 0, 'f', 2)
            .arg(r.weightsOnlyIntensity, 0, 'f', 2));
    row(out, "ridge",
        QStringLiteral("%1 FLOP/byte (datasheet %2, %3 TFLOP/s %4 / %5 TB/s)")
            .arg(r.ridgeFlopPerByte, 0, 'f', 1)
            .arg(r.datasheetRidgeFlopPerByte, 0, 'f', 1)
            .arg(r.peakTflops)
            .arg(numberFormatName(r.computePrecision))
            .arg(c.gpu.bandwidthTbs));
    row(out, "bound", boundName(r.step.bound));
    row(out, "attention alone",
        QStringLiteral("%1 FLOP/byte over the KV cache").arg(r.step.attentionIntensity(), 0, 'f', 1));
    row(out, "step time",
        QStringLiteral("%1 (compute %2, memory %3%4)")
            .arg(formatSeconds(r.step.seconds), formatSeconds(r.step.computeSeconds),
                 formatSeconds(r.step.memorySeconds),
                 r.gpus > 1 ? QStringLiteral(", all-reduce %1 = %2 %")
                                  .arg(formatSeconds(r.step.commSeconds))
                                  .arg(r.commFraction * 100.0, 0, 'f', 0)
                            : QString()));
    row(out, "where it goes", breakdownText(r.step.breakdown));
    row(out, "tokens/s",
        QStringLiteral("%1 aggregate, %2 per sequence")
            .arg(r.tokensPerSecond, 0, 'f', 1)
            .arg(r.tokensPerSecondPerSequence, 0, 'f', 1));
    row(out, "knee (compute-bound)",
        r.kneeBatch ? QStringLiteral("batch %1%2")
                          .arg(formatGrouped(*r.kneeBatch),
                               *r.kneeBatch > r.maxBatch ? QStringLiteral(" (beyond what fits)") : QString())
                    : QStringLiteral("never at this context: KV reads grow as fast as the FLOPs"));
}

// The binding operator: the largest share of the step, and what bounds it.
QString bindingText(const StepOperator& op, const StepCost& step)
{
    const QString share =
        QStringLiteral("%1, %2 % of the step").arg(op.name).arg(shareOf(op.seconds, step) * 100.0, 0, 'f', 0);
    if (op.bound == OperatorBound::Link)
        return share + QStringLiteral(", waiting on the link");
    if (op.bound == OperatorBound::Fixed)
        return share + QStringLiteral(", a fixed engine time");
    return share + QStringLiteral(", %1-bound: %2 FLOP/byte %3 its ridge of %4")
                       .arg(operatorBoundName(op.bound))
                       .arg(op.intensity(), 0, 'f', 1)
                       .arg(op.bound == OperatorBound::Compute ? QStringLiteral("above") : QStringLiteral("below"))
                       .arg(op.ridge, 0, 'f', 1);
}

// The operators of one decode step: FLOPs, bytes, intensity, time and share each, and which one binds.
void printOperators(QTextStream& out, const InferenceReport& r)
{
    out << "\nOperators of one decode step" << (r.gpus > 1 ? " (per GPU)" : "") << '\n';
    out << "  " << QStringLiteral("operator").leftJustified(46) << QStringLiteral("FLOPs").rightJustified(11)
        << QStringLiteral("bytes").rightJustified(11) << QStringLiteral("FLOP/B").rightJustified(9)
        << QStringLiteral("time").rightJustified(11) << QStringLiteral("share").rightJustified(8) << "  bound\n";
    for (const StepOperator& op : r.step.operators)
        out << "  " << op.name.leftJustified(46)
            << (op.flops > 0 ? formatCount(op.flops) : QStringLiteral("-")).rightJustified(11)
            << (op.bytes > 0 ? formatGB(op.bytes) : QStringLiteral("-")).rightJustified(11)
            << (op.flops > 0 && op.bytes > 0 ? QString::number(op.intensity(), 'f', 1) : QStringLiteral("-"))
                   .rightJustified(9)
            << formatSeconds(op.seconds).rightJustified(11)
            << QStringLiteral("%1 %").arg(shareOf(op.seconds, r.step) * 100.0, 0, 'f', 1).rightJustified(8) << "  "
            << operatorBoundName(op.bound) << '\n';
    if (const StepOperator* binds = bindingOperator(r.step.operators))
        out << "  binds: " << bindingText(*binds, r.step) << '\n';
}

// With a prompt: the prefill, the static batch's latency and throughput.
void printPrompt(QTextStream& out, const InferenceConfig& c, const InferenceReport& r)
{
    out << "\nPrompt " << formatGrouped(c.prompt) << " tokens, output " << formatGrouped(c.output)
        << " tokens (static batch)\n";
    row(out, "time to first token",
        formatSeconds(*r.ttftSeconds) + QStringLiteral(" (%1-bound prefill)").arg(boundName(r.prefill->bound)));
    row(out, "prefill goes to", breakdownText(r.prefill->breakdown));
    if (r.e2eLatencySeconds) {
        row(out, "end-to-end latency", formatSeconds(*r.e2eLatencySeconds));
        row(out, "throughput", QStringLiteral("%1 tokens/s").arg(*r.throughputTokensPerSecond, 0, 'f', 1));
    }
    if (r.meanDecodeStepSeconds)
        row(out, "time per output token", formatSeconds(*r.meanDecodeStepSeconds));
}

// With an output of two tokens or more: the same lengths under continuous batching.
void printServing(QTextStream& out, const InferenceConfig& c, const ServingEstimate& serving)
{
    out << "\nServing " << formatGrouped(c.batch)
        << " requests at once (continuous batching, prefills folded into the steps)\n";
    row(out, "step",
        QStringLiteral("%1 with %2 prefill tokens")
            .arg(formatSeconds(serving.step.seconds))
            .arg(serving.prefillTokensPerStep, 0, 'f', 0));
    row(out, "where it goes", breakdownText(serving.step.breakdown));
    row(out, "time per output token", formatSeconds(serving.tpotSeconds));
    row(out, "throughput", QStringLiteral("%1 output tokens/s").arg(serving.outputTokensPerSecond, 0, 'f', 1));
}

}  // namespace

QJsonObject modelReportJson(const InferenceConfig& config, const InferenceReport& r)
{
    QJsonObject o;
    o[QStringLiteral("model")] = config.model.id;
    o[QStringLiteral("gpu")] = config.gpu.id;
    o[QStringLiteral("batch")] = static_cast<qint64>(config.batch);
    o[QStringLiteral("context")] = static_cast<qint64>(config.context);
    o[QStringLiteral("weights_precision")] = numberFormatName(config.weights);
    o[QStringLiteral("kv_precision")] = numberFormatName(config.kv);
    o[QStringLiteral("compute_precision")] = numberFormatName(r.computePrecision);
    o[QStringLiteral("tensor_parallel")] = r.gpus;
    o[QStringLiteral("link")] = config.tensorParallel > 1 ? QJsonValue(config.link.id) : QJsonValue();
    // Between a PCIe server's two sockets every all-reduced byte runs at this rate; null on one socket or NVLink.
    o[QStringLiteral("between_sockets_gb_s")] =
        crossesSockets(config.link, config.tensorParallel) ? QJsonValue(config.link.socketGbPerSec) : QJsonValue();
    o[QStringLiteral("params")] = static_cast<qint64>(r.params);
    o[QStringLiteral("active_params")] = static_cast<qint64>(r.activeParams);
    o[QStringLiteral("weights_bytes")] = static_cast<qint64>(r.weightsBytes);
    o[QStringLiteral("kv_bytes_per_token")] = static_cast<qint64>(r.kvBytesPerToken);
    o[QStringLiteral("kv_tokens_per_sequence")] = static_cast<qint64>(r.kvTokensPerSequence);
    o[QStringLiteral("kv_bytes_per_sequence")] = static_cast<qint64>(r.kvBytesPerSequence);
    o[QStringLiteral("kv_bytes_total")] = static_cast<qint64>(r.kvBytesTotal);
    o[QStringLiteral("memory_required_bytes")] = static_cast<qint64>(r.memory.requiredPerGpu);
    o[QStringLiteral("gpu_memory_bytes")] = static_cast<qint64>(r.memory.capacityPerGpu);
    o[QStringLiteral("fits")] = r.memory.fits;
    o[QStringLiteral("max_batch")] = static_cast<qint64>(r.maxBatch);
    o[QStringLiteral("flops_per_step")] = r.step.flops;
    o[QStringLiteral("bytes_per_step")] = r.step.bytes;
    o[QStringLiteral("weight_bytes_per_step")] = r.step.weightBytes;
    o[QStringLiteral("kv_bytes_per_step")] = r.step.kvBytes;
    o[QStringLiteral("compute_time_s")] = r.step.computeSeconds;
    o[QStringLiteral("memory_time_s")] = r.step.memorySeconds;
    o[QStringLiteral("comm_time_s")] = r.step.commSeconds;
    o[QStringLiteral("step_time_s")] = r.step.seconds;
    o[QStringLiteral("tokens_per_s")] = r.tokensPerSecond;
    o[QStringLiteral("tokens_per_s_per_sequence")] = r.tokensPerSecondPerSequence;
    o[QStringLiteral("arithmetic_intensity")] = r.step.intensity;
    o[QStringLiteral("weights_only_intensity")] = r.weightsOnlyIntensity;
    o[QStringLiteral("attention_intensity")] = r.step.attentionIntensity();
    o[QStringLiteral("bound")] = boundName(r.step.bound);
    o[QStringLiteral("ridge_flop_per_byte")] = r.ridgeFlopPerByte;
    o[QStringLiteral("datasheet_ridge_flop_per_byte")] = r.datasheetRidgeFlopPerByte;
    o[QStringLiteral("peak_tflops")] = r.peakTflops;
    o[QStringLiteral("bandwidth_tbs")] = config.gpu.bandwidthTbs;
    o[QStringLiteral("knee_batch")] = r.kneeBatch ? QJsonValue(static_cast<qint64>(*r.kneeBatch)) : QJsonValue();
    o[QStringLiteral("bandwidth_efficiency")] = r.efficiency.bandwidth;
    o[QStringLiteral("compute_efficiency")] = r.efficiency.compute;
    o[QStringLiteral("comm_fraction")] = r.commFraction;
    if (config.model.isMoe())
        o[QStringLiteral("experts_touched_per_layer")] = r.step.expertsTouched;
    if (config.prompt > 0) {
        o[QStringLiteral("prompt")] = static_cast<qint64>(config.prompt);
        o[QStringLiteral("output")] = static_cast<qint64>(config.output);
        o[QStringLiteral("prefill_flops")] = r.prefill->flops;
        o[QStringLiteral("ttft_s")] = optionalNumber(r.ttftSeconds);
        o[QStringLiteral("e2e_latency_s")] = optionalNumber(r.e2eLatencySeconds);
        o[QStringLiteral("throughput_tokens_per_s")] = optionalNumber(r.throughputTokensPerSecond);
    }
    addIssue13Json(o, config, r);
    o[QStringLiteral("notes")] = QJsonValue::fromVariant(r.notes);
    return o;
}

void printModelTable(QTextStream& out, const InferenceConfig& c, const InferenceReport& r)
{
    printSetup(out, c, r);
    printMemory(out, r);
    printDecodeStep(out, c, r);
    printOperators(out, r);
    if (r.ttftSeconds) {
        printPrompt(out, c, r);
        if (r.serving)
            printServing(out, c, *r.serving);
    }
    for (const QString& note : r.notes)
        out << "  note: " << note << '\n';
}

}  // namespace ridgeline::cli

namespace ridgeline::cli {

namespace {

// The profile's terms that apply on this card, each with its value and source.
std::vector<const TermOverride*> appliedOverrides(const EngineProfile& profile, const GpuSpec& gpu)
{
    std::vector<const TermOverride*> applied;
    for (const EngineTerm& term : allTerms())
        if (const TermOverride* o = profile.overrideFor(term, memoryFamily(gpu)))
            applied.push_back(o);
    return applied;
}

}  // namespace

QJsonObject engineJson(const EngineSelection& engine, const GpuSpec& gpu)
{
    QJsonObject o;
    o[QStringLiteral("name")] = engine.profile->id;
    o[QStringLiteral("version")] = engine.version.isEmpty() ? QJsonValue() : QJsonValue(engine.version);
    o[QStringLiteral("fallback_note")] = engine.fallbackNote.isEmpty() ? QJsonValue() : QJsonValue(engine.fallbackNote);
    o[QStringLiteral("memory_family")] = memoryFamilyName(memoryFamily(gpu));
    QJsonArray overrides;
    for (const TermOverride* applied : appliedOverrides(*engine.profile, gpu)) {
        QJsonObject term;
        term[QStringLiteral("term")] = termName(applied->term);
        term[QStringLiteral("value")] = applied->value;
        term[QStringLiteral("source")] = applied->source;
        overrides.append(term);
    }
    o[QStringLiteral("overrides")] = overrides;
    return o;
}

QString engineLine(const EngineSelection& engine, const GpuSpec& gpu)
{
    const EngineProfile& p = *engine.profile;
    QStringList terms;
    for (const TermOverride* applied : appliedOverrides(p, gpu))
        terms << QStringLiteral("%1 %2").arg(termName(applied->term)).arg(applied->value, 0, 'g', 3);
    return QStringLiteral("Engine: %1%2 on %3 memory: %4 (`ridgeline catalog engines` gives the sources)")
        .arg(p.name, engine.version.isEmpty() ? QString() : QLatin1Char(' ') + engine.version,
             memoryFamilyName(memoryFamily(gpu)),
             terms.isEmpty() ? QStringLiteral("the measured defaults") : terms.join(QStringLiteral(", ")));
}

}  // namespace ridgeline::cli
