#include "core/model/catalog/gpu_spec.h"

#include <cmath>

namespace ridgeline {

std::int64_t GpuSpec::memoryBytes() const
{
    return std::llround(memoryGib * 1073741824.0);
}

double GpuSpec::sustainedBandwidthTbs() const
{
    return measuredBandwidthTbs > 0 ? measuredBandwidthTbs : bandwidthTbs * kTypicalSustainedShare;
}

}  // namespace ridgeline
