#include "core/scene/serving_scene.h"

#include "core/model/serving/scheduler_choice.h"

namespace ridgeline {

namespace {

Error servingError(const Scene& scene, const QString& what)
{
    return Error{Error::Code::InvalidArgument, QStringLiteral("scene \"%1\": %2").arg(scene.id, what)};
}

}  // namespace

Result<ServingSweep> servingSweepFor(const Scene& scene, InferenceRequest request, std::int64_t context)
{
    if (scene.batches.empty())
        return servingError(scene, QStringLiteral("a serving scene needs \"batches\""));
    if (scene.kind == QLatin1String("serving-cost") && !scene.gpuHourPrice)
        return servingError(scene, QStringLiteral("a cost scene needs \"gpu_hour_price\""));
    // The terms `ridgeline model --frontier` and the batching tab use, so that slide, CLI and tab agree.
    if (!scene.ideal)
        setEngineChoice(request, kDefaultEngineChoice);
    request.batch = 1;
    request.context = context;
    const Result<InferenceConfig> config = resolveInference(request);
    if (!config)
        return servingError(scene, config.error().message);
    const Result<LlmModel> model = LlmModel::create(config.value());
    if (!model)
        return servingError(scene, model.error().message);
    // The engine's scheduler, as every serving front end chooses it (scheduler_choice.h); a scene names no engine,
    // so this is generic's, vLLM's defaults.
    const SchedulingPolicy policy = engineScheduler(request.engine).policy;
    ServingSweep sweep;
    sweep.modelName = config.value().model.name;
    sweep.gpuName = scene.gpu.label.isEmpty() ? config.value().gpu.name : scene.gpu.label;
    sweep.lengths = requestLengthsInContext(context);
    sweep.largestRunning = largestRunning(model.value(), sweep.lengths.prompt, sweep.lengths.output, policy);
    sweep.gpuHourPrice = scene.gpuHourPrice;
    const GpuPower power = gpuPower(CostInputs{}, config.value().gpu);
    for (const std::int64_t batch : scene.batches) {
        const Result<FrontierPoint> point =
            frontierPoint(model.value(), sweep.lengths.prompt, sweep.lengths.output, batch, policy);
        if (!point)
            return servingError(scene, point.error().message);
        sweep.points.push_back(point.value());
        if (scene.gpuHourPrice)
            sweep.costPerMillionOutput.push_back(
                frontierPointCost(point.value(), config.value().tensorParallel, scene.gpuHourPrice, power)
                    .perMillionOutput.value_or(0.0));
    }
    return sweep;
}

}  // namespace ridgeline
