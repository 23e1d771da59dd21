#include "ui/plots/batching/batch_samples.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kSamplesPerOctave = 8;

}  // namespace

std::vector<std::int64_t> sampleBatches(std::int64_t maxBatch, std::initializer_list<std::int64_t> extra)
{
    std::vector<std::int64_t> batches;
    const double octaves = std::log2(static_cast<double>(std::max<std::int64_t>(1, maxBatch)));
    const int steps = static_cast<int>(std::ceil(octaves * kSamplesPerOctave));
    batches.reserve(static_cast<std::size_t>(steps) + 1 + extra.size());
    for (int i = 0; i <= steps; ++i) {
        const double b = std::pow(2.0, static_cast<double>(i) / kSamplesPerOctave);
        batches.push_back(std::clamp<std::int64_t>(std::llround(b), 1, maxBatch));
    }
    for (const std::int64_t b : extra)
        if (b >= 1 && b <= maxBatch)
            batches.push_back(b);
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    return batches;
}

}  // namespace ridgeline::ui
