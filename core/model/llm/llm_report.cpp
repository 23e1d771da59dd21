// The report of one configuration: memory, the decode step with its operators, the knee, the prompt's latency and
// serving under load, assembled from the model's evaluations (core/model/llm/llm_model.h).
#include "core/model/llm/llm_model.h"

#include <algorithm>

namespace ridgeline {

Result<InferenceReport> LlmModel::report() const
{
    const InferenceConfig& c = m_config;
    InferenceReport r;
    r.params = m_params.total;
    r.activeParams = m_params.activePerToken;
    Result<MemoryUse> use = memory(c.batch, c.context);
    if (!use)
        return use.error();
    r.memory = use.value();
    r.weightsBytes = m_weightsBytes;
    r.kvBytesPerToken = m_kvBytesPerToken;
    r.kvTokensPerSequence = kvTokens(c.context);
    r.kvBytesPerSequence = m_kvBytesPerToken * r.kvTokensPerSequence;
    r.kvBytesTotal = r.kvBytesPerSequence * c.batch;
    r.gpus = c.tensorParallel;
    r.nodes = c.gpusPerNode > 0 ? std::max(1, c.tensorParallel / c.gpusPerNode) : 1;
    r.maxBatch = maxBatch(c.context);
    r.step = decodeStep(c.batch, c.context);
    r.tokensPerStep = c.speculative.acceptance;
    r.tokensPerSecond = static_cast<double>(c.batch) * r.tokensPerStep / r.step.seconds;
    r.tokensPerSecondPerSequence = r.tokensPerStep / r.step.seconds;
    {
        // The source text's view: the matmul FLOPs of one pass over the weight bytes it streams (= batch).
        Pass matmuls;
        matmuls.tokens = static_cast<double>(c.batch);
        matmuls.layers = c.model.layers;
        const StepCost plain = run(matmuls);
        r.weightsOnlyIntensity = plain.flops / plain.weightBytes;
    }
    r.computePrecision = m_computePrecision;
    r.attentionPrecision = m_attentionPrecision;
    r.headPrecision = c.headFormat();
    r.peakTflops = c.gpu.peakTflops(m_computePrecision);
    r.ridgeFlopPerByte = ridgeIntensity(effectiveRoof());
    r.datasheetRidgeFlopPerByte = r.peakTflops / c.gpu.bandwidthTbs;
    r.kneeBatch = kneeBatch(c.context);
    r.efficiency = Efficiency{c.efficiency.weightShare(c.weights), c.efficiency.computeShare(m_computePrecision)};
    r.terms = c.efficiency;
    r.commFraction = r.step.commSeconds / r.step.seconds;
    r.notes = m_notes;
    if (c.model.slidingWindow > 0 && c.context > c.model.slidingWindow)
        r.notes << QStringLiteral("sliding window: the KV cache keeps the last %1 tokens").arg(c.model.slidingWindow);
    if (m_headReadsPerKvByte > 1.0)
        r.notes << QStringLiteral("decode attention per query head: each KV head is read %1 times a step")
                       .arg(m_headReadsPerKvByte, 0, 'g', 3);
    if (c.prompt > 0) {
        r.prefill = prefill(c.batch, c.prompt);
        r.ttftSeconds = r.prefill->seconds;
        if (c.output > 0) {
            // The prefill produces the first token; each later token is one decode step over a cache
            // that has grown to prompt + i tokens.
            const double decode = decodeSecondsSum(c.batch, c.prompt + 1, c.prompt + c.output - 1);
            r.e2eLatencySeconds = *r.ttftSeconds + decode;
            r.throughputTokensPerSecond =
                static_cast<double>(c.batch) * static_cast<double>(c.output) / *r.e2eLatencySeconds;
            if (c.output >= 2) {
                r.meanDecodeStepSeconds = decode / static_cast<double>(c.output - 1);
                r.serving = serving(c.batch, c.prompt, c.output);
            }
        }
    }
    return r;
}

}  // namespace ridgeline
