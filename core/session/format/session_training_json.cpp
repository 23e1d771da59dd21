#include "core/session/format/session_training_json.h"

#include "core/session/format/session_json_rules.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

namespace {

constexpr int kMaxWidth = 1 << 24;

}  // namespace

QJsonObject trainingToJson(const TrainingResult& t)
{
    QJsonObject out = {{u"tokens"_s, t.tokens},
                       {u"model"_s, t.model},
                       {u"hidden"_s, t.hidden},
                       {u"layers"_s, t.layers},
                       {u"micro_batches"_s, t.microBatches},
                       {u"plain_seconds"_s, t.plainSeconds},
                       {u"checkpoint_seconds"_s, t.checkpointSeconds},
                       {u"accumulate_seconds"_s, t.accumulateSeconds},
                       {u"plain_flops"_s, t.plainFlops},
                       {u"recompute_flops"_s, t.recomputeFlops},
                       {u"plain_peak_bytes"_s, t.plainPeakBytes},
                       {u"checkpoint_peak_bytes"_s, t.checkpointPeakBytes},
                       {u"micro_batch_peak_bytes"_s, t.microBatchPeakBytes},
                       {u"gradient_difference"_s, t.gradientDifference},
                       {u"tolerance"_s, t.tolerance}};
    if (t.forwardFlops > 0.0)
        out.insert(u"forward_flops"_s, t.forwardFlops);
    if (t.recomputeSeconds > 0.0)
        out.insert(u"recompute_seconds"_s, t.recomputeSeconds);
    if (t.bf16Seconds > 0.0) {
        out.insert(u"bf16_seconds"_s, t.bf16Seconds);
        out.insert(u"bf16_fp32_seconds"_s, t.bf16Fp32Seconds);
        out.insert(u"bf16_flops"_s, t.bf16Flops);
        out.insert(u"bf16_peak_bytes"_s, t.bf16PeakBytes);
        out.insert(u"bf16_gradient_difference"_s, t.bf16GradientDifference);
        out.insert(u"bf16_products"_s, t.bf16Products);
    }
    return out;
}

TrainingResult trainingFromJson(ObjectReader& in)
{
    TrainingResult t;
    // Every size at least 1: a step that did not run belongs in "skipped", not in an object of zeros.
    t.tokens = in.smallInteger("tokens"_L1, 1, kMaxWidth, 0, Need::Required);
    t.model = in.smallInteger("model"_L1, 1, kMaxWidth, 0, Need::Required);
    t.hidden = in.smallInteger("hidden"_L1, 1, kMaxWidth, 0, Need::Required);
    t.layers = in.smallInteger("layers"_L1, 1, 4096, 0, Need::Required);
    t.microBatches = in.smallInteger("micro_batches"_L1, 1, kMaxWidth, 0, Need::Required);
    t.plainSeconds = in.number("plain_seconds"_L1, kMaxSeconds, Need::Required);
    t.checkpointSeconds = in.number("checkpoint_seconds"_L1, kMaxSeconds, Need::Required);
    t.accumulateSeconds = in.number("accumulate_seconds"_L1, kMaxSeconds, Need::Required);
    t.plainFlops = in.number("plain_flops"_L1, kMaxOperationCount, Need::Required);
    t.recomputeFlops = in.number("recompute_flops"_L1, kMaxOperationCount, Need::Required);
    t.plainPeakBytes = in.number("plain_peak_bytes"_L1, kMaxOperationCount, Need::Required);
    t.checkpointPeakBytes = in.number("checkpoint_peak_bytes"_L1, kMaxOperationCount, Need::Required);
    t.microBatchPeakBytes = in.number("micro_batch_peak_bytes"_L1, kMaxOperationCount, Need::Required);
    t.gradientDifference = in.number("gradient_difference"_L1, kMaxDifference, Need::Required);
    t.tolerance = in.number("tolerance"_L1, kMaxDifference, Need::Required);
    t.forwardFlops = in.number("forward_flops"_L1, kMaxOperationCount);
    t.recomputeSeconds = in.number("recompute_seconds"_L1, kMaxSeconds);
    // The bf16 step's figures come together or not at all.
    const Need bf16 = in.has("bf16_seconds"_L1) ? Need::Required : Need::Optional;
    t.bf16Seconds = in.number("bf16_seconds"_L1, kMaxSeconds, bf16);
    t.bf16Fp32Seconds = in.number("bf16_fp32_seconds"_L1, kMaxSeconds, bf16);
    t.bf16Flops = in.number("bf16_flops"_L1, kMaxOperationCount, bf16);
    t.bf16PeakBytes = in.number("bf16_peak_bytes"_L1, kMaxOperationCount, bf16);
    t.bf16GradientDifference = in.number("bf16_gradient_difference"_L1, kMaxDifference, bf16);
    t.bf16Products = in.text("bf16_products"_L1, bf16);
    return t;
}

}  // namespace ridgeline
