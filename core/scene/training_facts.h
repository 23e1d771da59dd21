#pragma once
// The numbers the training scenes' captions quote, computed from the stages their slides draw (training_scene.h).
//
// training-moves: model, gpu, capacity; per stage (start, mixed, accumulation, checkpointing: the stages the scene
// has) memory_STAGE and activations_STAGE; states (weights, gradients and optimizer state at the last stage);
// activations_x_mixed and matmul_x_mixed (what mixed precision saves and speeds up); micro_batch, global_batch and
// accumulation_steps; activations_x_checkpointing, recompute_percent (checkpointing's FLOPs over the model's) and
// step_x_checkpointing; verdict ("fits in the card's 80 GiB" or "does not fit in ..."). Where the session measured a
// bf16 matrix product beside its sgemm, cpu_bf16_x: the largest such product's speed-up on this CPU.
//
// training-hierarchy: model, tp, boxes, per_box; inside_link, inside_gbs, across_link, across_gbs and link_ratio
// (GB/s each way); per stage (inside, across) step_STAGE, comm_percent_STAGE (exposed communication's share of the
// step) and tokens_s_STAGE; step_x_across.

#include "core/scene/deck.h"
#include "core/scene/fact_list.h"
#include "core/session/session.h"

#include <optional>

namespace ridgeline {

// For a scene of kind training-moves or training-hierarchy; `session` may be null.
std::optional<Error> trainingSceneFacts(const Scene& scene, const Session* session, FactList& facts);

}  // namespace ridgeline
