#pragma once
// The talk's serving scenes, from the serving model (core/model/serving): what batching buys and what it costs.
// - "serving-trade": a request waits for its batch; output tokens/s per GPU against the time to first token.
// - "serving-cost": cost per million output tokens against the batch, at the deck's example price per GPU-hour.
// The scene's model and GPU serve requests that fill its context (requestLengthsInContext), each of its batches as
// that many requests always in flight, with the engine terms `ridgeline model` uses by default (or the datasheet
// when the scene is ideal): the slide's points and the caption's numbers (scene_facts.h) both come from here.

#include "core/model/llm/inference_request.h"
#include "core/model/serving/frontier.h"
#include "core/result.h"
#include "core/scene/deck.h"

#include <vector>

namespace ridgeline {

struct ServingSweep {
    QString modelName;
    QString gpuName;
    RequestLengths lengths;
    std::int64_t largestRunning = 0;           // the most requests that decode together; the rest wait for a slot
    std::optional<double> gpuHourPrice;        // the scene's example price
    std::vector<FrontierPoint> points;         // one per batch of the scene, in its order
    std::vector<double> costPerMillionOutput;  // USD, one per point; empty without a price
};

// The scene's sweep for `request`, the question the scene asks (inferenceRequestFor, scene_facts.h) at `context`
// tokens. Refuses a scene without batches, a cost scene without a price, or a model the GPU cannot serve.
Result<ServingSweep> servingSweepFor(const Scene& scene, InferenceRequest request, std::int64_t context);

}  // namespace ridgeline
