#include "core/model/llm/llm_model.h"

#include "core/model/llm/inference_config_check.h"
#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline {

namespace {

constexpr double kActivationBytes = 2.0;  // all-reduced activations are bf16

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

// Causal (query, key) pairs of one prompt of p tokens when a query sees at most w keys.
double causalPairs(double p, double window)
{
    const double w = window > 0 ? std::min(window, p) : p;
    return w * (w + 1.0) / 2.0 + (p - w) * w;
}

// One kernel's roofline, charged to what bounds it: the larger of its memory and compute times, plus the part of
// the smaller that does not overlap it. Listed as the step's operator `op` (its name, FLOPs and bytes set).
void charge(double memorySeconds, double computeSeconds, double overlap, bool kvKernel, StepBreakdown& b,
            StepOperator op, StepOperators& operators)
{
    const double exposed = (1.0 - overlap) * std::min(memorySeconds, computeSeconds);
    const bool computeBound = computeSeconds > memorySeconds;
    op.seconds = (computeBound ? computeSeconds : memorySeconds) + exposed;
    op.bound = computeBound ? OperatorBound::Compute : OperatorBound::Memory;
    (computeBound ? b.compute : kvKernel ? b.kv : b.weights) += op.seconds;
    operators.push_back(op);
}

// Sum of min(first + a i, window) over i = 0..n-1 (window <= 0: no cap).
double sumCappedContexts(double first, double a, double n, double window)
{
    if (n <= 0)
        return 0.0;
    double below = n;  // steps whose context is still under the window
    if (window > 0)
        below = first > window ? 0.0 : std::min(n, std::floor((window - first) / a) + 1.0);
    return below * first + a * below * (below - 1.0) / 2.0 + (n - below) * window;
}

}  // namespace

StepBreakdown& StepBreakdown::operator+=(const StepBreakdown& other)
{
    weights += other.weights;
    kv += other.kv;
    compute += other.compute;
    communication += other.communication;
    overhead += other.overhead;
    return *this;
}

StepBreakdown StepBreakdown::scaled(double factor) const
{
    return StepBreakdown{weights * factor, kv * factor, compute * factor, communication * factor, overhead * factor};
}

Result<LlmModel> LlmModel::create(const InferenceConfig& config)
{
    LlmModel model;
    model.m_config = config;
    Result<ParamCounts> counts = countParams(config.model);
    if (!counts)
        return counts.error();
    model.m_params = counts.value();
    if (std::optional<Error> bad = checkInferenceConfig(config))
        return *bad;

    model.setUpWeightGroups();
    if (std::optional<Error> overflow = model.countWeightBytes())
        return *overflow;
    model.setUpAttention();
    if (std::optional<Error> overflow = model.countKvBytes())
        return *overflow;
    model.noteLayoutAssumptions();

    Result<MemoryUse> use = model.memory(config.batch, config.context);
    if (!use)
        return use.error();
    return model;
}

// Arithmetic runs in a format's own tensor precision when the GPU has it; int4 (weight-only) and formats the card
// lacks (fp8 on an A100, fp4 on an H100) are dequantised and multiplied in 16 bits.
NumberFormat LlmModel::multiplyIn(NumberFormat storage)
{
    const GpuSpec& gpu = m_config.gpu;
    const NumberFormat sixteen = sixteenBitPrecision(gpu);
    const NumberFormat own = tensorPrecisionOf(storage);
    if (storage != NumberFormat::Int4 && gpu.peakTflops(own) > 0 && std::isfinite(gpu.peakTflops(own)))
        return own;
    const QString note = QStringLiteral("%1 weights are multiplied in %2 on this GPU")
                             .arg(numberFormatName(storage), numberFormatName(sixteen));
    if (storage != NumberFormat::Bf16 && !m_notes.contains(note))
        m_notes << note;
    return sixteen;
}

// The bandwidth the engine terms start from: the datasheet figure or what the card sustains in STREAM, bytes/s.
double LlmModel::baseBandwidth() const
{
    const GpuSpec& gpu = m_config.gpu;
    return (m_config.efficiency.bandwidthBasis == BandwidthBasis::Sustained ? gpu.sustainedBandwidthTbs()
                                                                            : gpu.bandwidthTbs) *
           1e12;
}

LlmModel::Group LlmModel::weightGroup(double params, double flopsPerToken, NumberFormat storage)
{
    const EngineTerms& terms = m_config.efficiency;
    const NumberFormat precision = multiplyIn(storage);
    Group g;
    g.params = params;
    g.flopsPerToken = flopsPerToken;
    g.bytesPerParam = storageBitsPer32(storage) / 256.0;
    g.bandwidth = baseBandwidth() * terms.weightShare(storage);
    g.peak = m_config.gpu.peakTflops(precision) * 1e12 * terms.computeShare(precision);
    return g;
}

// The module groups (head, attention, dense FFN with shared experts, routed experts), the precisions they multiply
// in and the effective peak and bandwidth of attention over the KV cache.
void LlmModel::setUpWeightGroups()
{
    const InferenceConfig& config = m_config;
    const ModelSpec& m = config.model;
    const EngineTerms& terms = config.efficiency;
    const ParamCounts& p = m_params;
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    // The LM head (or the tied table read as one), router and norms are streamed with the head's format; an untied
    // input table and learned positions are gathered, one row per token.
    const double headStreamed = d(m.tiedEmbeddings ? p.embedding : p.lmHead) + d(p.router) + d(p.norms);
    m_head = weightGroup(headStreamed, 2.0 * headStreamed, config.headFormat());
    if (m.paramsOverride > 0) {
        // Only a total is known: everything but the tables is one dense group in the weights' format.
        const double rest =
            std::max(0.0, d(p.total) - headStreamed - d(m.tiedEmbeddings ? 0 : p.embedding) - d(p.positional));
        m_dense = weightGroup(rest, 2.0 * rest, config.weights);
        m_attention = weightGroup(0, 0, config.attentionFormat());
        m_experts = weightGroup(0, 0, config.weights);
    } else {
        m_attention = weightGroup(d(p.attention), 2.0 * d(p.attention), config.attentionFormat());
        const double dense = d(p.denseFfn) + d(p.sharedExperts);
        m_dense = weightGroup(dense, 2.0 * dense, config.weights);
        m_experts =
            weightGroup(d(p.routedExperts), 2.0 * m.moeLayers() * m.activeExperts * d(p.perExpert), config.weights);
        m_experts.routed = true;
        m_experts.peak *= terms.expertShare;  // grouped GEMMs of many small experts compute less well
    }
    m_attention.name = QStringLiteral("attention projections (QKV and output)");
    m_experts.name = QStringLiteral("routed experts");
    if (m.paramsOverride > 0)
        m_dense.name = QStringLiteral("layer weights (only a total is known)");
    else if (p.sharedExperts > 0)
        m_dense.name =
            p.denseFfn > 0 ? QStringLiteral("dense MLP and shared experts") : QStringLiteral("shared experts");
    else
        m_dense.name = m.isMoe() ? QStringLiteral("dense MLP layers") : QStringLiteral("MLP");
    m_computePrecision = multiplyIn(config.weights);
    m_attentionPrecision = multiplyIn(config.attentionFormat());
    m_gatheredBytesPerToken = (m.tiedEmbeddings ? 0.0 : m.hidden * m_head.bytesPerParam);
    m_gatherRows = m.vocab;
    const NumberFormat sixteen = sixteenBitPrecision(config.gpu);
    m_attentionPeak = config.gpu.peakTflops(sixteen) * 1e12 * terms.computeShare(sixteen);
    m_kvBandwidth = baseBandwidth() * terms.kvShare(config.kv);
}

// Weights in memory, exact: each group's parameters at its storage bits (per 32 values, scales included).
std::optional<Error> LlmModel::countWeightBytes()
{
    const ParamCounts& p = m_params;
    const std::int64_t headAll = p.embedding + p.lmHead + p.positional + p.router + p.norms;
    const std::int64_t attention = m_config.model.paramsOverride > 0 ? 0 : p.attention;
    const std::int64_t rest = p.total - headAll - attention;
    std::int64_t bits = 0, part = 0;
    if (!checkedMul(headAll, storageBitsPer32(m_config.headFormat()), bits) ||
        !checkedMul(attention, storageBitsPer32(m_config.attentionFormat()), part) || !checkedAdd(bits, part, bits) ||
        !checkedMul(std::max<std::int64_t>(rest, 0), storageBitsPer32(m_config.weights), part) ||
        !checkedAdd(bits, part, bits))
        return outOfRange(QStringLiteral("weight bytes overflow"));
    m_weightsBytes = ceilDiv(bits, 256);
    return std::nullopt;
}

// Attention FLOPs per layer per cached token per query token: MLA decodes in the absorbed form and prefills in
// the decompressed one.
void LlmModel::setUpAttention()
{
    const ModelSpec& m = m_config.model;
    const double H = m.heads;
    if (m.isMla()) {
        m_decodeAttentionFlops = 2.0 * H * (m.kvLoraRank + m.qkRopeHeadDim) + 2.0 * H * m.kvLoraRank;
        m_prefillAttentionFlops = 2.0 * H * (m.qkNopeHeadDim + m.qkRopeHeadDim) + 2.0 * H * m.vHeadDim;
    } else {
        m_decodeAttentionFlops = 4.0 * H * m.headDim;
        m_prefillAttentionFlops = m_decodeAttentionFlops;
    }
}

// KV bytes per token: 2 (K and V) x layers x KV heads x head dim x bytes; MLA caches the latent vector and the
// decoupled rope key once per layer. Never from the hidden size. The cache splits over at most the KV heads.
std::optional<Error> LlmModel::countKvBytes()
{
    const ModelSpec& m = m_config.model;
    const std::int64_t valuesPerLayer =
        m.isMla() ? std::int64_t{m.kvLoraRank} + m.qkRopeHeadDim : 2 * std::int64_t{m.kvHeads} * m.headDim;
    std::int64_t kvBits = 0;
    if (!checkedMul(valuesPerLayer, m.layers, kvBits) || !checkedMul(kvBits, storageBitsPer32(m_config.kv), kvBits))
        return outOfRange(QStringLiteral("KV bytes per token overflow"));
    m_kvBytesPerToken = ceilDiv(kvBits, 256);
    m_kvSplit = m.isMla() ? 1 : std::min(m_config.tensorParallel, m.kvHeads);
    // A GPU holds heads / tp query heads and kvHeads / kvSplit KV heads (one, replicated, when tp > kvHeads).
    if (!m.isMla() && m_config.decodeAttention == DecodeAttention::PerQueryHead)
        m_headReadsPerKvByte = std::max(
            1.0, static_cast<double>(m.heads) * m_kvSplit / (static_cast<double>(m_config.tensorParallel) * m.kvHeads));
    return std::nullopt;
}

// What the parallel layout and speculative decoding assume, for the reader of the report.
void LlmModel::noteLayoutAssumptions()
{
    const InferenceConfig& config = m_config;
    if (config.model.isMla() && config.tensorParallel > 1)
        m_notes << QStringLiteral("the MLA latent cache is replicated on every tensor-parallel GPU");
    if (config.expertParallel > 1)
        m_notes << QStringLiteral(
                       "experts over %1 GPUs: routing taken as uniform, each step waits for the "
                       "GPU with the most experts in use")
                       .arg(config.expertParallel);
    if (config.speculative.enabled())
        m_notes << QStringLiteral(
            "speculative decoding: the draft is counted as one layer and the LM head per "
            "proposed token; its weights are not in the memory total");
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

double LlmModel::expertBytesPerGpu(double tokens) const
{
    const ModelSpec& m = m_config.model;
    const double touched = expectedExpertsTouched(tokens);
    if (touched <= 0.0)
        return 0.0;
    const double ep = m_config.expertParallel;
    // Each of the ep GPU groups holds E / ep whole experts, each split over tp / ep GPUs. The step waits for the
    // group with the most experts in use: mean plus the expected maximum of ep normal deviations.
    const double perGroup = m.experts / ep;
    const double share = touched / m.experts;
    double busiest = perGroup * share;
    if (ep > 1)
        busiest = std::min(perGroup, busiest + std::sqrt(perGroup * share * (1.0 - share) * 2.0 * std::log(ep)));
    return busiest * static_cast<double>(m_params.perExpert) * m_experts.bytesPerParam * m.moeLayers() * ep /
           m_config.tensorParallel;
}

Roof LlmModel::effectiveRoof() const
{
    return Roof{m_dense.peak / 1e9, m_dense.bandwidth / 1e9};  // the experts share the dense group's format
}

// A decode attention kernel that does not split a sequence's KV over thread blocks runs one block per sequence and
// KV head (grouped) or query head (per-head) on this GPU, each walking its whole context; while they are fewer than
// the SMs, each draws at most one SM's share of the bandwidth, so the cache is read at blocks / SMs of it.
double LlmModel::decodeBlockShare(double sequences) const
{
    const ModelSpec& m = m_config.model;
    const int sms = m_config.gpu.smCount;
    if (m_config.decodeSplitsKv || sms <= 0 || m.isMla() || sequences <= 0)
        return 1.0;
    const double headsPerGpu = m_config.decodeAttention == DecodeAttention::PerQueryHead
                                   ? std::max(1.0, static_cast<double>(m.heads) / m_config.tensorParallel)
                                   : std::max(1.0, static_cast<double>(m.kvHeads) / m_kvSplit);
    return std::min(1.0, sequences * headsPerGpu / sms);
}

StepCost LlmModel::run(const Pass& pass) const
{
    const ModelSpec& m = m_config.model;
    const EngineTerms& terms = m_config.efficiency;
    const double t = m_config.tensorParallel;
    const double layerShare = pass.layers / m.layers;
    StepCost cost;
    cost.tokens = pass.tokens;
    auto gemm = [&](const Group& g, double bytes, double flops, const QString& name) {
        const double memory = bytes / g.bandwidth, compute = g.peak > 0 ? flops / g.peak : 0.0;
        cost.weightBytes += bytes;
        cost.flops += flops;
        cost.memorySeconds += memory;
        cost.computeSeconds += compute;
        const StepOperator op{name, flops, bytes, 0, OperatorBound::Memory, g.peak / g.bandwidth};
        charge(memory, compute, terms.overlap, false, cost.breakdown, op, cost.operators);
    };
    for (const Group* g : {&m_attention, &m_dense, &m_experts}) {
        if (g->params <= 0)
            continue;
        const double bytes = g->routed ? expertBytesPerGpu(pass.tokens) : g->params * g->bytesPerParam / t;
        gemm(*g, bytes * layerShare, pass.tokens * g->flopsPerToken / t * layerShare, g->name);
    }
    // The LM head runs once per pass whatever the layer count (the draft has its own pass through it); the input
    // table is a gather of one row per token, never more than the table.
    const double gathered =
        std::min(pass.tokens, m_gatherRows) * m_gatheredBytesPerToken +
        std::min(pass.tokens, static_cast<double>(m.learnedPositions)) * m.hidden * m_head.bytesPerParam;
    gemm(m_head, (m_head.params * m_head.bytesPerParam + gathered) / t, pass.tokens * m_head.flopsPerToken / t,
         gathered > 0 ? QStringLiteral("LM head and embedding gather") : QStringLiteral("LM head"));

    const double attentionFlops =
        (pass.decodePairs * m_decodeAttentionFlops + pass.prefillPairs * m_prefillAttentionFlops) * pass.layers / t;
    const double kvBytesPerToken = static_cast<double>(m_kvBytesPerToken) * layerShare / m_kvSplit;
    const double kvBytes = (pass.kvReadTokens + pass.kvWriteTokens) * kvBytesPerToken;
    // Per-query-head kernels read each cached KV head once per query head; the cache serves the repeats.
    const double headReads = m_headReadsPerKvByte > 1.0 ? m_headReadsPerKvByte * pass.kvReadTokens * kvBytesPerToken /
                                                              kBytesPerGiB * terms.headReadSeconds
                                                        : 0.0;
    const double readShare = decodeBlockShare(pass.sequences);
    const double kvMemory = std::max(
        (pass.kvReadTokens * kvBytesPerToken / readShare + pass.kvWriteTokens * kvBytesPerToken) / m_kvBandwidth,
        headReads);
    const double attentionCompute = attentionFlops / m_attentionPeak;
    cost.kvBytes = kvBytes;
    cost.attentionFlops = attentionFlops;
    cost.flops += attentionFlops;
    cost.memorySeconds += kvMemory;
    cost.computeSeconds += attentionCompute;
    if (kvBytes > 0 || attentionFlops > 0)
        charge(kvMemory, attentionCompute, terms.overlap, true, cost.breakdown,
               StepOperator{QStringLiteral("attention over the KV cache"), attentionFlops, kvBytes, 0,
                            OperatorBound::Memory, m_attentionPeak / m_kvBandwidth},
               cost.operators);

    const int tp = m_config.tensorParallel;
    const int allReduces = tp > 1 ? m.allReducesPerLayer : 0;
    const double reduced = pass.tokens * m.hidden * kActivationBytes;
    cost.commSeconds =
        allReduces * pass.layers *
        allReduceSeconds(m_config.link, m_config.network, tp, m_config.gpusPerNode, reduced, m_config.allReduce);
    if (cost.commSeconds > 0)
        cost.operators.push_back(StepOperator{QStringLiteral("all-reduce"), 0, allReduces * pass.layers * reduced,
                                              cost.commSeconds, OperatorBound::Link, 0});
    cost.overheadSeconds =
        addEngineTimes(cost.operators, terms, pass.layers, pass.layers == m.layers, allReduces, pass.sequences);
    cost.breakdown.communication = cost.commSeconds;
    cost.breakdown.overhead = cost.overheadSeconds;

    cost.bytes = cost.weightBytes + cost.kvBytes;
    cost.seconds = cost.breakdown.total();
    cost.intensity = cost.bytes > 0 ? cost.flops / cost.bytes : 0.0;
    cost.bound = cost.breakdown.compute > cost.breakdown.weights + cost.breakdown.kv ? Bound::Compute : Bound::Memory;
    cost.expertsTouched = expectedExpertsTouched(pass.tokens);
    return cost;
}

namespace {

// Adds a pass that runs after `into` in the same step (the draft's passes, or the verify after them).
void append(StepCost& into, const StepCost& pass, double times)
{
    into.flops += pass.flops * times;
    into.tokens += pass.tokens * times;
    into.weightBytes += pass.weightBytes * times;
    into.kvBytes += pass.kvBytes * times;
    into.bytes += pass.bytes * times;
    into.computeSeconds += pass.computeSeconds * times;
    into.memorySeconds += pass.memorySeconds * times;
    into.commSeconds += pass.commSeconds * times;
    into.overheadSeconds += pass.overheadSeconds * times;
    into.attentionFlops += pass.attentionFlops * times;
    into.breakdown += pass.breakdown.scaled(times);
    appendOperators(into.operators, pass.operators, times, QStringLiteral("draft: "));
    into.seconds = into.breakdown.total();
    into.intensity = into.bytes > 0 ? into.flops / into.bytes : 0.0;
    into.bound = into.breakdown.compute > into.breakdown.weights + into.breakdown.kv ? Bound::Compute : Bound::Memory;
}

}  // namespace

LlmModel::Pass LlmModel::decodePass(double batch, double context) const
{
    const int window = m_config.model.slidingWindow;
    const double cached = window > 0 ? std::min<double>(context, window) : context;
    const double queries = m_config.speculative.tokens + 1.0;
    Pass pass;
    pass.tokens = batch * queries;
    pass.decodePairs = batch * queries * cached;
    pass.kvReadTokens = batch * cached;
    pass.sequences = batch;
    pass.layers = m_config.model.layers;
    return pass;
}

LlmModel::Pass LlmModel::draftPass(double batch, double context) const
{
    Pass pass = decodePass(batch, context);
    const double queries = m_config.speculative.tokens + 1.0;
    pass.tokens /= queries;
    pass.decodePairs /= queries;
    pass.layers = 1;
    return pass;
}

StepCost LlmModel::decodeStep(std::int64_t batch, std::int64_t context) const
{
    const double b = static_cast<double>(batch), e = static_cast<double>(context);
    StepCost cost = run(decodePass(b, e));
    if (m_config.speculative.enabled())
        append(cost, run(draftPass(b, e)), m_config.speculative.tokens);
    return cost;
}

StepCost LlmModel::prefill(std::int64_t batch, std::int64_t promptTokens) const
{
    const ModelSpec& m = m_config.model;
    const double b = static_cast<double>(batch), p = static_cast<double>(promptTokens);
    Pass pass;
    pass.tokens = b * p;
    pass.prefillPairs = b * causalPairs(p, m.slidingWindow);
    pass.kvWriteTokens = b * p;  // the cache is written once
    pass.layers = m.layers;
    StepCost cost = run(pass);
    // A request's first token also pays its set-up and first sampling, once per prefill (not per layer).
    cost.overheadSeconds += m_config.efficiency.prefillSeconds;
    cost.breakdown.overhead += m_config.efficiency.prefillSeconds;
    if (m_config.efficiency.prefillSeconds > 0)
        cost.operators.push_back(StepOperator{QStringLiteral("prefill set-up"), 0, 0,
                                              m_config.efficiency.prefillSeconds, OperatorBound::Fixed, 0});
    cost.seconds = cost.breakdown.total();
    return cost;
}

double LlmModel::decodeSecondsSum(std::int64_t batch, std::int64_t firstContext, std::int64_t lastContext) const
{
    if (lastContext < firstContext)
        return 0.0;
    // A step's GEMMs, all-reduces and fixed times do not depend on the KV length; its attention kernels are
    // max(memory, compute), both proportional to the KV length e, so e x the larger slope. The sum over the steps
    // is then n x the step at e = 0 plus the slopes times the sum of the (window-capped) KV lengths.
    const double accepted = m_config.speculative.acceptance;
    const double tokens = static_cast<double>(lastContext - firstContext + 1);
    const double steps = m_config.speculative.enabled() ? std::ceil(tokens / accepted) : tokens;
    const StepCost atZero = decodeStep(batch, 0);
    const StepCost atOne = decodeStep(batch, 1);
    const double slope = atOne.seconds - atZero.seconds;
    const double contexts =
        sumCappedContexts(static_cast<double>(firstContext), m_config.speculative.enabled() ? accepted : 1.0, steps,
                          m_config.model.slidingWindow);
    return steps * atZero.seconds + slope * contexts;
}

ServingEstimate LlmModel::serving(std::int64_t concurrency, std::int64_t promptTokens, std::int64_t outputTokens) const
{
    const double c = static_cast<double>(concurrency), p = static_cast<double>(promptTokens);
    const double o = static_cast<double>(std::max<std::int64_t>(outputTokens, 2));
    const double accepted = m_config.speculative.acceptance;
    // Each request spends (o - 1) / accepted steps decoding after its prefill made the first token; in a steady
    // state c accepted / (o - 1) requests finish per step and as many new prompts are prefilled in it.
    const double arrivals = c * accepted / (o - 1.0);
    ServingEstimate s;
    s.prefillTokensPerStep = arrivals * p;
    s.meanContext = p + o / 2.0;
    s.step = mixedStep(c, s.meanContext, s.prefillTokensPerStep, p);
    s.tpotSeconds = s.step.seconds / accepted;
    s.outputTokensPerSecond = arrivals * o / s.step.seconds;
    return s;
}

StepCost LlmModel::mixedStep(double decodeBatch, double context, double prefillTokens, double promptTokens) const
{
    Pass pass = decodePass(decodeBatch, context);
    pass.tokens += prefillTokens;
    // Each prompt token attends to the ones before it: a prompt's causal pairs, pro rata for a chunk of it.
    if (promptTokens > 0)
        pass.prefillPairs = prefillTokens / promptTokens * causalPairs(promptTokens, m_config.model.slidingWindow);
    pass.kvWriteTokens = prefillTokens;
    StepCost step = run(pass);
    if (m_config.speculative.enabled())
        append(step, run(draftPass(decodeBatch, context)), m_config.speculative.tokens);
    return step;
}

std::optional<std::int64_t> LlmModel::kneeBatch(std::int64_t context) const
{
    auto computeBound = [&](std::int64_t b) { return decodeStep(b, context).bound == Bound::Compute; };
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
    std::int64_t perSequence = 0, total = 0;
    if (!checkedMul(m_kvBytesPerToken, kvTokens(context), perSequence) || !checkedMul(perSequence, batch, total))
        return outOfRange(QStringLiteral("the KV cache of %1 sequences x %2 tokens overflows 64-bit byte counts")
                              .arg(batch)
                              .arg(context));
    MemoryUse use;
    use.weightsPerGpu = ceilDiv(m_weightsBytes, t);
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

}  // namespace ridgeline
