#pragma once
// Where along the batch axis every batching curve is sampled, the model's and the measured CPU's alike.

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ridgeline::ui {

// The batches the curves are drawn through: 8 per octave from 1 to maxBatch, plus the given extra
// batches (knee, memory limit, current) so corners and the fit boundary are exact, never a chord.
std::vector<std::int64_t> sampleBatches(std::int64_t maxBatch, std::initializer_list<std::int64_t> extra);

}  // namespace ridgeline::ui
