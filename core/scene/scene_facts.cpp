#include "core/scene/scene_facts.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/gpu_roofs.h"
#include "core/model/catalog/links.h"
#include "core/model/intensity.h"
#include "core/model/llm/llm_model.h"
#include "core/model/roofline.h"
#include "core/model/units.h"
#include "core/scene/fact_list.h"
#include "core/scene/training_facts.h"
#include "core/session/mixed_precision.h"
#include "core/session/session_roof.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

Error sceneError(const Scene& scene, const QString& what)
{
    return Error{Error::Code::InvalidArgument, QStringLiteral("scene \"%1\": %2").arg(scene.id, what)};
}

// The scene's model at one batch, context, GPU count and link (empty: the card's own).
Result<InferenceReport> inference(const Scene& scene, std::int64_t batch, std::int64_t context, int tensorParallel = 1,
                                  const QString& linkId = {})
{
    InferenceRequest request = inferenceRequestFor(scene);
    request.batch = batch;
    request.context = context;
    request.gpus = tensorParallel;
    request.linkId = linkId;
    const Result<InferenceConfig> config = resolveInference(request);
    if (!config)
        return sceneError(scene, config.error().message);
    Result<InferenceReport> report = evaluateInference(config.value());
    if (!report)
        return sceneError(scene, report.error().message);
    return report;
}

QString keyOf(const QString& name)
{
    QString key = name.toLower();
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    key.replace(nonWord, QStringLiteral("_"));
    return key;
}

const KernelResult* findKernel(const Session& session, const QString& name)
{
    const auto found = std::find_if(session.kernels.begin(), session.kernels.end(),
                                    [&](const KernelResult& k) { return k.name == name; });
    return found == session.kernels.end() ? nullptr : &*found;
}

std::optional<Error> ridgeFacts(const Scene& scene, const Session& session, FactList& facts)
{
    // The session's roof by the one rule (session_roof.h); the caption names DRAM, so it must be DRAM's.
    const std::optional<SessionRoof> primary = primaryRoof(session);
    if (!primary || primary->memory->level != kDramLevel)
        return sceneError(scene, QStringLiteral("the session has no compute ceiling or no DRAM bandwidth ceiling"));
    const Roof roof = primary->roof();
    facts.add(QStringLiteral("machine"), 0.0, session.machine.cpuModel);
    facts.add(QStringLiteral("peak_gflops"), roof.peakGflops, 0, QStringLiteral("GFLOP/s"));
    facts.add(QStringLiteral("peak_name"), 0.0, primary->compute->name);
    facts.add(QStringLiteral("dram_gbps"), roof.bandwidthGbps, 1, QStringLiteral("GB/s"));
    facts.add(QStringLiteral("ridge"), ridgeIntensity(roof), 1, QStringLiteral("FLOP/byte"));
    return std::nullopt;
}

std::optional<Error> intensityTableFacts(const Scene& scene, FactList& facts)
{
    const Result<IntensityTable> table = intensityTableFor(scene);
    if (!table)
        return sceneError(scene, table.error().message);
    const IntensityTable& t = table.value();
    facts.add(QStringLiteral("balance"), ridgeIntensity(t.gpu.roof), 0, QStringLiteral("FLOP/byte"));
    facts.add(QStringLiteral("add_intensity"), t.rows[0].intensity, 2);
    facts.add(QStringLiteral("matmul_512"), t.rows[1].intensity, 0);
    facts.add(QStringLiteral("matmul_4096"), t.rows[2].intensity, 0);
    facts.add(QStringLiteral("add_attainable_tflops"), t.rows[0].attainableGflops / 1000.0, 2,
              QStringLiteral("TFLOP/s"));
    return std::nullopt;
}

std::optional<Error> cpuExperimentFacts(const Scene& scene, const Session& session, FactList& facts)
{
    for (const QString& name : scene.highlight) {
        const KernelResult* kernel = findKernel(session, name);
        if (!kernel)
            return sceneError(scene, QStringLiteral("the session has no kernel \"%1\"").arg(name));
        const QString key = keyOf(name);
        facts.add(key + QStringLiteral("_gflops"), kernel->gflops, kernel->gflops < 10.0 ? 1 : 0,
                  QStringLiteral("GFLOP/s"));
        facts.add(key + QStringLiteral("_gbps"), kernel->gbps, 1, QStringLiteral("GB/s"));
        facts.add(key + QStringLiteral("_intensity"), kernel->intensity, kernel->intensity < 1.0 ? 2 : 0,
                  QStringLiteral("FLOP/byte"));
        // Mixed precision: a bf16 product against the fp32 sgemm of the same n, measured here.
        if (kernel->kind == QLatin1String("bf16-gemm")) {
            const KernelResult* sgemm = sgemmBeside(session, *kernel);
            if (!sgemm)
                return sceneError(
                    scene, QStringLiteral("the session has no sgemm of %1 beside \"%2\"").arg(kernel->size, name));
            facts.add(key + QStringLiteral("_vs_sgemm"), MixedPrecisionPair{kernel, sgemm}.speedup(), 1,
                      QStringLiteral("x"));
        }
    }
    return std::nullopt;
}

std::optional<Error> oneTokenFacts(const Scene& scene, FactList& facts)
{
    const Result<InferenceReport> report = inference(scene, 1, sceneContext(scene));
    if (!report)
        return report.error();
    const InferenceReport& r = report.value();
    const double balance = r.datasheetRidgeFlopPerByte;
    facts.add(QStringLiteral("weights_gb"), static_cast<double>(r.weightsBytes) / 1e9, 1, QStringLiteral("GB"));
    facts.add(QStringLiteral("intensity"), r.weightsOnlyIntensity, 0, QStringLiteral("FLOP/byte"));
    facts.add(QStringLiteral("balance"), balance, 0, QStringLiteral("FLOP/byte"));
    facts.add(QStringLiteral("idle_percent"), 100.0 * (1.0 - r.weightsOnlyIntensity / balance), 1, QStringLiteral("%"));
    facts.add(QStringLiteral("tokens_s"), r.tokensPerSecond, 0, QStringLiteral("tokens/s"));
    return std::nullopt;
}

std::optional<Error> batchingFacts(const Scene& scene, FactList& facts)
{
    if (scene.batches.empty())
        return sceneError(scene, QStringLiteral("a batching scene needs \"batches\""));
    const std::int64_t context = sceneContext(scene);
    double firstStep = 0.0;
    double firstTokens = 0.0;
    for (std::int64_t batch : scene.batches) {
        const Result<InferenceReport> report = inference(scene, batch, context);
        if (!report)
            return report.error();
        const InferenceReport& r = report.value();
        if (firstStep == 0.0) {
            firstStep = r.step.seconds;
            firstTokens = r.tokensPerSecond;
        }
        const QString b = QString::number(batch);
        facts.add(QStringLiteral("step_ms_") + b, r.step.seconds * 1e3, 2, QStringLiteral("ms"));
        facts.add(QStringLiteral("step_x_") + b, r.step.seconds / firstStep, 2, QStringLiteral("x"));
        facts.add(QStringLiteral("tokens_s_") + b, r.tokensPerSecond, 0, QStringLiteral("tokens/s"));
        const double speedup = r.tokensPerSecond / firstTokens;
        facts.add(QStringLiteral("speedup_") + b, speedup, speedup < 10.0 ? 1 : 0, QStringLiteral("x"));
        facts.add(QStringLiteral("bound_") + b, r.step.bound == Bound::Compute ? 1.0 : 0.0, boundName(r.step.bound));
        facts.add(QStringLiteral("intensity_") + b, r.weightsOnlyIntensity, 0, QStringLiteral("FLOP/byte"));
        if (batch == scene.batches.back()) {
            facts.add(QStringLiteral("balance"), r.datasheetRidgeFlopPerByte, 0, QStringLiteral("FLOP/byte"));
            if (r.kneeBatch)
                facts.add(QStringLiteral("knee"), static_cast<double>(*r.kneeBatch), 0);
        }
    }
    return std::nullopt;
}

std::optional<Error> kvCacheFacts(const Scene& scene, FactList& facts)
{
    const Result<InferenceReport> report = inference(scene, scene.batch, sceneContext(scene));
    if (!report)
        return report.error();
    const InferenceReport& r = report.value();
    facts.add(QStringLiteral("batch"), static_cast<double>(scene.batch), 0);
    facts.add(QStringLiteral("context"), static_cast<double>(scene.context), 0, QStringLiteral("tokens"));
    facts.add(QStringLiteral("kv_per_token_kib"), static_cast<double>(r.kvBytesPerToken) / 1024.0, 0,
              QStringLiteral("KiB"));
    facts.add(QStringLiteral("kv_per_sequence_gib"), static_cast<double>(r.kvBytesPerSequence) / kGiB, 0,
              QStringLiteral("GiB"));
    facts.add(QStringLiteral("kv_total_gib"), static_cast<double>(r.kvBytesTotal) / kGiB, 0, QStringLiteral("GiB"));
    facts.add(QStringLiteral("weights_gib"), static_cast<double>(r.weightsBytes) / kGiB, 1, QStringLiteral("GiB"));
    facts.add(QStringLiteral("kv_over_weights"),
              static_cast<double>(r.kvBytesTotal) / static_cast<double>(r.weightsBytes), 1, QStringLiteral("x"));
    facts.add(QStringLiteral("gpu_memory_gib"), static_cast<double>(r.memory.capacityPerGpu) / kGiB, 0,
              QStringLiteral("GiB"));
    facts.add(QStringLiteral("max_batch"), static_cast<double>(r.maxBatch), 0);
    return std::nullopt;
}

std::optional<Error> fusionFacts(const Scene& scene, const Session& session, FactList& facts)
{
    const FusionTraffic traffic = elementwiseChainTraffic(3);
    facts.add(QStringLiteral("unfused_transfers"), traffic.unfusedTransfers, 0);
    facts.add(QStringLiteral("fused_transfers"), traffic.fusedTransfers, 0);
    facts.add(QStringLiteral("saved_percent"), 100.0 * traffic.savedFraction(), 0, QStringLiteral("%"));
    const FusionResult& f = session.fusion;
    if (f.elements <= 0 || f.fusedSeconds <= 0.0 || f.fusedBytes <= 0.0)
        return sceneError(scene, QStringLiteral("the session has no fusion measurement"));
    facts.add(QStringLiteral("measured_speedup"), f.speedup, 1, QStringLiteral("x"));
    facts.add(QStringLiteral("measured_traffic_ratio"), f.unfusedBytes / f.fusedBytes, 0, QStringLiteral("x"));
    facts.add(QStringLiteral("unfused_ms"), f.unfusedSeconds * 1e3, 1, QStringLiteral("ms"));
    facts.add(QStringLiteral("fused_ms"), f.fusedSeconds * 1e3, 1, QStringLiteral("ms"));
    return std::nullopt;
}

std::optional<Error> tensorParallelFacts(const Scene& scene, FactList& facts)
{
    if (scene.links.isEmpty() || scene.tensorParallel < 2)
        return sceneError(scene, QStringLiteral("a tensor-parallel scene needs \"links\" and tensor_parallel >= 2"));
    const std::int64_t context = sceneContext(scene);
    facts.add(QStringLiteral("gpus"), scene.tensorParallel, 0);
    for (const QString& link : scene.links) {
        const Result<InferenceReport> report = inference(scene, scene.batch, context, scene.tensorParallel, link);
        if (!report)
            return report.error();
        const QString key = keyOf(link);
        facts.add(QStringLiteral("tokens_s_") + key, report.value().tokensPerSecond, 0, QStringLiteral("tokens/s"));
        facts.add(QStringLiteral("comm_percent_") + key, 100.0 * report.value().commFraction, 0, QStringLiteral("%"));
    }
    return std::nullopt;
}

// A serving scene: prompt, output, largest_running; per batch B tokens_s_gpu_B, tokens_s_user_B, ttft_B, itl_B and,
// against the first batch, throughput_x_B and ttft_x_B; with a price, price, cost_B and cost_x_B (the first batch's
// cost over B's: how many times cheaper).
std::optional<Error> servingSceneFacts(const Scene& scene, FactList& facts)
{
    const Result<ServingSweep> sweep = servingSweepOf(scene);
    if (!sweep)
        return sweep.error();
    const ServingSweep& s = sweep.value();
    facts.add(QStringLiteral("prompt"), static_cast<double>(s.lengths.prompt), 0, QStringLiteral("tokens"));
    facts.add(QStringLiteral("output"), static_cast<double>(s.lengths.output), 0, QStringLiteral("tokens"));
    facts.add(QStringLiteral("largest_running"), static_cast<double>(s.largestRunning), 0);
    if (s.gpuHourPrice)
        facts.add(QStringLiteral("price"), *s.gpuHourPrice, formatDollars(*s.gpuHourPrice));
    const FrontierPoint& first = s.points.front();
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        const FrontierPoint& p = s.points[i];
        const QString b = QString::number(p.batch);
        facts.add(QStringLiteral("tokens_s_gpu_") + b, p.tokensPerSecondPerGpu, 0, QStringLiteral("tokens/s"));
        facts.add(QStringLiteral("tokens_s_user_") + b, p.tokensPerSecondPerUser,
                  formatSignificant(p.tokensPerSecondPerUser) + QStringLiteral(" tokens/s"));
        facts.add(QStringLiteral("ttft_") + b, p.latency.ttftSeconds, formatSeconds(p.latency.ttftSeconds));
        facts.add(QStringLiteral("itl_") + b, p.latency.itlSeconds, formatSeconds(p.latency.itlSeconds));
        facts.addTimes(QStringLiteral("throughput_x_") + b, p.tokensPerSecondPerGpu / first.tokensPerSecondPerGpu);
        facts.addTimes(QStringLiteral("ttft_x_") + b, p.latency.ttftSeconds / first.latency.ttftSeconds);
        if (i < s.costPerMillionOutput.size()) {
            facts.add(QStringLiteral("cost_") + b, s.costPerMillionOutput[i], formatDollars(s.costPerMillionOutput[i]));
            facts.addTimes(QStringLiteral("cost_x_") + b, s.costPerMillionOutput.front() / s.costPerMillionOutput[i]);
        }
    }
    return std::nullopt;
}

// A view a user saved: the batching explorer's numbers at its settings, or the session's ridge.
std::optional<Error> viewFacts(const Scene& scene, const Session* session, FactList& facts)
{
    if (scene.view == QLatin1String("roofline"))
        return session ? ridgeFacts(scene, *session, facts) : std::nullopt;
    const QString link = scene.links.value(0);
    const Result<InferenceReport> report =
        inference(scene, scene.batch, sceneContext(scene), scene.tensorParallel, link);
    if (!report)
        return report.error();
    const InferenceReport& r = report.value();
    facts.add(QStringLiteral("batch"), static_cast<double>(scene.batch), 0);
    facts.add(QStringLiteral("context"), static_cast<double>(scene.context), 0, QStringLiteral("tokens"));
    facts.add(QStringLiteral("tokens_s"), r.tokensPerSecond, 0, QStringLiteral("tokens/s"));
    facts.add(QStringLiteral("step_ms"), r.step.seconds * 1e3, 2, QStringLiteral("ms"));
    facts.add(QStringLiteral("bound"), r.step.bound == Bound::Compute ? 1.0 : 0.0, boundName(r.step.bound));
    facts.add(QStringLiteral("intensity"), r.step.intensity, 1, QStringLiteral("FLOP/byte"));
    facts.add(QStringLiteral("weights_gib"), static_cast<double>(r.weightsBytes) / kGiB, 1, QStringLiteral("GiB"));
    facts.add(QStringLiteral("kv_total_gib"), static_cast<double>(r.kvBytesTotal) / kGiB, 1, QStringLiteral("GiB"));
    facts.add(QStringLiteral("max_batch"), static_cast<double>(r.maxBatch), 0);
    return std::nullopt;
}

const QRegularExpression& placeholderPattern()
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([a-z0-9_]+)\\}"));
    return placeholder;
}

bool computes(const std::vector<SceneFact>& facts, const QString& key)
{
    return std::any_of(facts.begin(), facts.end(), [&](const SceneFact& f) { return f.key == key; });
}

// "[ (this CPU: {cpu_bf16_x})]": a part in square brackets is said only when the scene computes every {key} in it,
// so that one caption serves a session that measured it and one that did not.
QString keepComputedParts(const QString& caption, const std::vector<SceneFact>& facts)
{
    static const QRegularExpression optional(QStringLiteral("\\[([^\\[\\]]*)\\]"));
    QString kept;
    qsizetype last = 0;
    for (auto it = optional.globalMatch(caption); it.hasNext();) {
        const auto match = it.next();
        bool all = true;
        for (auto keys = placeholderPattern().globalMatch(match.captured(1)); keys.hasNext();)
            all = all && computes(facts, keys.next().captured(1));
        kept += caption.mid(last, match.capturedStart() - last) + (all ? match.captured(1) : QString());
        last = match.capturedEnd();
    }
    return kept + caption.mid(last);
}

// `whatNames` begins the error: "the caption names", "the notes name".
Result<QString> fillText(const Scene& scene, const QString& text, const QString& whatNames,
                         const std::vector<SceneFact>& facts)
{
    const QString kept = keepComputedParts(text, facts);
    QString caption;
    qsizetype last = 0;
    for (auto it = placeholderPattern().globalMatch(kept); it.hasNext();) {
        const auto match = it.next();
        const auto fact =
            std::find_if(facts.begin(), facts.end(), [&](const SceneFact& f) { return f.key == match.captured(1); });
        if (fact == facts.end()) {
            QStringList known;
            for (const SceneFact& f : facts)
                known.append(f.key);
            return sceneError(scene, QStringLiteral("%1 {%2}, which this scene does not compute (it computes: %3)")
                                         .arg(whatNames, match.captured(1), known.join(QStringLiteral(", "))));
        }
        caption += kept.mid(last, match.capturedStart() - last) + fact->text;
        last = match.capturedEnd();
    }
    caption += kept.mid(last);
    return caption;
}

}  // namespace

std::optional<double> SceneFacts::value(const QString& key) const
{
    for (const SceneFact& fact : facts)
        if (fact.key == key)
            return fact.value;
    return std::nullopt;
}

QString SceneFacts::text(const QString& key) const
{
    for (const SceneFact& fact : facts)
        if (fact.key == key)
            return fact.text;
    return {};
}

Result<SceneFacts> computeSceneFacts(const Scene& scene, const Session* session)
{
    const bool needsSession = scene.kind == QLatin1String("ridge") || scene.kind == QLatin1String("cpu-experiment") ||
                              scene.kind == QLatin1String("fusion");
    if (needsSession && !session)
        return sceneError(scene, QStringLiteral("shows measured numbers: open or measure a session first"));

    FactList facts;
    std::optional<Error> error;
    if (scene.kind == QLatin1String("ridge"))
        error = ridgeFacts(scene, *session, facts);
    else if (scene.kind == QLatin1String("intensity-table"))
        error = intensityTableFacts(scene, facts);
    else if (scene.kind == QLatin1String("cpu-experiment"))
        error = cpuExperimentFacts(scene, *session, facts);
    else if (scene.kind == QLatin1String("one-token"))
        error = oneTokenFacts(scene, facts);
    else if (scene.kind == QLatin1String("batching"))
        error = batchingFacts(scene, facts);
    else if (scene.kind == QLatin1String("kv-cache"))
        error = kvCacheFacts(scene, facts);
    else if (scene.kind == QLatin1String("fusion"))
        error = fusionFacts(scene, *session, facts);
    else if (scene.kind == QLatin1String("tensor-parallel"))
        error = tensorParallelFacts(scene, facts);
    else if (scene.kind == QLatin1String("serving-trade") || scene.kind == QLatin1String("serving-cost"))
        error = servingSceneFacts(scene, facts);
    else if (scene.kind == QLatin1String("training-moves") || scene.kind == QLatin1String("training-hierarchy"))
        error = trainingSceneFacts(scene, session, facts);
    else if (scene.kind == QLatin1String("view"))
        error = viewFacts(scene, session, facts);
    else
        error = sceneError(scene, QStringLiteral("unknown kind \"%1\"").arg(scene.kind));
    if (error)
        return *error;

    SceneFacts result;
    result.facts = facts.take();
    Result<QString> caption = fillText(scene, scene.caption, QStringLiteral("the caption names"), result.facts);
    if (!caption)
        return caption.error();
    result.caption = caption.value();
    Result<QString> notes = fillText(scene, scene.notes, QStringLiteral("the notes name"), result.facts);
    if (!notes)
        return notes.error();
    result.notes = notes.value();
    return result;
}

std::int64_t sceneContext(const Scene& scene)
{
    return scene.context > 0 ? scene.context : kDefaultContext;
}

InferenceRequest inferenceRequestFor(const Scene& scene)
{
    InferenceRequest request;
    if (!scene.modelId.isEmpty())
        request.modelId = scene.modelId;
    if (!scene.gpu.catalogId.isEmpty()) {
        request.gpuId = scene.gpu.catalogId;
    } else if (sceneHasGpu(scene)) {
        request.gpuId = kCustomId;
        request.customPeakTflops = scene.gpu.peakTflops;
        request.customBandwidthTbs = scene.gpu.bandwidthTbs;
        request.customMemoryGib = scene.gpu.memoryGib > 0.0 ? scene.gpu.memoryGib : kDefaultCustomMemoryGib;
    }
    request.batch = scene.batches.empty() ? scene.batch : scene.batches.back();
    request.context = sceneContext(scene);
    request.gpus = std::max(1, scene.tensorParallel);
    request.linkId = scene.links.value(0);
    if (scene.ideal)
        request.efficiency = Efficiency::ideal();
    return request;
}

Scene batchingViewScene(const InferenceRequest& in)
{
    Scene scene;
    scene.kind = QStringLiteral("view");
    scene.view = QStringLiteral("batching");
    scene.modelId = in.modelId;
    if (in.gpuId == kCustomId) {
        scene.gpu.peakTflops = in.customPeakTflops;
        scene.gpu.bandwidthTbs = in.customBandwidthTbs;
        scene.gpu.memoryGib = in.customMemoryGib;
    } else {
        scene.gpu.catalogId = in.gpuId;
    }
    scene.batch = in.batch;
    scene.context = in.context;
    scene.tensorParallel = in.gpus;
    if (in.gpus > 1)
        scene.links = QStringList{effectiveLinkId(in)};
    scene.ideal = in.ideal();
    return scene;
}

Result<ServingSweep> servingSweepOf(const Scene& scene)
{
    return servingSweepFor(scene, inferenceRequestFor(scene), sceneContext(scene));
}

bool sceneHasGpu(const Scene& scene)
{
    return !scene.gpu.catalogId.isEmpty() || scene.gpu.peakTflops > 0.0 || scene.gpu.bandwidthTbs > 0.0;
}

std::optional<NamedRoof> gpuRoofOf(const Scene& scene)
{
    if (!sceneHasGpu(scene))
        return std::nullopt;
    const Result<InferenceConfig> config = resolveInference(inferenceRequestFor(scene));
    if (!config)
        return std::nullopt;
    std::optional<NamedRoof> roof = gpuRoof(config.value().gpu, NumberFormat::Bf16);
    if (roof && !scene.gpu.label.isEmpty())
        roof->name = scene.gpu.label;
    else if (roof && scene.gpu.catalogId.isEmpty())
        roof->name = QStringLiteral("Custom GPU");
    return roof;
}

Result<IntensityTable> intensityTableFor(const Scene& scene)
{
    if (!sceneHasGpu(scene))
        return makeError(Error::Code::InvalidArgument, QStringLiteral("an intensity table needs a \"gpu\""));
    const Result<InferenceConfig> config = resolveInference(inferenceRequestFor(scene));
    if (!config)
        return config.error();
    const std::optional<NamedRoof> gpu = gpuRoofOf(scene);
    if (!gpu)
        return makeError(Error::Code::InvalidArgument, QStringLiteral("the scene's GPU has no dense bf16 peak"));
    IntensityTable table;
    table.gpu = *gpu;
    constexpr int kBf16Bytes = 2;
    const std::array<std::pair<QString, OpCount>, 3> rows = {
        std::pair{QStringLiteral("add"), elementwiseAddCount(4096, kBf16Bytes)},
        std::pair{QStringLiteral("matmul n = 512"), matmulCount(512, kBf16Bytes)},
        std::pair{QStringLiteral("matmul n = 4096"), matmulCount(4096, kBf16Bytes)}};
    for (const auto& [name, count] : rows) {
        IntensityTable::Row row;
        row.name = name;
        row.kind = name.startsWith(QLatin1String("matmul")) ? QStringLiteral("matmul") : QStringLiteral("add");
        row.count = count;
        row.intensity = count.intensity();
        row.attainableGflops = attainableGflops(table.gpu.roof, row.intensity);
        table.rows.push_back(row);
    }
    return table;
}

}  // namespace ridgeline
