#pragma once
// The numbers a scene shows, computed from the model or the measurement, never typed into the deck.
// A caption names them by {key}; filling it fails loudly if the scene does not compute that key.

#include "core/model/intensity.h"
#include "core/model/llm/inference_request.h"
#include "core/model/roofline.h"
#include "core/result.h"
#include "core/scene/deck.h"
#include "core/scene/fact_list.h"
#include "core/scene/serving_scene.h"
#include "core/session/session.h"

#include <optional>
#include <vector>

namespace ridgeline {

struct SceneFacts {
    std::vector<SceneFact> facts;
    QString caption;  // the scene's caption with every {key} filled in
    QString notes;    // the speaker's notes, filled the same way

    std::optional<double> value(const QString& key) const;
    QString text(const QString& key) const;
};

// `session` may be null; scenes that show measured numbers (ridge, cpu-experiment, fusion) then fail
// with a message saying a session is needed. A saved "view" computes the explorer's numbers at its
// settings (batching) or the session's ridge (roofline, when there is a session).
Result<SceneFacts> computeSceneFacts(const Scene& scene, const Session* session);

// The tokens of context a scene computes at: its own, or the shared default (kDefaultContext) when it gives 0.
std::int64_t sceneContext(const Scene& scene);

// The LLM question a scene asks, for its caption and for the batching panel that draws it alike: its model
// and GPU (the defaults when it names none), its batch (the last of a sweep), context, GPUs and first link.
InferenceRequest inferenceRequestFor(const Scene& scene);
// The other way: the batching explorer's question as a scene (kind "view", view "batching") that asks it again.
// A custom model by parameter count has no scene form; its scene names the model id "custom".
Scene batchingViewScene(const InferenceRequest& request);

// Whether the scene names a GPU (a catalog id or its own peaks), and that GPU's bf16 roof under the scene's
// label: what a roofline scene draws beside the CPU. nullopt when it names none or the GPU is not valid.
bool sceneHasGpu(const Scene& scene);

// A serving scene's sweep (serving_scene.h) for the question it asks, at its context.
Result<ServingSweep> servingSweepOf(const Scene& scene);
std::optional<NamedRoof> gpuRoofOf(const Scene& scene);

// The source text's intensity table on the scene's GPU: an add and matmuls (n = 512, 4096) in bf16, each at
// what the GPU's roof allows. The caption's numbers and the slide's points both come from here.
struct IntensityTable {
    struct Row {
        QString name;  // "add", "matmul n = 512"
        QString kind;  // "add" or "matmul"
        OpCount count;
        double intensity = 0.0;         // FLOP/byte
        double attainableGflops = 0.0;  // min(peak, intensity x bandwidth)
    };
    NamedRoof gpu;
    std::vector<Row> rows;  // add, matmul 512, matmul 4096
};
Result<IntensityTable> intensityTableFor(const Scene& scene);

}  // namespace ridgeline
