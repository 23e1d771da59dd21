#include "ui/plots/batching/batching_scenario.h"

#include "core/model/catalog/gpu_roofs.h"
#include "core/model/intensity.h"
#include "core/session/decode_energy.h"
#include "core/session/session_roof.h"
#include "ui/plots/batching/weight_precision_curves.h"

#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

bool finitePositive(double x)
{
    return std::isfinite(x) && x > 0.0;
}

Error nonFinite(const QString& what)
{
    return makeError(
        Error::Code::Range,
        QStringLiteral("the model gives no finite %1 for these inputs; check the custom values").arg(what));
}

QString machineLabel(const Session& session)
{
    if (!session.title.isEmpty())
        return session.title;
    if (!session.machine.cpuModel.isEmpty())
        return session.machine.cpuModel;
    return session.machine.hostname.isEmpty() ? QStringLiteral("this CPU") : session.machine.hostname;
}

BatchingScenario evaluateScenario(const InferenceRequest& request);

}  // namespace

QString withoutNonFiniteNumbers(QString message)
{
    // The core echoes what it was given ("got nan"); a person reads words, never "nan" or "inf".
    static const QRegularExpression nan(QStringLiteral("\\bnan\\b"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression inf(QStringLiteral("[-+]?\\binf(inity)?\\b"),
                                        QRegularExpression::CaseInsensitiveOption);
    message.replace(nan, QStringLiteral("not a number"));
    message.replace(inf, QStringLiteral("an infinite value"));
    return message;
}

BatchingScenario computeBatchingScenario(const InferenceRequest& request)
{
    BatchingScenario s = evaluateScenario(request);
    s.scheduler = engineScheduler(request.engine);
    if (s.error)
        s.error->message = withoutNonFiniteNumbers(s.error->message);
    return s;
}

namespace {

BatchSample sampleAt(const LlmModel& model, std::int64_t batch, std::int64_t maxFitting)
{
    const StepCost cost = model.decodeStep(batch, model.config().context);
    BatchSample sample;
    sample.batch = batch;
    sample.stepSeconds = cost.seconds;
    // A speculative step gains `acceptance` tokens per sequence, as the report's tokens/s counts them: the curve
    // through the marker must count them the same way.
    sample.tokensPerSecond = static_cast<double>(batch) * model.config().speculative.acceptance / cost.seconds;
    sample.intensity = cost.intensity;
    sample.achievedTflops = cost.flops / cost.seconds / 1e12;
    sample.fits = batch <= maxFitting;
    return sample;
}

void fillThroughput(ThroughputData& t, const LlmModel& model, const InferenceReport& r)
{
    const InferenceConfig& c = model.config();
    const std::int64_t knee = r.kneeBatch.value_or(0);
    // Not the current batch: the curves then stay the same while the batch slider moves, and only the
    // markers are redrawn. 8 samples per octave plus the two corners keep the marker on the drawn curve.
    const std::vector<std::int64_t> batches =
        sampleBatches(kPanelMaxBatch, {knee - 1, knee, r.maxBatch, r.maxBatch + 1});
    t.maxShownBatch = kPanelMaxBatch;
    t.context = c.context;
    t.batch = c.batch;
    t.tokensPerSecond = r.tokensPerSecond;
    t.stepSeconds = r.step.seconds;
    t.kneeBatch = r.kneeBatch;
    t.maxFittingBatch = r.maxBatch;
    t.curve.reserve(batches.size());
    for (const std::int64_t b : batches) {
        const BatchSample sample = sampleAt(model, b, r.maxBatch);
        if (finitePositive(sample.stepSeconds) && finitePositive(sample.tokensPerSecond) &&
            finitePositive(sample.intensity) && finitePositive(sample.achievedTflops))
            t.curve.push_back(sample);
    }
}

void fillRoofline(DecodeRooflineData& roof, const LlmModel& model, const InferenceReport& r,
                  const std::vector<BatchSample>& curve)
{
    const InferenceConfig& c = model.config();
    roof.gpuName = c.gpu.name;
    roof.precision = numberFormatName(r.computePrecision);
    roof.effective = model.effectiveRoof();
    const Roof datasheet = gpuRoof(c.gpu, r.computePrecision).value_or(NamedRoof{}).roof;
    if (datasheet.peakGflops != roof.effective.peakGflops || datasheet.bandwidthGbps != roof.effective.bandwidthGbps)
        roof.datasheet = datasheet;
    roof.trajectory = curve;
    roof.current = sampleAt(model, c.batch, r.maxBatch);
    roof.bound = r.step.bound;
    const double attention = r.step.attentionIntensity();
    roof.hasAttention = finitePositive(attention);
    if (roof.hasAttention) {
        roof.attentionIntensity = attention;
        roof.attentionTflops = attainableGflops(roof.effective, attention) / 1e3;
        roof.attentionBound = boundAt(roof.effective, attention);
    }
    roof.operators.clear();
    for (const StepOperator& op : r.step.operators)
        if (finitePositive(op.intensity()) && finitePositive(op.seconds) && finitePositive(r.step.seconds))
            roof.operators.push_back(
                OperatorPoint{op.name, op.intensity(), op.flops / op.seconds / 1e12, op.seconds / r.step.seconds});
}

void fillMemory(MemoryBarData& m, const LlmModel& model, const InferenceReport& r)
{
    const InferenceConfig& c = model.config();
    m.gpuName = c.gpu.name;
    m.gpus = r.gpus;
    m.batch = c.batch;
    m.context = r.kvTokensPerSequence;
    m.weightsBytes = r.memory.weightsPerGpu;
    m.kvBytes = r.memory.kvPerGpu;
    m.capacityBytes = r.memory.capacityPerGpu;
    m.fits = r.memory.fits;
    m.maxFittingBatch = r.maxBatch;
    Result<MemoryUse> one = model.memory(1, c.context);
    m.kvBytesPerSequence = one ? one.value().kvPerGpu : 0;
}

BatchingScenario evaluateScenario(const InferenceRequest& request)
{
    BatchingScenario s;
    Result<InferenceConfig> config = resolveInference(request);
    if (!config) {
        s.error = config.error();
        return s;
    }
    Result<LlmModel> created = LlmModel::create(config.value());
    if (!created) {
        s.error = created.error();
        return s;
    }
    const LlmModel& model = created.value();
    Result<InferenceReport> evaluated = model.report();
    if (!evaluated) {
        s.error = evaluated.error();
        return s;
    }
    const InferenceReport& r = evaluated.value();
    // Defensive: the core validates its inputs, but nothing that is not a finite number may reach a label.
    if (!finitePositive(r.step.seconds) || !finitePositive(r.tokensPerSecond)) {
        s.error = nonFinite(QStringLiteral("step time"));
        return s;
    }
    if (!finitePositive(r.step.intensity) || !finitePositive(r.ridgeFlopPerByte)) {
        s.error = nonFinite(QStringLiteral("arithmetic intensity"));
        return s;
    }
    s.report = r;
    const InferenceConfig& c = model.config();
    s.config = c;
    s.modelName = c.model.name;
    s.gpuName = c.gpu.name;
    if (c.tensorParallel > 1)
        s.linkName = crossesSockets(c.link, c.tensorParallel)
                         ? QStringLiteral("%1, two CPU sockets of %2 (%3 GB/s between them)")
                               .arg(c.link.name)
                               .arg(c.link.gpusPerSocket)
                               .arg(c.link.socketGbPerSec)
                         : c.link.name;
    fillThroughput(s.throughput, model, r);
    fillRoofline(s.roofline, model, r, s.throughput.curve);
    fillMemory(s.memory, model, r);
    s.breakdown =
        StepBreakdownData{r.step.breakdown,   c.batch,       r.gpus, c.speculative.enabled(), r.step.computeSeconds,
                          r.step.weightBytes, r.step.kvBytes};
    return s;
}

}  // namespace

CpuBatchingData predictCpuBatching(const Session& session)
{
    CpuBatchingData d;
    d.machineName = machineLabel(session);
    d.energy = decodeEnergySummary(session);
    if (const ComputeCeiling* fp32 = bestComputeCeiling(session, u"fp32"); fp32 && std::isfinite(fp32->gflops))
        d.peakGflops = fp32->gflops;
    if (const BandwidthCeiling* dram = memoryCeiling(session, kDramLevel); dram && std::isfinite(dram->gbps))
        d.bandwidthGbps = dram->gbps;

    double dimension = 0.0;
    for (const KernelResult& k : session.kernels) {
        if (k.kind != QLatin1String("decode") || k.batch <= 0 || !finitePositive(k.tokensPerSecond))
            continue;
        d.measured.emplace_back(k.batch, k.tokensPerSecond);
        // The kernel counts 2 d^2 FLOPs per vector: the matrix size follows from its own FLOP count.
        if (dimension <= 0.0 && finitePositive(k.flops))
            dimension = std::sqrt(k.flops / (2.0 * k.batch));
    }
    std::sort(d.measured.begin(), d.measured.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    WeightPrecisionCurves byPrecision = weightPrecisionCurves(session);
    d.byWeightPrecision = std::move(byPrecision.curves);
    d.precisionMatrixDim = byPrecision.matrixDim;
    if (d.measured.empty() && !d.byWeightPrecision.empty()) {
        d.valid = true;  // the chart draws the curves by weight precision
        return d;
    }
    if (d.measured.empty()) {
        d.reason = QObject::tr("The session has no decode measurements (run a full measurement).");
        return d;
    }
    if (d.peakGflops <= 0.0 || d.bandwidthGbps <= 0.0) {
        d.reason = QObject::tr("The session lacks an fp32 compute or a DRAM bandwidth ceiling.");
        return d;
    }
    d.matrixDim = dimension > 0.0 ? static_cast<int>(std::lround(dimension)) : 4096;

    const Roof roof{d.peakGflops, d.bandwidthGbps};
    const double ridge = ridgeIntensity(roof);
    // Intensity of W (d x d) times B vectors, fp32: d B / (2 (d + 2 B)); it crosses the ridge at
    // B = 2 ridge d / (d - 4 ridge), and never when d <= 4 ridge.
    const double dim = d.matrixDim;
    if (dim > 4.0 * ridge)
        d.kneeBatch = 2.0 * ridge * dim / (dim - 4.0 * ridge);

    const auto largest = static_cast<std::int64_t>(d.measured.back().x());
    const std::int64_t shown = std::max<std::int64_t>(2 * largest, 4);
    const std::int64_t knee = d.kneeBatch ? static_cast<std::int64_t>(std::ceil(*d.kneeBatch)) : 0;
    for (const std::int64_t b : sampleBatches(shown, {knee - 1, knee})) {
        const OpCount count = matrixTimesBatchCount(d.matrixDim, d.matrixDim, b, 4);
        const double seconds = std::max(count.flops / (d.peakGflops * 1e9), count.bytes / (d.bandwidthGbps * 1e9));
        if (finitePositive(seconds))
            d.predicted.emplace_back(static_cast<double>(b), static_cast<double>(b) / seconds);
    }
    d.valid = !d.predicted.empty();
    if (!d.valid)
        d.reason = QObject::tr("The session's ceilings give no finite prediction.");
    return d;
}

}  // namespace ridgeline::ui
