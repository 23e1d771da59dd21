#pragma once
// The cheapest move that makes a training configuration fit, in the source text's order ("When one GPU is not
// enough"): exhaust the cheap moves first, mixed precision, then gradient accumulation (micro-batch 1, the global
// batch unchanged), then activation checkpointing (selective, then full); only then add devices, sharding within
// the box first (the box's GPUs as data-parallel ZeRO-1, 2, 3 ranks, then tensor parallel inside it), and across
// boxes last (more boxes of ZeRO-3 ranks, then pipeline stages across them). The moves accumulate: each is tried
// on top of the ones before it, and the search stops at the first configuration whose memory fits.

#include "core/model/training/training_config.h"
#include "core/model/training/training_memory.h"

#include <QStringList>

#include <optional>
#include <vector>

namespace ridgeline {

struct TrainingFix {
    bool found = false;     // false: nothing up to kMaxTrainingGpus fits
    QStringList moves;      // "bf16 mixed precision", "micro-batch 1 x 8 accumulation steps", ...
    TrainingConfig config;  // the first configuration that fits (or the last tried)
    TrainingMemory memory;
    // "bf16 mixed precision, then full activation checkpointing: 61.5 GiB of 80.00 GiB per GPU"
    QString text() const;
};

// Nothing when the configuration already fits (or does not pass checkTrainingConfig).
std::optional<TrainingFix> cheapestFix(const TrainingConfig& config);

// One cheap move and the configuration it leads to.
struct TrainingMoveStep {
    QString move;  // "bf16 mixed precision", "micro-batch 1 x 8 accumulation steps", "full activation checkpointing"
    TrainingConfig config;
};

// Every cheap move that applies, in the order cheapestFix tries them, each on top of the ones before, whether or not
// a configuration fits on the way: the talk walks them all. A stronger move of the same kind replaces the weaker
// (full checkpointing, not selective then full). Empty when none applies.
std::vector<TrainingMoveStep> cheapMovesInOrder(const TrainingConfig& config);

}  // namespace ridgeline
