#include "core/model/roofline.h"

#include <algorithm>

namespace ridgeline {

double attainableGflops(const Roof& roof, double intensityFlopPerByte)
{
    return std::min(roof.peakGflops, intensityFlopPerByte * roof.bandwidthGbps);
}

double ridgeIntensity(const Roof& roof)
{
    return roof.bandwidthGbps > 0.0 ? roof.peakGflops / roof.bandwidthGbps : 0.0;
}

Bound boundAt(const Roof& roof, double intensityFlopPerByte)
{
    return intensityFlopPerByte < ridgeIntensity(roof) ? Bound::Memory : Bound::Compute;
}

QString boundName(Bound bound)
{
    return bound == Bound::Memory ? QStringLiteral("memory") : QStringLiteral("compute");
}

std::vector<QPointF> roofVertices(const Roof& roof, double minIntensity, double maxIntensity)
{
    std::vector<QPointF> points;
    if (minIntensity <= 0.0 || maxIntensity <= minIntensity)
        return points;
    const double ridge = ridgeIntensity(roof);
    points.emplace_back(minIntensity, attainableGflops(roof, minIntensity));
    if (ridge > minIntensity && ridge < maxIntensity)
        points.emplace_back(ridge, roof.peakGflops);
    points.emplace_back(maxIntensity, attainableGflops(roof, maxIntensity));
    return points;
}

}  // namespace ridgeline
