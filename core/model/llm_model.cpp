#include "core/model/llm_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline {

namespace {

constexpr double kActivationBytes = 2.0;  // all-reduced activations are bf16

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}
Error outOfRange(const QString& message)
{
    return makeError(Error::Code::Range, message);
}

bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t& out)
{
    return !__builtin_mul_overflow(a, b, &out);
}
bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t& out)
{
    return !__builtin_add_overflow(a, b, &out);
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return a / b + (a % b != 0 ? 1 : 0);
}

bool isFraction(double x)
{
    return std::isfinite(x) && x > 0.0 && x <= 1.0;
}

// Sum of a + b e over integers e in [lo, hi].
double sumAffine(double a, double b, std::int64_t lo, std::int64_t hi)
{
    if (hi < lo)
        return 0.0;
    const double n = static_cast<double>(hi - lo + 1);
    return n * a + b * n * (static_cast<double>(lo) + static_cast<double>(hi)) / 2.0;
}

// Sum of max(a1 + b1 e, a2 + b2 e) over integers e in [lo, hi]: split where the two lines cross.
double sumMaxAffine(double a1, double b1, double a2, double b2, std::int64_t lo, std::int64_t hi)
{
    if (hi < lo)
        return 0.0;
    auto first = [&](std::int64_t e) { return a1 + b1 * static_cast<double>(e) >= a2 + b2 * static_cast<double>(e); };
    if (first(lo) == first(hi)) {
        // Two lines cross at most once; same winner at both ends means the same winner throughout.
        return first(lo) ? sumAffine(a1, b1, lo, hi) : sumAffine(a2, b2, lo, hi);
    }
    // Binary search the last e where the winner is the same as at lo (exact, no rounding of the crossing).
    std::int64_t good = lo, bad = hi;
    const bool atLo = first(lo);
    while (bad - good > 1) {
        const std::int64_t mid = good + (bad - good) / 2;
        (first(mid) == atLo ? good : bad) = mid;
    }
    const double left = atLo ? sumAffine(a1, b1, lo, good) : sumAffine(a2, b2, lo, good);
    const double right = atLo ? sumAffine(a2, b2, bad, hi) : sumAffine(a1, b1, bad, hi);
    return left + right;
}

}  // namespace

Result<LlmModel> LlmModel::create(const InferenceConfig& config)
{
    LlmModel model;
    model.m_config = config;
    const ModelSpec& m = config.model;
    const GpuSpec& gpu = config.gpu;

    Result<ParamCounts> counts = countParams(m);
    if (!counts)
        return counts.error();
    model.m_params = counts.value();

    if (config.batch < 1 || config.batch > kMaxBatch)
        return outOfRange(QStringLiteral("batch must be between 1 and %1, got %2").arg(kMaxBatch).arg(config.batch));
    if (config.context < 1 || config.context > kMaxContext)
        return outOfRange(
            QStringLiteral("context must be between 1 and %1 tokens, got %2").arg(kMaxContext).arg(config.context));
    if (config.prompt < 0 || config.output < 0 || config.prompt > kMaxContext || config.output > kMaxContext ||
        config.prompt + config.output > kMaxContext)
        return outOfRange(
            QStringLiteral("prompt and output must be non-negative and together at most %1 tokens").arg(kMaxContext));
    if (config.output > 0 && config.prompt < 1)
        return invalid(QStringLiteral("an output length needs a prompt of at least one token"));
    if (config.tensorParallel < 1 || config.tensorParallel > kMaxTensorParallel)
        return outOfRange(QStringLiteral("tensor-parallel degree must be between 1 and %1, got %2")
                              .arg(kMaxTensorParallel)
                              .arg(config.tensorParallel));
    if (m.heads % config.tensorParallel != 0)
        return invalid(QStringLiteral("tensor-parallel degree %1 does not divide the %2 query heads of %3")
                           .arg(config.tensorParallel)
                           .arg(m.heads)
                           .arg(m.name));
    if (config.tensorParallel > 1 && !(config.link.gbPerSecPerDirection > 0 && config.link.latencyUs >= 0))
        return invalid(
            QStringLiteral("tensor parallelism over %1 GPUs needs a link (e.g. nvlink4)").arg(config.tensorParallel));
    if (!isStorageFormat(config.weights) || !isStorageFormat(config.kv))
        return invalid(QStringLiteral("tf32 is a compute mode, not a storage format for weights or KV cache"));
    if (!isFraction(config.efficiency.bandwidth) || !isFraction(config.efficiency.compute))
        return invalid(QStringLiteral("efficiencies must be in (0, 1], got bandwidth %1 and compute %2")
                           .arg(config.efficiency.bandwidth)
                           .arg(config.efficiency.compute));
    if (!(gpu.bandwidthTbs > 0) || !std::isfinite(gpu.bandwidthTbs) || !(gpu.memoryGib > 0) ||
        !std::isfinite(gpu.memoryGib))
        return invalid(QStringLiteral("GPU %1 needs a positive bandwidth and memory").arg(gpu.id));

    // Arithmetic runs in the weights' format when the GPU has tensor cores for it; int4 (weight-only)
    // and formats the card lacks (fp8 on an A100) are dequantised and multiplied in bf16.
    NumberFormat compute = config.weights;
    if (compute == NumberFormat::Int4 || !(gpu.peakTflops(compute) > 0)) {
        compute = gpu.peakTflops(NumberFormat::Bf16) > 0 ? NumberFormat::Bf16 : NumberFormat::Fp16;
        if (config.weights != NumberFormat::Bf16)
            model.m_notes << QStringLiteral("%1 weights are multiplied in %2 on this GPU")
                                 .arg(numberFormatName(config.weights), numberFormatName(compute));
    }
    const double peakTflops = gpu.peakTflops(compute);
    if (!(peakTflops > 0) || !std::isfinite(peakTflops))
        return invalid(QStringLiteral("GPU %1 has no dense peak for %2").arg(gpu.id, numberFormatName(compute)));
    model.m_computePrecision = compute;
    model.m_peakFlops = peakTflops * 1e12 * config.efficiency.compute;
    model.m_bandwidth = gpu.bandwidthTbs * 1e12 * config.efficiency.bandwidth;

    const ParamCounts& p = model.m_params;
    const double untiedEmbedding = m.tiedEmbeddings ? 0.0 : static_cast<double>(p.embedding);
    model.m_matmulFlopsPerToken =
        2.0 * (static_cast<double>(p.activePerToken) - untiedEmbedding - static_cast<double>(p.positional));
    const double H = m.heads;
    if (m.isMla()) {
        model.m_decodeAttentionFlops = 2.0 * H * (m.kvLoraRank + m.qkRopeHeadDim) + 2.0 * H * m.kvLoraRank;
        model.m_prefillAttentionFlops = 2.0 * H * (m.qkNopeHeadDim + m.qkRopeHeadDim) + 2.0 * H * m.vHeadDim;
    } else {
        model.m_decodeAttentionFlops = 4.0 * H * m.headDim;
        model.m_prefillAttentionFlops = model.m_decodeAttentionFlops;
    }

    // KV bytes per token: 2 (K and V) x layers x KV heads x head dim x bytes; MLA caches the latent
    // vector and the decoupled rope key once per layer. Never from the hidden size.
    const std::int64_t valuesPerLayer =
        m.isMla() ? std::int64_t{m.kvLoraRank} + m.qkRopeHeadDim : 2 * std::int64_t{m.kvHeads} * m.headDim;
    std::int64_t kvBits = 0;
    if (!checkedMul(valuesPerLayer, m.layers, kvBits) || !checkedMul(kvBits, bitsPerElement(config.kv), kvBits))
        return outOfRange(QStringLiteral("KV bytes per token overflow"));
    model.m_kvBytesPerToken = ceilDiv(kvBits, 8);
    model.m_kvSplit = m.isMla() ? 1 : std::min(config.tensorParallel, m.kvHeads);
    if (m.isMla() && config.tensorParallel > 1)
        model.m_notes << QStringLiteral("the MLA latent cache is replicated on every tensor-parallel GPU");

    Result<MemoryUse> use = model.memory(config.batch, config.context);
    if (!use)
        return use.error();
    return model;
}

std::int64_t LlmModel::kvTokens(std::int64_t context) const
{
    const int window = m_config.model.slidingWindow;
    return window > 0 ? std::min<std::int64_t>(context, window) : context;
}

double LlmModel::expectedExpertsTouched(double tokens) const
{
    const ModelSpec& m = m_config.model;
    if (!m.isMoe() || m_config.model.paramsOverride > 0)
        return 0.0;
    const double e = m.experts;
    // Each token picks k of E experts; with uniform routing an expert is missed by one token with
    // probability 1 - k/E, by all of them with (1 - k/E)^tokens.
    return e * (1.0 - std::pow(1.0 - m.activeExperts / e, tokens));
}

double LlmModel::weightBytesRead(double tokens) const
{
    const ModelSpec& m = m_config.model;
    const double bytesPerWeight = bitsPerElement(m_config.weights) / 8.0;
    const double untiedEmbedding = m.tiedEmbeddings ? 0.0 : static_cast<double>(m_params.embedding);
    const double streamed = static_cast<double>(m_params.total - m_params.routedExperts) - untiedEmbedding -
                            static_cast<double>(m_params.positional);
    double gathered = 0.0;  // one embedding row (and one position row) per token, at most the whole table
    if (!m.tiedEmbeddings)
        gathered += std::min(tokens, static_cast<double>(m.vocab)) * m.hidden;
    if (m.learnedPositions > 0)
        gathered += std::min(tokens, static_cast<double>(m.learnedPositions)) * m.hidden;
    const double experts = m.moeLayers() * expectedExpertsTouched(tokens) * static_cast<double>(m_params.perExpert);
    return (streamed + gathered + (m_params.routedExperts > 0 ? experts : 0.0)) * bytesPerWeight;
}

Roof LlmModel::effectiveRoof() const
{
    return Roof{m_peakFlops / 1e9, m_bandwidth / 1e9};
}

StepCost LlmModel::finish(double flops, double attentionFlops, double weightBytes, double kvBytes, double commSeconds,
                          double experts) const
{
    const double t = m_config.tensorParallel;
    StepCost cost;
    cost.flops = flops / t;
    cost.weightBytes = weightBytes / t;
    cost.kvBytes = kvBytes / m_kvSplit;
    cost.bytes = cost.weightBytes + cost.kvBytes;
    cost.computeSeconds = cost.flops / m_peakFlops;
    cost.memorySeconds = cost.bytes / m_bandwidth;
    cost.commSeconds = commSeconds;
    cost.seconds = std::max(cost.computeSeconds, cost.memorySeconds) + commSeconds;
    cost.intensity = cost.bytes > 0 ? cost.flops / cost.bytes : 0.0;
    cost.bound = boundAt(effectiveRoof(), cost.intensity);
    cost.expertsTouched = experts;
    cost.attentionFlops = attentionFlops / t;
    return cost;
}

StepCost LlmModel::decodeStep(std::int64_t batch, std::int64_t context) const
{
    const ModelSpec& m = m_config.model;
    const double b = static_cast<double>(batch);
    const double e = static_cast<double>(kvTokens(context));
    const double attention = b * m.layers * m_decodeAttentionFlops * e;
    const double flops = b * m_matmulFlopsPerToken + attention;
    const double kvBytes = b * e * static_cast<double>(m_kvBytesPerToken);
    const double comm =
        2.0 * m.layers * ringAllReduceSeconds(m_config.link, m_config.tensorParallel, b * m.hidden * kActivationBytes);
    return finish(flops, attention, weightBytesRead(b), kvBytes, comm, expectedExpertsTouched(b));
}

StepCost LlmModel::prefill(std::int64_t batch, std::int64_t promptTokens) const
{
    const ModelSpec& m = m_config.model;
    const double tokens = static_cast<double>(batch) * static_cast<double>(promptTokens);
    // Causal attention: query i attends to min(i, window) keys; sum over i = 1..P.
    const double p = static_cast<double>(promptTokens);
    const double w = m.slidingWindow > 0 ? std::min<double>(m.slidingWindow, p) : p;
    const double pairs = w * (w + 1.0) / 2.0 + (p - w) * w;
    const double attention = static_cast<double>(batch) * m.layers * m_prefillAttentionFlops * pairs;
    const double flops = tokens * m_matmulFlopsPerToken + attention;
    const double kvBytes = tokens * static_cast<double>(m_kvBytesPerToken);  // the cache is written once
    const double comm =
        2.0 * m.layers *
        ringAllReduceSeconds(m_config.link, m_config.tensorParallel, tokens * m.hidden * kActivationBytes);
    return finish(flops, attention, weightBytesRead(tokens), kvBytes, comm, expectedExpertsTouched(tokens));
}

LlmModel::Lines LlmModel::decodeLines(std::int64_t batch) const
{
    // decodeStep at KV length 0 and 1 gives the two affine pieces exactly.
    const StepCost zero = decodeStep(batch, 0);
    const StepCost one = decodeStep(batch, 1);
    return Lines{zero.computeSeconds, one.computeSeconds - zero.computeSeconds, zero.memorySeconds,
                 one.memorySeconds - zero.memorySeconds, zero.commSeconds};
}

double LlmModel::decodeSecondsSum(std::int64_t batch, std::int64_t firstContext, std::int64_t lastContext) const
{
    if (lastContext < firstContext)
        return 0.0;
    const Lines lines = decodeLines(batch);
    const int window = m_config.model.slidingWindow;
    const std::int64_t growingEnd = window > 0 ? std::min<std::int64_t>(lastContext, window) : lastContext;
    double sum = sumMaxAffine(lines.compute0, lines.compute1, lines.memory0, lines.memory1, firstContext, growingEnd);
    if (window > 0 && lastContext > window) {
        const std::int64_t flatStart = std::max<std::int64_t>(firstContext, window + 1);
        const StepCost capped = decodeStep(batch, window);
        sum += static_cast<double>(lastContext - flatStart + 1) * (capped.seconds - capped.commSeconds);
    }
    return sum + static_cast<double>(lastContext - firstContext + 1) * lines.comm;
}

std::optional<std::int64_t> LlmModel::kneeBatch(std::int64_t context) const
{
    auto computeBound = [&](std::int64_t b) {
        const StepCost cost = decodeStep(b, context);
        return cost.computeSeconds >= cost.memorySeconds;
    };
    if (!computeBound(kMaxBatch))
        return std::nullopt;  // attention traffic grows as fast as the FLOPs: never crosses the ridge
    if (computeBound(1))
        return 1;
    std::int64_t low = 1, high = kMaxBatch;  // memory-bound at low, compute-bound at high
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        (computeBound(mid) ? high : low) = mid;
    }
    return high;
}

Result<MemoryUse> LlmModel::memory(std::int64_t batch, std::int64_t context) const
{
    const int t = m_config.tensorParallel;
    std::int64_t weightBits = 0;
    if (!checkedMul(m_params.total, bitsPerElement(m_config.weights), weightBits))
        return outOfRange(QStringLiteral("weight bytes overflow"));
    const std::int64_t weightsBytes = ceilDiv(weightBits, 8);
    std::int64_t perSequence = 0, total = 0;
    if (!checkedMul(m_kvBytesPerToken, kvTokens(context), perSequence) || !checkedMul(perSequence, batch, total))
        return outOfRange(QStringLiteral("the KV cache of %1 sequences x %2 tokens overflows 64-bit byte counts")
                              .arg(batch)
                              .arg(context));
    MemoryUse use;
    use.weightsPerGpu = ceilDiv(weightsBytes, t);
    use.kvPerGpu = ceilDiv(total, m_kvSplit);
    if (!checkedAdd(use.weightsPerGpu, use.kvPerGpu, use.requiredPerGpu))
        return outOfRange(QStringLiteral("memory required overflows 64-bit byte counts"));
    use.capacityPerGpu = m_config.gpu.memoryBytes();
    use.fits = use.requiredPerGpu <= use.capacityPerGpu;
    return use;
}

std::int64_t LlmModel::maxBatch(std::int64_t context) const
{
    Result<MemoryUse> one = memory(1, context);
    if (!one)
        return 0;
    const std::int64_t free = one.value().capacityPerGpu - one.value().weightsPerGpu;
    const std::int64_t perSequence = one.value().kvPerGpu;
    if (free <= 0)
        return 0;
    if (perSequence <= 0)
        return kMaxBatch;
    return std::min(kMaxBatch, free / perSequence);
}

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
    r.weightsBytes = ceilDiv(m_params.total * bitsPerElement(c.weights), 8);  // checked in memory()
    r.kvBytesPerToken = m_kvBytesPerToken;
    r.kvTokensPerSequence = kvTokens(c.context);
    r.kvBytesPerSequence = m_kvBytesPerToken * r.kvTokensPerSequence;
    r.kvBytesTotal = r.kvBytesPerSequence * c.batch;
    r.gpus = c.tensorParallel;
    r.maxBatch = maxBatch(c.context);
    r.step = decodeStep(c.batch, c.context);
    r.tokensPerSecond = static_cast<double>(c.batch) / r.step.seconds;
    r.tokensPerSecondPerSequence = 1.0 / r.step.seconds;
    r.weightsOnlyIntensity =
        static_cast<double>(c.batch) * m_matmulFlopsPerToken / weightBytesRead(static_cast<double>(c.batch));
    r.computePrecision = m_computePrecision;
    r.peakTflops = c.gpu.peakTflops(m_computePrecision);
    r.ridgeFlopPerByte = ridgeIntensity(effectiveRoof());
    r.datasheetRidgeFlopPerByte = r.peakTflops / c.gpu.bandwidthTbs;
    r.kneeBatch = kneeBatch(c.context);
    r.efficiency = c.efficiency;
    r.commFraction = r.step.commSeconds / r.step.seconds;
    r.notes = m_notes;
    if (c.model.slidingWindow > 0 && c.context > c.model.slidingWindow)
        r.notes << QStringLiteral("sliding window: the KV cache keeps the last %1 tokens").arg(c.model.slidingWindow);
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
        }
    }
    return r;
}

}  // namespace ridgeline
