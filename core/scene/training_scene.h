#pragma once
// The talk's training scenes, from the training model (core/model/training), in the source text's order for "When
// one GPU is not enough":
// - "training-moves": one model on one card, first in fp32 at the scene's micro-batch with every activation kept,
//   then each cheap move on top of the ones before (cheapMovesInOrder: mixed precision, gradient accumulation,
//   activation checkpointing), whether or not a stage fits.
// - "training-hierarchy": the same tensor-parallel degree inside one box and spread over `boxes` boxes, in bf16
//   mixed precision with selective checkpointing: the same step, once over the box's interconnect and once over
//   the network.
// The scene's model and GPU (the batching defaults, Llama 2 7B on an H100 SXM, when it names none) and its links
// (`links`: the one inside a box, then the one between boxes; the card's own when it names none). The slide's bars
// and the caption's numbers (scene_facts.h) both come from here.

#include "core/model/training/training_step.h"
#include "core/result.h"
#include "core/scene/deck.h"

#include <vector>

namespace ridgeline {

// What a training scene computes at when its deck leaves a field out.
inline constexpr std::int64_t kTrainingSceneSequence = 4096;
inline constexpr std::int64_t kTrainingSceneMicroBatch = 4;  // training-moves' starting micro-batch
inline constexpr std::int64_t kTrainingSceneGlobalBatch = 64;
inline constexpr int kTrainingSceneBoxes = 2;

struct TrainingStage {
    QString label;  // "fp32, micro-batch 4", "+ bf16 mixed precision"; "tp 8 inside one box"
    TrainingConfig config;
    TrainingReport report;
};

// training-moves: the start and one stage per cheap move. Refuses a scene whose model or GPU is unknown.
Result<std::vector<TrainingStage>> trainingMovesOf(const Scene& scene);
// training-hierarchy: two stages, inside one box, then across the boxes. Refuses a tensor-parallel degree below 2,
// one the boxes do not divide, or one the model's heads do not divide.
Result<std::vector<TrainingStage>> trainingHierarchyOf(const Scene& scene);

}  // namespace ridgeline
