#pragma once
// What the Training tab shows, as plain data: the person's choices (TrainingRequest: catalog ids and numbers), the
// configuration the core computes from them, and the texts and bars the tab draws from the core's report
// (core/model/training/training_step.h) and its cheapest fix (training_fix.h). No widgets here.

#include "core/model/training/training_config.h"
#include "core/model/training/training_fix.h"
#include "core/model/training/training_step.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline::ui {

// The Training tab's inputs. The links are the card's own (resolveTrainingLinks with no ids). The first picture is a
// configuration that fits: Llama 2 7B on one node of eight H100s with ZeRO-1, as such a model is commonly trained,
// and full checkpointing, so that the memory bar shows the move's saving and the time bar its recompute: with flash
// attention, the default kernel, selective checkpointing would recompute only the scores flash never stores and
// save nothing.
struct TrainingRequest {
    QString modelId = QStringLiteral("llama-2-7b");
    QString gpuId = QStringLiteral("h100-sxm");
    std::int64_t sequence = 4096;
    std::int64_t microBatch = 1;
    std::int64_t globalBatch = 64;
    PrecisionPolicy precision = PrecisionPolicy::Bf16Mixed;
    Optimizer optimizer = Optimizer::AdamW;
    Checkpointing checkpointing = Checkpointing::Full;
    AttentionKernel attention = AttentionKernel::Flash;
    int gpusPerNode = 8;
    int nodes = 1;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int zeroStage = 1;
    bool operator==(const TrainingRequest&) const = default;
};

// Looks the model, the GPU and its links up and fills the configuration; the error names what is unknown.
Result<TrainingConfig> resolveTrainingRequest(const TrainingRequest& request);

// The parts of the two stacked bars, in drawing order.
enum class TrainingPart {
    Weights,
    Gradients,
    Optimizer,
    Activations,
    Temporary,
    Runtime,  // the CUDA context and NCCL's buffers
    Compute,
    Recompute,
    Communication,
    Bubble
};

struct StackPart {
    TrainingPart part = TrainingPart::Weights;
    QString name;  // "weights"
    double value = 0;
    QString legend;  // "weights 13.48 GiB", "recompute: none"
};

// One stacked bar: the parts against a capacity (the card's memory) or against their own sum (the step's time).
struct StackBarData {
    QString title;
    QString shortTitle;  // when the title does not fit beside the status
    QString status;      // right of the title: "Fits: ...", "DOES NOT FIT: ...", "1.23 s per step"
    std::vector<StackPart> parts;
    double capacity = 0;  // 0: no capacity line
    QString capacityLabel;
    double scale = 0;  // the bar's length at least: bars compared one above another share one scale
    double total() const;
    bool over() const { return capacity > 0 && total() > capacity; }
};

// One collective of the step with the link it crosses.
struct CollectiveRow {
    QString what;  // "tensor-parallel all-reduce"
    QString link;
    bool crossesNodes = false;
    double seconds = 0;  // before any overlap
    QString numbers;     // "64 x 32.0 MiB: 12.3 ms (8 % of the step)"
};

// The machine as the step uses it: nodes of GPUs, the link inside a node and the network between them, and each
// collective coloured by the link it crosses.
struct HierarchyData {
    QString title;  // empty: "Collectives by the link they cross"
    int gpusPerNode = 1;
    int nodes = 1;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int dataParallel = 1;
    QString insideLink;  // "NVLink 4 (H100): 450 GB/s each way"
    QString acrossLink;  // "InfiniBand NDR: 50 GB/s each way"
    std::vector<CollectiveRow> rows;
    double stepSeconds = 0;
    QString emptyText;  // when there is no collective: why
};

struct TrainingView {
    TrainingConfig config;
    TrainingReport report;
    bool fits = true;
    QString headline;    // "Llama 2 7B on 8 x H100: 25,400 tokens/s, MFU 47 %, 10.3 s per step"
    QStringList detail;  // the layout; the batch; the matmuls' rate
    StackBarData memory;
    StackBarData time;
    HierarchyData hierarchy;
    QString fix;  // the cheapest move that makes it fit; empty when it fits
    QStringList notes;
};

// "Llama 2 7B on 8 \u00d7 H100 SXM": what the headline and an exported picture's file name start with.
QString trainingSubject(const TrainingConfig& config);

// The tab's memory bar, time bar and hierarchy for one configuration and its report (the talk's training slides
// draw the same).
StackBarData trainingMemoryBar(const TrainingConfig& config, const TrainingMemory& memory);
StackBarData trainingTimeBar(const TrainingReport& report);
HierarchyData trainingHierarchy(const TrainingConfig& config, const TrainingReport& report);

// The core's report and fix for the request, in the tab's words; the error is the core's own message.
Result<TrainingView> computeTrainingView(const TrainingRequest& request);

}  // namespace ridgeline::ui
