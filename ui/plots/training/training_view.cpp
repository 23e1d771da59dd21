#include "ui/plots/training/training_view.h"

#include "core/model/catalog/user_catalog.h"
#include "core/model/units.h"
#include "ui/plots/roofline/roofline_devices.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

// "12 %" of a whole; a dash when there is no whole to share.
QString share(double part, double whole)
{
    return whole > 0 ? QStringLiteral("%1 %").arg(formatSignificant(100.0 * part / whole, 2))
                     : QStringLiteral("\u2013");
}

// A count of collectives: whole ones grouped ("10,240"), ZeRO-2's halves with their decimals ("4.5").
QString count(double value)
{
    return value == std::floor(value) ? formatGrouped(value) : formatSignificant(value, 3);
}

QString plural(double count, const QString& one, const QString& many)
{
    return count == 1.0 ? one : many;
}

QString linkText(const LinkSpec& link)
{
    return QStringLiteral("%1: %2 GB/s each way").arg(link.name, formatSignificant(link.gbPerSecPerDirection, 3));
}

}  // namespace

StackBarData trainingMemoryBar(const TrainingConfig& c, const TrainingMemory& m)
{
    StackBarData bar;
    const QString card = shortGpuName(c.gpu.name);
    bar.title = c.gpus() > 1 ? QStringLiteral("Memory per GPU (each of %1 \u00d7 %2)").arg(c.gpus()).arg(card)
                             : QStringLiteral("Memory per GPU (%1)").arg(card);
    bar.shortTitle = QStringLiteral("Memory per GPU");
    bar.capacity = m.capacity;
    bar.capacityLabel = QStringLiteral("%1 card").arg(formatGiB(m.capacity));
    const double total = m.onCard();
    bar.status =
        m.fits()
            ? QStringLiteral("Fits: %1 of %2 (%3)")
                  .arg(formatGiB(total), formatGiB(m.capacity), share(total, m.capacity))
            : QStringLiteral("DOES NOT FIT: needs %1, the card has %2").arg(formatGiB(total), formatGiB(m.capacity));
    const struct {
        TrainingPart part;
        const char* name;
        double bytes;
    } parts[] = {
        {TrainingPart::Weights, "weights", m.weights},       {TrainingPart::Gradients, "gradients", m.gradients},
        {TrainingPart::Optimizer, "optimizer", m.optimizer}, {TrainingPart::Activations, "activations", m.activations},
        {TrainingPart::Temporary, "temporary", m.temporary}, {TrainingPart::Runtime, "CUDA + NCCL", m.runtime()}};
    for (const auto& p : parts) {
        const QString name = QLatin1String(p.name);
        bar.parts.push_back({p.part, name, p.bytes, QStringLiteral("%1 %2").arg(name, formatMemory(p.bytes))});
    }
    return bar;
}

StackBarData trainingTimeBar(const TrainingReport& r)
{
    StackBarData bar;
    const TrainingStepTime& t = r.time;
    bar.title = QStringLiteral("One optimizer step, per GPU");
    bar.shortTitle = QStringLiteral("One step");
    bar.status = QStringLiteral("%1 per step").arg(formatSeconds(t.total()));
    const struct {
        TrainingPart part;
        const char* name;
        double seconds;
    } parts[] = {{TrainingPart::Compute, "compute", t.compute()},
                 {TrainingPart::Recompute, "recompute", t.recompute},
                 {TrainingPart::Communication, "communication", t.communication},
                 {TrainingPart::Bubble, "bubble", t.bubble}};
    // The collectives listed under the bar can take time the bar does not show: what overlaps compute. Say so,
    // so that "communication: none" never sits beside a collective of 50 ms.
    double collectives = 0;
    for (const TrainingCollective& k : r.collectives)
        collectives += k.seconds;
    const double hidden = std::max(0.0, collectives - t.communication);
    for (const auto& p : parts) {
        const QString name = QLatin1String(p.name);
        QString legend =
            p.seconds > 0
                ? QStringLiteral("%1 %2 (%3)").arg(name, formatSeconds(p.seconds), share(p.seconds, t.total()))
                : QStringLiteral("%1: none").arg(name);
        if (p.part == TrainingPart::Communication && hidden > 0)
            legend = p.seconds > 0
                         ? QStringLiteral("%1, %2 more hidden under compute").arg(legend, formatSeconds(hidden))
                         : QStringLiteral("%1: %2, all hidden under compute").arg(name, formatSeconds(hidden));
        bar.parts.push_back({p.part, name, p.seconds, legend});
    }
    return bar;
}

HierarchyData trainingHierarchy(const TrainingConfig& c, const TrainingReport& r)
{
    HierarchyData h;
    h.gpusPerNode = c.gpusPerNode;
    h.nodes = c.nodes;
    h.tensorParallel = c.tensorParallel;
    h.pipelineParallel = c.pipelineParallel;
    h.dataParallel = r.dataParallel;
    h.insideLink = linkText(c.link);
    h.acrossLink = linkText(c.network);
    h.stepSeconds = r.time.total();
    for (const TrainingCollective& k : r.collectives) {
        const QString numbers = QStringLiteral("%1 \u00d7 %2: %3 (%4 of the step)")
                                    .arg(count(k.count), formatBinaryBytes(k.bytes), formatSeconds(k.seconds),
                                         share(k.seconds, h.stepSeconds));
        h.rows.push_back({k.what, k.link, k.crossesNodes, k.seconds, numbers});
    }
    if (h.rows.empty())
        h.emptyText = c.gpus() == 1
                          ? QStringLiteral("One GPU: no collectives. Add GPUs to see which link each crosses.")
                          : QStringLiteral("No collectives in this layout.");
    return h;
}

namespace {

// A number and its unit stay on one line when the header wraps.
QString together(QString text)
{
    return text.replace(u' ', QChar(0x00a0));
}

QString headline(const TrainingConfig& c, const TrainingReport& r)
{
    return QStringLiteral("%1: %2, %3, %4 per step")
        .arg(trainingSubject(c), together(formatGrouped(r.tokensPerSecond) + QStringLiteral(" tokens/s")),
             together(QStringLiteral("MFU %1 %").arg(formatSignificant(100.0 * r.mfu, 2))),
             together(formatSeconds(r.time.total())));
}

QStringList detail(const TrainingConfig& c, const TrainingReport& r)
{
    const QString layout = QStringLiteral("%1 %2 (%3 per node \u00d7 %4 %5): tp %6, pp %7, dp %8, ZeRO-%9.")
                               .arg(c.gpus())
                               .arg(plural(c.gpus(), QStringLiteral("GPU"), QStringLiteral("GPUs")))
                               .arg(c.gpusPerNode)
                               .arg(c.nodes)
                               .arg(plural(c.nodes, QStringLiteral("node"), QStringLiteral("nodes")))
                               .arg(c.tensorParallel)
                               .arg(c.pipelineParallel)
                               .arg(r.dataParallel)
                               .arg(c.zeroStage);
    const QString matmuls =
        QStringLiteral("Matmuls in %1 at %2 % of the card's %3 TFLOP/s (the GEMM share measured for inference).")
            .arg(numberFormatName(r.matmulPrecision), formatSignificant(100.0 * r.matmulShare, 2),
                 formatSignificant(r.peakTflops, 3));
    const QString batch =
        QStringLiteral(
            "Global batch %1 = micro-batch %2 \u00d7 %3 %4 \u00d7 dp %5: "
            "%6 tokens per step.")
            .arg(formatGrouped(c.globalBatch), formatGrouped(c.microBatch), formatGrouped(r.accumulationSteps),
                 plural(double(r.accumulationSteps), QStringLiteral("accumulation step"),
                        QStringLiteral("accumulation steps")),
                 QString::number(r.dataParallel), formatGrouped(r.tokensPerStep));
    return {layout, batch, matmuls};
}

}  // namespace

double StackBarData::total() const
{
    double sum = 0;
    for (const StackPart& p : parts)
        sum += p.value;
    return sum;
}

Result<TrainingConfig> resolveTrainingRequest(const TrainingRequest& request)
{
    TrainingConfig c;
    Result<ModelSpec> model = findModel(request.modelId);
    if (!model)
        return model.error();
    Result<GpuSpec> gpu = findGpu(request.gpuId);
    if (!gpu)
        return gpu.error();
    c.model = std::move(model).value();
    c.gpu = std::move(gpu).value();
    if (std::optional<Error> error = resolveTrainingLinks(c, QString(), QString()))
        return *error;
    c.sequence = request.sequence;
    c.microBatch = request.microBatch;
    c.globalBatch = request.globalBatch;
    c.precision = request.precision;
    c.optimizer = request.optimizer;
    c.checkpointing = request.checkpointing;
    c.attention = request.attention;
    c.gpusPerNode = request.gpusPerNode;
    c.nodes = request.nodes;
    c.tensorParallel = request.tensorParallel;
    c.pipelineParallel = request.pipelineParallel;
    c.zeroStage = request.zeroStage;
    return c;
}

QString trainingSubject(const TrainingConfig& c)
{
    const QString card = shortGpuName(c.gpu.name);
    const QString where = c.gpus() > 1 ? QStringLiteral("%1 \u00d7 %2").arg(c.gpus()).arg(card) : card;
    return QStringLiteral("%1 on %2").arg(c.model.name, where);
}

Result<TrainingView> computeTrainingView(const TrainingRequest& request)
{
    Result<TrainingConfig> config = resolveTrainingRequest(request);
    if (!config)
        return config.error();
    Result<TrainingReport> report = evaluateTraining(config.value());
    if (!report)
        return report.error();
    TrainingView v;
    v.config = std::move(config).value();
    v.report = std::move(report).value();
    const TrainingConfig& c = v.config;
    const TrainingReport& r = v.report;
    v.fits = r.memory.fits();
    v.headline = headline(c, r);
    v.detail = detail(c, r);
    v.memory = trainingMemoryBar(c, r.memory);
    v.time = trainingTimeBar(r);
    v.hierarchy = trainingHierarchy(c, r);
    if (!v.fits) {
        const std::optional<TrainingFix> fix = cheapestFix(c);
        v.fix = !fix         ? QStringLiteral("Does not fit, and no move was found.")
                : fix->found ? QStringLiteral("Cheapest fix: %1.").arg(fix->text())
                             : QStringLiteral("No fix: %1.").arg(fix->text());
    }
    v.notes = r.notes;
    return v;
}

}  // namespace ridgeline::ui
