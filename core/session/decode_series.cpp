#include "core/session/decode_series.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline {

namespace {

constexpr std::array<const char*, 3> kWeightPrecisions{"fp32", "bf16", "int8"};

bool positive(double x)
{
    return std::isfinite(x) && x > 0.0;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b));
}

// The straight line through the first and the last kernel, if every kernel lies on it.
std::optional<DecodeCounts> countsOf(const std::vector<const KernelResult*>& kernels)
{
    if (kernels.size() < 2)
        return std::nullopt;
    const KernelResult& first = *kernels.front();
    const KernelResult& last = *kernels.back();
    if (last.batch == first.batch || !positive(first.flops) || !positive(first.bytes) || !positive(last.bytes))
        return std::nullopt;
    DecodeCounts counts;
    counts.flopsPerVector = first.flops / first.batch;
    counts.bytesPerVector = (last.bytes - first.bytes) / (last.batch - first.batch);
    counts.fixedBytes = first.bytes - counts.bytesPerVector * first.batch;
    if (!positive(counts.fixedBytes) || !(counts.bytesPerVector >= 0.0))
        return std::nullopt;
    for (const KernelResult* k : kernels)
        if (!close(k->flops, counts.flopsPerVector * k->batch) ||
            !close(k->bytes, counts.fixedBytes + counts.bytesPerVector * k->batch))
            return std::nullopt;
    return counts;
}

}  // namespace

double DecodeCounts::intensity(double batch) const
{
    const double bytes = fixedBytes + bytesPerVector * batch;
    return bytes > 0.0 ? flopsPerVector * batch / bytes : 0.0;
}

const KernelResult* DecodeSeries::at(int batch) const
{
    const auto found =
        std::find_if(measured.begin(), measured.end(), [&](const KernelResult* k) { return k->batch == batch; });
    return found == measured.end() ? nullptr : *found;
}

double DecodeSeries::predictedTokensPerSecond(double batch) const
{
    if (!counts || !roof || !positive(batch))
        return 0.0;
    const Roof r = roof->roof();
    const double seconds = std::max(counts->flopsPerVector * batch / (r.peakGflops * 1e9),
                                    (counts->fixedBytes + counts->bytesPerVector * batch) / (r.bandwidthGbps * 1e9));
    return positive(seconds) ? batch / seconds : 0.0;
}

QString decodeKind(const QString& precision)
{
    return QStringLiteral("decode-") + precision;
}

bool isDecodeKind(const QString& kind)
{
    return kind == QLatin1String("decode") || kind.startsWith(QLatin1String("decode-"));
}

std::vector<DecodeSeries> decodeSeriesByPrecision(const Session& session)
{
    std::vector<DecodeSeries> all;
    for (const char* precision : kWeightPrecisions) {
        DecodeSeries series;
        series.precision = QString::fromLatin1(precision);
        series.kind = decodeKind(series.precision);
        for (const KernelResult& k : session.kernels)
            if (k.kind == series.kind && k.batch > 0 && positive(k.tokensPerSecond))
                series.measured.push_back(&k);
        if (series.measured.empty())
            continue;
        std::stable_sort(series.measured.begin(), series.measured.end(),
                         [](const KernelResult* a, const KernelResult* b) { return a->batch < b->batch; });
        series.counts = countsOf(series.measured);
        // The precision's own roof, and only its own: fp32 weights are not predicted on an AMX roof.
        if (const ComputeCeiling* compute = bestComputeCeiling(session, series.precision)) {
            if (const BandwidthCeiling* dram = memoryCeiling(session, kDramLevel))
                series.roof = SessionRoof{compute, dram};
        }
        if (series.counts && series.roof) {
            const Roof r = series.roof->roof();
            const double ridge = ridgeIntensity(r);
            // flopsPerVector B / (fixedBytes + bytesPerVector B) = ridge
            const double denominator = series.counts->flopsPerVector - ridge * series.counts->bytesPerVector;
            if (positive(ridge) && denominator > 0.0)
                series.kneeBatch = ridge * series.counts->fixedBytes / denominator;
        }
        all.push_back(std::move(series));
    }
    return all;
}

}  // namespace ridgeline
