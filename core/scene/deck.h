#pragma once
// A deck of scenes: saved views that tell the source text's story one claim at a time. A scene says
// what to show (which view, which model, GPU, batch, session kernels); the numbers it shows are computed
// (scene_facts.h), and its caption names them only through {placeholders}.

#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// A GPU named by catalog id, or a custom one by its peaks.
struct SceneGpu {
    QString catalogId;          // e.g. "h100-sxm"; empty for a custom GPU
    QString label;              // shown on the chart, e.g. "300 TFLOP/s, 2 TB/s GPU"
    double peakTflops = 0.0;    // custom only
    double bandwidthTbs = 0.0;  // custom only
    double memoryGib = 0.0;     // custom only
};

struct AxisRange {
    double min = 0.0;
    double max = 0.0;
};

struct Scene {
    QString id;
    QString kind;  // what the scene computes; one of sceneKinds() ("view": a view a user saved)
    QString view;  // "roofline", "batching" or "training"
    QString title;
    QString caption;  // one or two lines with {fact} placeholders
    QString notes;    // what the speaker says over the slide, for the speaker view only; {fact} placeholders too
    QString modelId;  // LLM scenes
    SceneGpu gpu;
    bool ideal = false;  // datasheet efficiencies (1, 1)
    std::int64_t batch = 1;
    std::int64_t context = 0;           // 0: the scene's default
    std::vector<std::int64_t> batches;  // a sweep, for scenes that move along the roof
    int tensorParallel = 1;
    QStringList links;                   // tensor-parallel scenes: the links compared
    QStringList highlight;               // kernel names of the session to highlight
    QStringList hiddenKinds;             // roofline: kernel kinds hidden from the chart ("add"), as in its legend
    std::optional<double> gpuHourPrice;  // serving scenes: US dollars per GPU-hour, an example the deck states
    // Training scenes (training_scene.h); 0: the scene's default.
    std::int64_t sequence = 0;                  // tokens per sequence
    std::int64_t microBatch = 0;                // sequences per GPU per forward and backward
    std::int64_t globalBatch = 0;               // sequences per optimizer step
    int boxes = 0;                              // the boxes a tensor-parallel group is spread over
    std::optional<AxisRange> intensityRange;    // FLOP/byte
    std::optional<AxisRange> performanceRange;  // GFLOP/s
};

struct Deck {
    static constexpr int kSchemaVersion = 1;
    static inline const QString kFormat = QStringLiteral("ridgeline-deck");

    QString title;
    std::vector<Scene> scenes;
};

QStringList sceneKinds();

QByteArray deckToJson(const Deck& deck);
Result<Deck> deckFromJson(const QByteArray& bytes, const QString& sourceName);
Result<Deck> loadDeck(const QString& path);
// Writes through core/save_file.h (special files refused, the old file kept on failure); nullopt on success.
std::optional<Error> saveDeck(const Deck& deck, const QString& path);

// The deck that ships with Ridgeline: one scene per claim of the source text.
Result<Deck> defaultDeck();

// Adds a scene at the end, with an id of its own made from its title: "kv-cache-at-8k", then "kv-cache-at-8k-2" ...
void appendScene(Deck& deck, Scene scene);

}  // namespace ridgeline
