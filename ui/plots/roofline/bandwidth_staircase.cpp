#include "ui/plots/roofline/bandwidth_staircase.h"

#include "core/model/units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("BandwidthStaircase", text);
}

QString chooseMix(const Session& session)
{
    // The roofline's bandwidth ceilings are read bandwidth: that mix when present, else the first.
    QString mix;
    for (const BandwidthPoint& p : session.bandwidthCurve)
        if (mix.isEmpty() || p.mix == QLatin1String("read"))
            mix = p.mix;
    return mix;
}

std::vector<CacheMarker> cacheMarkers(const Session& session)
{
    // The total this process can use, per data/unified level.
    std::map<int, double> capacity;
    const int cpus = std::max(1, session.machine.cores);
    for (const CacheInfo& cache : session.machine.caches) {
        if (cache.type == QLatin1String("Instruction") || cache.sizeBytes <= 0)
            continue;
        const int instances = std::max(1, cpus / std::max(1, cache.sharedByCpus));
        capacity[cache.level] = std::max(capacity[cache.level], double(cache.sizeBytes) * instances);
    }
    std::vector<CacheMarker> markers;
    for (const auto& [level, bytes] : capacity)
        markers.push_back({std::log2(bytes), QStringLiteral("L%1 %2").arg(level).arg(formatBinaryBytes(bytes))});
    return markers;
}

std::vector<StaircasePlateau> plateaus(const Session& session, const QString& mix)
{
    std::vector<StaircasePlateau> out;
    for (const BandwidthCeiling& c : session.bandwidthCeilings) {
        if (c.mix != mix || c.workingSetBytes <= 0 || !(c.gbps > 0.0) || !std::isfinite(c.gbps))
            continue;
        out.push_back({c.level, std::log2(double(c.workingSetBytes)), c.gbps,
                       QStringLiteral("%1 %2 GB/s").arg(c.level, formatSignificant(c.gbps, 3))});
    }
    return out;
}

std::vector<StaircaseTick> sizeTicks(double xMin, double xMax)
{
    // Every other power of two, as sizes people say out loud; the powers of 1024 are the major ones.
    std::vector<StaircaseTick> ticks;
    for (int e = static_cast<int>(std::ceil(xMin)); e <= static_cast<int>(std::floor(xMax)); ++e)
        if (e % 2 == 0)
            ticks.push_back({double(e), formatBinaryBytes(std::pow(2.0, e)), e % 10 == 0});
    return ticks;
}

}  // namespace

std::vector<StaircaseTick> decadeTicks(double min, double max)
{
    std::vector<StaircaseTick> ticks;
    if (!(min > 0.0) || !(max > min) || !std::isfinite(max))
        return ticks;
    const int first = static_cast<int>(std::floor(std::log10(min)));
    const int last = static_cast<int>(std::ceil(std::log10(max)));
    for (int decade = first; decade <= last; ++decade) {
        for (const int step : {1, 2, 5}) {
            const double value = step * std::pow(10.0, decade);
            if (value < min * (1.0 - 1e-9) || value > max * (1.0 + 1e-9))
                continue;
            ticks.push_back({std::log10(value), formatSignificant(value, 1), step == 1});
        }
    }
    return ticks;
}

BandwidthStaircase buildStaircase(const Session& session)
{
    BandwidthStaircase s;
    s.mix = chooseMix(session);
    for (const BandwidthPoint& p : session.bandwidthCurve) {
        if (p.mix != s.mix || p.workingSetBytes <= 0 || !(p.gbps > 0.0) || !std::isfinite(p.gbps))
            continue;
        s.points.push_back(
            {p.workingSetBytes, std::log2(double(p.workingSetBytes)), p.gbps, p.level, p.spread, p.threads});
    }
    std::sort(s.points.begin(), s.points.end(),
              [](const StaircasePoint& a, const StaircasePoint& b) { return a.bytes < b.bytes; });
    s.caches = cacheMarkers(session);
    s.plateaus = plateaus(session, s.mix);
    if (!s.points.empty()) {
        s.xMin = std::floor(s.points.front().log2Bytes) - 0.5;
        s.xMax = std::ceil(s.points.back().log2Bytes) + 0.5;
        const auto [low, high] =
            std::minmax_element(s.points.begin(), s.points.end(),
                                [](const StaircasePoint& a, const StaircasePoint& b) { return a.gbps < b.gbps; });
        s.yMin = low->gbps / 2.0;
        s.yMax = high->gbps * 2.0;
    }
    s.xTicks = sizeTicks(s.xMin, s.xMax);
    s.yTicks = decadeTicks(s.yMin, s.yMax);
    return s;
}

QString staircasePointText(const StaircasePoint& point)
{
    QString text =
        tr("%1 working set: %2 GB/s").arg(formatBinaryBytes(double(point.bytes)), formatSignificant(point.gbps, 3));
    if (point.spread.max > point.spread.min && point.spread.min > 0.0)
        text +=
            tr(" (runs %1 to %2)").arg(formatSignificant(point.spread.min, 3), formatSignificant(point.spread.max, 3));
    text += QLatin1Char('\n');
    text += point.level.isEmpty() ? tr("between two cache levels") : tr("served from %1").arg(point.level);
    text += point.threads == 1 ? tr(", 1 thread") : tr(", %1 threads").arg(point.threads);
    return text;
}

}  // namespace ridgeline::ui
