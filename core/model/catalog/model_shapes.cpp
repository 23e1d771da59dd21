#include "core/model/catalog/model_shapes.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

constexpr double kMaxParams = 1e13;

template <typename T>
struct ParamCountsT {
    T total{}, embedding{}, lmHead{}, positional{}, perExpert{}, routedExperts{}, activePerToken{};
    T attention{}, denseFfn{}, sharedExperts{}, router{}, norms{};
};

}  // namespace

Result<ParamCounts> countParams(const ModelSpec& m)
{
    const QString where = m.id.isEmpty() ? QStringLiteral("model") : QStringLiteral("model %1").arg(m.id);
    auto invalid = [&](const QString& what) {
        return makeError(Error::Code::InvalidArgument, QStringLiteral("%1: %2").arg(where, what));
    };
    if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.vocab < 1)
        return invalid(QStringLiteral("layers, hidden size, heads and vocabulary must all be at least 1"));
    if (m.isMla()) {
        if (m.qkNopeHeadDim < 1 || m.qkRopeHeadDim < 1 || m.vHeadDim < 1 || m.qLoraRank < 0)
            return invalid(QStringLiteral("latent attention needs positive nope, rope and value head dimensions"));
    } else {
        if (m.kvHeads < 1 || m.headDim < 1)
            return invalid(QStringLiteral("KV heads and head dimension must be at least 1"));
        if (m.kvHeads > m.heads || m.heads % m.kvHeads != 0)
            return invalid(
                QStringLiteral("%1 query heads cannot be shared by %2 KV heads").arg(m.heads).arg(m.kvHeads));
    }
    if (m.isMoe()) {
        if (m.activeExperts < 1 || m.activeExperts > m.experts)
            return invalid(QStringLiteral("active experts must be between 1 and %1").arg(m.experts));
        if (m.moeFfn < 1 || m.sharedExperts < 0 || m.sharedExpertFfn < 0 || m.denseLayers < 0 ||
            m.denseLayers > m.layers)
            return invalid(QStringLiteral("expert FFN size must be positive and dense layers at most the layer count"));
    } else if (m.experts < 0 || m.activeExperts != 0) {
        return invalid(QStringLiteral("active experts given without experts"));
    }
    const int denseFfnLayers = m.isMoe() ? m.denseLayers : m.layers;
    if (denseFfnLayers > 0 && m.ffn < 1)
        return invalid(QStringLiteral("FFN size must be at least 1"));
    if (m.slidingWindow < 0 || m.learnedPositions < 0 || m.paramsOverride < 0)
        return invalid(QStringLiteral("sliding window, positions and parameter count cannot be negative"));

    // Count in double first: every term is a product of positive integers, so if the double total is
    // within 1e13 every term is exact below 2^53 and the int64 count below cannot overflow.
    auto count = [&](auto zero) {
        using T = decltype(zero);
        const T h = m.hidden, L = m.layers, V = m.vocab, H = m.heads;
        const T norm = m.norm == NormKind::Rms ? h : 2 * h;
        T attention = 0;
        if (m.isMla()) {
            const T nope = m.qkNopeHeadDim, rope = m.qkRopeHeadDim, v = m.vHeadDim, q = m.qLoraRank, kv = m.kvLoraRank;
            attention += q > 0 ? h * q + q + q * H * (nope + rope) : h * H * (nope + rope);
            attention += h * (kv + rope) + kv + kv * H * (nope + v) + H * v * h;
        } else {
            const T K = m.kvHeads, d = m.headDim;
            attention = h * H * d + 2 * h * K * d + H * d * h;
            if (m.qkvBias || m.linearBias)
                attention += H * d + 2 * K * d;
            if (m.linearBias)
                attention += h;
        }
        const T matrices = m.gatedFfn ? 3 : 2;
        T denseFfn = matrices * h * T(m.ffn);
        if (m.linearBias)
            denseFfn += T(m.ffn) + h;
        const T perExpert = m.isMoe() ? matrices * h * T(m.moeFfn) : 0;
        const T perShared = m.isMoe() ? matrices * h * T(m.sharedExpertFfn > 0 ? m.sharedExpertFfn : m.moeFfn) : 0;
        const T experts = m.experts, moeLayers = m.moeLayers();
        ParamCountsT<T> c;
        c.embedding = V * h;
        c.lmHead = m.tiedEmbeddings ? 0 : V * h;
        c.positional = T(m.learnedPositions) * h;
        c.perExpert = perExpert;
        c.routedExperts = moeLayers * experts * perExpert;
        c.attention = L * attention;
        c.denseFfn = T(denseFfnLayers) * denseFfn;
        c.sharedExperts = moeLayers * T(m.sharedExperts) * perShared;
        c.router = m.isMoe() ? moeLayers * (h * experts + (m.routerBias ? experts : 0)) : 0;
        c.norms = L * 2 * norm + norm;
        c.total = c.embedding + c.lmHead + c.positional + c.attention + c.denseFfn + c.sharedExperts + c.routedExperts +
                  c.router + c.norms;
        c.activePerToken = c.total - moeLayers * (experts - T(m.activeExperts)) * perExpert;
        return c;
    };
    const auto estimate = count(0.0);
    if (!(estimate.total <= kMaxParams))
        return makeError(
            Error::Code::Range,
            QStringLiteral("%1: %2 parameters is beyond the supported 1e13").arg(where).arg(estimate.total, 0, 'g', 3));
    const auto exact = count(std::int64_t{0});
    ParamCounts counts{exact.total,     exact.embedding,     exact.lmHead,         exact.positional,
                       exact.perExpert, exact.routedExperts, exact.activePerToken, exact.attention,
                       exact.denseFfn,  exact.sharedExperts, exact.router,         exact.norms};
    if (m.paramsOverride > 0) {
        if (static_cast<double>(m.paramsOverride) > kMaxParams)
            return makeError(Error::Code::Range, QStringLiteral("%1: parameter count beyond 1e13").arg(where));
        counts.total = m.paramsOverride;
        counts.activePerToken = m.paramsOverride;
        counts.routedExperts = 0;
    }
    return counts;
}

Result<ModelSpec> modelFromParamCount(double params)
{
    if (!(params >= 1e6) || !std::isfinite(params) || params > kMaxParams)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("parameter count must be between 1e6 and 1e13, got %1").arg(params));
    const double perLayerUnit = 12.0 * 128.0 * 128.0;  // 12 h^2 per layer with h = 128 L
    const int layers = std::max(1, static_cast<int>(std::lround(std::cbrt(params / perLayerUnit))));
    const int heads = std::max(1, static_cast<int>(std::lround(std::sqrt(params / (12.0 * layers)) / 128.0)));
    ModelSpec m;
    m.id = QStringLiteral("custom");
    m.name = QStringLiteral("Custom model (~%1 parameters)").arg(params, 0, 'g', 3);
    m.source = QStringLiteral("shapes derived from the parameter count: MHA, head dim 128, 12 h^2 per layer");
    m.layers = layers;
    m.hidden = heads * 128;
    m.heads = heads;
    m.kvHeads = heads;
    m.headDim = 128;
    m.ffn = static_cast<int>(std::lround(8.0 * m.hidden / 3.0));
    m.vocab = 32000;
    m.paramsOverride = std::llround(params);
    return m;
}

}  // namespace ridgeline
