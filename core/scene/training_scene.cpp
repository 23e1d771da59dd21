#include "core/scene/training_scene.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/inference_request.h"
#include "core/model/training/training_fix.h"

namespace ridgeline {

namespace {

Error trainingSceneError(const Scene& scene, const QString& what)
{
    return Error{Error::Code::InvalidArgument, QStringLiteral("scene \"%1\": %2").arg(scene.id, what)};
}

std::int64_t orDefault(std::int64_t value, std::int64_t fallback)
{
    return value > 0 ? value : fallback;
}

// The scene's model, card and links, at its sequence, in bf16 mixed precision on one GPU.
Result<TrainingConfig> baseConfig(const Scene& scene)
{
    TrainingConfig config;
    InferenceRequest asked;
    if (!scene.modelId.isEmpty())
        asked.modelId = scene.modelId;
    Result<ModelSpec> model = resolveModelSpec(asked);
    if (!model)
        return trainingSceneError(scene, model.error().message);
    const double memoryGib = scene.gpu.memoryGib > 0.0 ? scene.gpu.memoryGib : kDefaultCustomMemoryGib;
    Result<GpuSpec> gpu = !scene.gpu.catalogId.isEmpty() ? findGpu(scene.gpu.catalogId)
                          : scene.gpu.peakTflops > 0.0
                              ? customGpu(scene.gpu.peakTflops, scene.gpu.bandwidthTbs, memoryGib)
                              : findGpu(kDefaultGpuId);
    if (!gpu)
        return trainingSceneError(scene, gpu.error().message);
    config.model = std::move(model).value();
    config.gpu = std::move(gpu).value();
    if (std::optional<Error> error = resolveTrainingLinks(config, scene.links.value(0), scene.links.value(1)))
        return trainingSceneError(scene, error->message);
    config.sequence = orDefault(scene.sequence, kTrainingSceneSequence);
    return config;
}

Result<TrainingStage> stageOf(const Scene& scene, const QString& label, const TrainingConfig& config)
{
    Result<TrainingReport> report = evaluateTraining(config);
    if (!report)
        return trainingSceneError(scene, report.error().message);
    return TrainingStage{label, config, std::move(report).value()};
}

}  // namespace

Result<std::vector<TrainingStage>> trainingMovesOf(const Scene& scene)
{
    Result<TrainingConfig> base = baseConfig(scene);
    if (!base)
        return base.error();
    TrainingConfig start = base.value();
    start.precision = PrecisionPolicy::Fp32;
    start.checkpointing = Checkpointing::None;
    start.microBatch = orDefault(scene.microBatch, kTrainingSceneMicroBatch);
    start.globalBatch = orDefault(scene.globalBatch, start.microBatch);
    if (start.globalBatch % start.microBatch != 0)
        return trainingSceneError(scene, QStringLiteral("global_batch %1 is not a multiple of micro_batch %2")
                                             .arg(start.globalBatch)
                                             .arg(start.microBatch));

    std::vector<TrainingStage> stages;
    Result<TrainingStage> first =
        stageOf(scene, QStringLiteral("fp32, micro-batch %1, every activation kept").arg(start.microBatch), start);
    if (!first)
        return first.error();
    stages.push_back(std::move(first).value());
    for (const TrainingMoveStep& step : cheapMovesInOrder(start)) {
        Result<TrainingStage> stage = stageOf(scene, QStringLiteral("+ ") + step.move, step.config);
        if (!stage)
            return stage.error();
        stages.push_back(std::move(stage).value());
    }
    return stages;
}

Result<std::vector<TrainingStage>> trainingHierarchyOf(const Scene& scene)
{
    Result<TrainingConfig> base = baseConfig(scene);
    if (!base)
        return base.error();
    const int tp = scene.tensorParallel;
    const int boxes = static_cast<int>(orDefault(scene.boxes, kTrainingSceneBoxes));
    if (tp < 2 || boxes < 2 || tp % boxes != 0)
        return trainingSceneError(
            scene, QStringLiteral("a training-hierarchy scene needs tensor_parallel >= 2 spread over boxes >= 2 that "
                                  "divide it, got tensor_parallel %1 over %2 boxes")
                       .arg(tp)
                       .arg(boxes));
    TrainingConfig inside = base.value();
    inside.checkpointing = Checkpointing::Selective;
    inside.microBatch = orDefault(scene.microBatch, 1);
    inside.globalBatch = orDefault(scene.globalBatch, kTrainingSceneGlobalBatch);
    inside.tensorParallel = tp;
    inside.gpusPerNode = tp;
    TrainingConfig across = inside;
    across.gpusPerNode = tp / boxes;
    across.nodes = boxes;

    std::vector<TrainingStage> stages;
    for (const auto& [label, config] :
         {std::pair{QStringLiteral("tp %1 inside one box").arg(tp), inside},
          std::pair{QStringLiteral("tp %1 across %2 boxes of %3").arg(tp).arg(boxes).arg(tp / boxes), across}}) {
        Result<TrainingStage> stage = stageOf(scene, label, config);
        if (!stage)
            return stage.error();
        stages.push_back(std::move(stage).value());
    }
    return stages;
}

}  // namespace ridgeline
