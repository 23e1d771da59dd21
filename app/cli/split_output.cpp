// `ridgeline model --split` and `--split-sweep`'s output: the JSON object and the table.
#include "app/cli/split_output.h"

#include "app/cli/serving_output.h"
#include "core/model/roofline.h"
#include "core/model/units.h"

#include <QJsonArray>

namespace ridgeline::cli {

namespace {

QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonValue ifKeptUp(bool keepsUp, double value)
{
    return keepsUp ? QJsonValue(value) : QJsonValue();
}

QJsonObject splitObject(const SplitServing& s, bool best)
{
    QJsonObject o;
    const bool up = s.keepsUp;
    o[QStringLiteral("prefill_gpus")] = s.prefillGpus;
    o[QStringLiteral("decode_gpus")] = s.decodeGpus;
    o[QStringLiteral("best")] = best;
    o[QStringLiteral("keeps_up")] = up;
    o[QStringLiteral("max_requests_per_s")] = s.maxRequestsPerSecond;
    o[QStringLiteral("bottleneck")] = s.bottleneck;
    o[QStringLiteral("kv_bytes")] = s.kvBytes;
    o[QStringLiteral("kv_bytes_per_gpu")] = s.kvBytesPerGpu;
    o[QStringLiteral("kv_transfer_s")] = s.kvTransferSeconds;
    o[QStringLiteral("requests_per_s")] = ifKeptUp(up, s.requestsPerSecond);
    o[QStringLiteral("prefill_batch")] = up ? QJsonValue(static_cast<qint64>(s.prefillBatch)) : QJsonValue();
    o[QStringLiteral("decode_batch")] = up ? QJsonValue(static_cast<qint64>(s.decodeBatch)) : QJsonValue();
    o[QStringLiteral("prefill_wait_s")] = ifKeptUp(up, s.prefillWaitSeconds);
    o[QStringLiteral("prefill_s")] = ifKeptUp(up, s.prefillSeconds);
    o[QStringLiteral("kv_exposed_s")] = ifKeptUp(up, s.exposedTransferSeconds);
    o[QStringLiteral("ttft_s")] = ifKeptUp(up, s.ttftSeconds);
    o[QStringLiteral("decode_wait_s")] = ifKeptUp(up, s.decodeWaitSeconds);
    o[QStringLiteral("itl_s")] = ifKeptUp(up, s.itlSeconds);
    o[QStringLiteral("e2e_latency_s")] = ifKeptUp(up, s.e2eSeconds);
    o[QStringLiteral("tokens_per_s_per_gpu")] = ifKeptUp(up, s.tokensPerSecondPerGpu);
    o[QStringLiteral("prefill_utilisation")] = ifKeptUp(up, s.prefillUtilisation);
    o[QStringLiteral("decode_utilisation")] = ifKeptUp(up, s.decodeUtilisation);
    o[QStringLiteral("link_utilisation")] = ifKeptUp(up, s.linkUtilisation);
    o[QStringLiteral("meets_targets")] = s.meetsTargets;
    // Each pool's pass as a point on the roofline: its FLOPs over its bytes, and what bounds it.
    o[QStringLiteral("prefill_intensity_flop_per_byte")] = ifKeptUp(up, s.prefillIntensity);
    o[QStringLiteral("prefill_bound")] = up ? QJsonValue(boundName(s.prefillBound)) : QJsonValue();
    o[QStringLiteral("decode_intensity_flop_per_byte")] = ifKeptUp(up, s.decodeIntensity);
    o[QStringLiteral("decode_bound")] = up ? QJsonValue(boundName(s.decodeBound)) : QJsonValue();
    return o;
}

QJsonObject colocatedObject(const ColocatedServing& c)
{
    QJsonObject o;
    const bool up = c.keepsUp;
    o[QStringLiteral("gpus")] = c.gpus;
    o[QStringLiteral("engines")] = c.engines;
    o[QStringLiteral("keeps_up")] = up;
    o[QStringLiteral("max_requests_per_s")] = c.maxRequestsPerSecond;
    o[QStringLiteral("requests_per_s")] = ifKeptUp(up, c.requestsPerSecond);
    o[QStringLiteral("running_per_engine")] = up ? QJsonValue(static_cast<qint64>(c.latency.running)) : QJsonValue();
    o[QStringLiteral("ttft_s")] = ifKeptUp(up, c.latency.ttftSeconds);
    o[QStringLiteral("itl_s")] = ifKeptUp(up, c.latency.itlSeconds);
    o[QStringLiteral("e2e_latency_s")] = ifKeptUp(up, c.latency.e2eSeconds);
    o[QStringLiteral("tokens_per_s_per_gpu")] = ifKeptUp(up, c.tokensPerSecondPerGpu);
    o[QStringLiteral("utilisation")] = ifKeptUp(up, c.utilisation);
    return o;
}

QJsonObject linkObject(const LinkSpec& link)
{
    QJsonObject o;
    o[QStringLiteral("id")] = link.id;
    o[QStringLiteral("name")] = link.name;
    o[QStringLiteral("gb_per_s_per_direction")] = link.gbPerSecPerDirection;
    o[QStringLiteral("latency_us")] = link.latencyUs;
    o[QStringLiteral("source")] = link.source;
    return o;
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', 0);
}

QString mixText(const SplitView& view)
{
    const InferenceConfig& c = view.config;
    const QString load =
        view.serving.arrivalRate > 0
            ? QStringLiteral("%1 requests/s at random").arg(formatSignificant(view.serving.arrivalRate))
            : QStringLiteral("%1 requests in flight").arg(formatGrouped(view.options.concurrency));
    return QStringLiteral("prompt %1 and output %2 tokens, %3")
        .arg(formatGrouped(c.prompt), formatGrouped(c.output), load);
}

void printSplitRow(QTextStream& out, const SplitServing& s, bool best, bool targets)
{
    const QString ratio = QStringLiteral("%1:%2").arg(s.prefillGpus).arg(s.decodeGpus);
    out << QString(QStringLiteral("  ") + ratio).leftJustified(9)
        << formatSignificant(s.maxRequestsPerSecond).rightJustified(10)
        << QString(QStringLiteral("  ") + s.bottleneck).leftJustified(10);
    if (!s.keepsUp) {
        out << "  does not keep up\n";
        return;
    }
    out << formatSeconds(s.kvTransferSeconds).rightJustified(10) << formatSeconds(s.ttftSeconds).rightJustified(10)
        << formatSeconds(s.itlSeconds).rightJustified(10) << formatSeconds(s.e2eSeconds).rightJustified(10)
        << formatGrouped(s.tokensPerSecondPerGpu).rightJustified(11) << percent(s.prefillUtilisation).rightJustified(9)
        << percent(s.decodeUtilisation).rightJustified(9);
    QString marks = targets ? (s.meetsTargets ? QStringLiteral("  *") : QStringLiteral("   ")) : QString();
    if (best)
        marks += QStringLiteral("  best");
    out << (marks.trimmed().isEmpty() ? QString() : marks) << '\n';
}

void printColocated(QTextStream& out, const ColocatedServing& c)
{
    out << "\n  colocated on the same " << c.gpus << " GPUs (" << c.engines << (c.engines == 1 ? " engine" : " engines")
        << ", prefill chunks beside the decodes): at most " << formatSignificant(c.maxRequestsPerSecond)
        << " requests/s";
    if (!c.keepsUp) {
        out << ", does not keep up\n";
        return;
    }
    out << "\n    TTFT " << formatSeconds(c.latency.ttftSeconds) << ", ITL " << formatSeconds(c.latency.itlSeconds)
        << ", e2e " << formatSeconds(c.latency.e2eSeconds) << ", " << formatGrouped(c.tokensPerSecondPerGpu)
        << " tok/s per GPU, " << percent(c.utilisation) << " of what it serves\n";
}

QString targetsLine(const SplitView& view)
{
    const FrontierTargets& t = view.serving.targets;
    QStringList parts;
    if (t.ttftSeconds)
        parts << QStringLiteral("time to first token <= %1").arg(formatSeconds(*t.ttftSeconds));
    if (t.itlSeconds)
        parts << QStringLiteral("inter-token latency <= %1").arg(formatSeconds(*t.itlSeconds));
    return parts.isEmpty() ? QStringLiteral("none (--ttft-target S, --itl-target S)")
                           : parts.join(QStringLiteral(", ")) + QStringLiteral("; * meets them");
}

// Where the split's passes sit on the roofline: the prefill near the compute roof, the decode on the bandwidth
// roof, the KV cache on the link's.
void printRooflinePlaces(QTextStream& out, const SplitView& view, const SplitServing& s)
{
    const double ridge = view.roof.bandwidthGbps > 0 ? view.roof.peakGflops / view.roof.bandwidthGbps : 0.0;
    out << "\n  on the roofline (ridge " << formatSignificant(ridge) << " FLOP/byte): a prefill pass of "
        << s.prefillBatch << (s.prefillBatch == 1 ? " prompt, " : " prompts, ") << formatSignificant(s.prefillIntensity)
        << " FLOP/byte, " << boundName(s.prefillBound) << "-bound; a decode step of " << s.decodeBatch
        << (s.decodeBatch == 1 ? " request, " : " requests, ") << formatSignificant(s.decodeIntensity) << " FLOP/byte, "
        << boundName(s.decodeBound) << "-bound; the KV cache at the link's "
        << formatGrouped(view.link.gbPerSecPerDirection) << " GB/s\n";
}

}  // namespace

QJsonObject splitJson(const SplitView& view)
{
    const InferenceConfig& c = view.config;
    QJsonObject o;
    o[QStringLiteral("model")] = c.model.id;
    o[QStringLiteral("gpu")] = c.gpu.id;
    o[QStringLiteral("tensor_parallel")] = c.tensorParallel;
    o[QStringLiteral("prompt")] = static_cast<qint64>(c.prompt);
    o[QStringLiteral("output")] = static_cast<qint64>(c.output);
    o[QStringLiteral("arrival_rate")] =
        view.serving.arrivalRate > 0 ? QJsonValue(view.serving.arrivalRate) : QJsonValue();
    o[QStringLiteral("concurrency")] =
        view.serving.arrivalRate > 0 ? QJsonValue() : QJsonValue(static_cast<qint64>(view.options.concurrency));
    o[QStringLiteral("total_gpus")] = view.options.totalGpus;
    o[QStringLiteral("scheduling")] = schedulingJson(view.serving.scheduler);
    o[QStringLiteral("kv_link")] = linkObject(view.link);
    o[QStringLiteral("kv_overlap")] = view.options.inputs.overlapTransfer;
    o[QStringLiteral("ttft_target_s")] = optionalNumber(view.serving.targets.ttftSeconds);
    o[QStringLiteral("itl_target_s")] = optionalNumber(view.serving.targets.itlSeconds);
    o[QStringLiteral("min_ttft_s")] = view.minimums.ttftSeconds;
    o[QStringLiteral("min_itl_s")] = view.minimums.itlSeconds;
    o[QStringLiteral("ridge_flop_per_byte")] =
        view.roof.bandwidthGbps > 0 ? QJsonValue(view.roof.peakGflops / view.roof.bandwidthGbps) : QJsonValue();
    const SplitSweep& sweep = view.sweep;
    o[QStringLiteral("split")] = sweep.best            ? QJsonValue(splitObject(sweep.splits[*sweep.best], true))
                                 : view.options.single ? QJsonValue(splitObject(sweep.splits.front(), false))
                                                       : QJsonValue();
    if (view.options.sweep) {
        QJsonArray all;
        for (std::size_t i = 0; i < sweep.splits.size(); ++i)
            all.append(splitObject(sweep.splits[i], sweep.best == i));
        o[QStringLiteral("split_sweep")] = all;
    }
    o[QStringLiteral("colocated")] = colocatedObject(sweep.colocated);
    return o;
}

void printSplitTable(QTextStream& out, const SplitView& view)
{
    const InferenceConfig& c = view.config;
    out << c.model.name << " on " << c.gpu.name << ": prefill and decode on separate GPUs, " << mixText(view) << '\n';
    out << "  engines of " << c.tensorParallel << (c.tensorParallel == 1 ? " GPU" : " GPUs")
        << "; scheduling: " << schedulingText(view.serving.scheduler) << '\n';
    const SplitServing& first = view.sweep.splits.front();
    out << "  KV cache of a prompt: " << formatBinaryBytes(first.kvBytes) << " over " << view.link.name << ", "
        << formatGrouped(view.link.gbPerSecPerDirection) << " GB/s a direction per GPU, "
        << (view.options.inputs.overlapTransfer ? "sent layer by layer during the prefill" : "sent after the prefill")
        << '\n';
    out << "  targets: " << targetsLine(view) << " (one request alone: time to first token "
        << formatSeconds(view.minimums.ttftSeconds) << ", inter-token latency "
        << formatSeconds(view.minimums.itlSeconds) << ")\n\n";
    out << QStringLiteral("  P:D").leftJustified(9) << QStringLiteral("max req/s").rightJustified(10)
        << QStringLiteral("  bound").leftJustified(10) << QStringLiteral("KV move").rightJustified(10)
        << QStringLiteral("TTFT").rightJustified(10) << QStringLiteral("ITL").rightJustified(10)
        << QStringLiteral("e2e").rightJustified(10) << QStringLiteral("tok/s/GPU").rightJustified(11)
        << QStringLiteral("prefill").rightJustified(9) << QStringLiteral("decode").rightJustified(9) << '\n';
    const bool targets = view.serving.targets.ttftSeconds || view.serving.targets.itlSeconds;
    for (std::size_t i = 0; i < view.sweep.splits.size(); ++i)
        printSplitRow(out, view.sweep.splits[i], view.sweep.best == i, targets);
    printColocated(out, view.sweep.colocated);
    if (!view.sweep.best && view.options.sweep)
        out << "\n  No split " << (targets ? "meets the targets" : "keeps up") << ".\n";
    const std::optional<std::size_t> shown = view.options.single ? std::optional<std::size_t>(0) : view.sweep.best;
    if (shown && view.sweep.splits[*shown].keepsUp)
        printRooflinePlaces(out, view, view.sweep.splits[*shown]);
}

}  // namespace ridgeline::cli
