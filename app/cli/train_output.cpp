// `ridgeline train`'s output: the JSON object and the table.
#include "app/cli/train_output.h"

#include "core/model/units.h"

#include <QJsonArray>

namespace ridgeline::cli {

namespace {

void row(QTextStream& out, const QString& label, const QString& value)
{
    out << "  " << label.leftJustified(24) << (label.size() >= 24 ? " " : "") << value << '\n';
}

QString share(double part, double whole)
{
    return whole > 0 ? QStringLiteral("%1 %").arg(100.0 * part / whole, 0, 'f', 1) : QStringLiteral("–");
}

QJsonObject memoryJson(const TrainingMemory& m)
{
    QJsonObject o;
    o[QStringLiteral("weights")] = m.weights;
    o[QStringLiteral("gradients")] = m.gradients;
    o[QStringLiteral("optimizer")] = m.optimizer;
    o[QStringLiteral("activations")] = m.activations;
    o[QStringLiteral("temporary")] = m.temporary;
    o[QStringLiteral("total")] = m.total();
    // PyTorch's peak reserved figure: the total and the caching allocator's reserve (training_memory.h).
    o[QStringLiteral("allocator_reserve")] = m.allocatorReserve;
    o[QStringLiteral("reserved")] = m.reserved();
    // Outside the allocator (training_memory.h): on the card, not in PyTorch's figures.
    o[QStringLiteral("cuda_context")] = m.cudaContext;
    o[QStringLiteral("nccl_buffers")] = m.ncclBuffers;
    o[QStringLiteral("on_card")] = m.onCard();  // what fits compares with the card
    o[QStringLiteral("device")] = m.device();   // nvidia-smi's figure
    return o;
}

QJsonObject layoutJson(const TrainingConfig& c, const TrainingReport& r)
{
    QJsonObject o;
    o[QStringLiteral("gpus")] = c.gpus();
    o[QStringLiteral("gpus_per_node")] = c.gpusPerNode;
    o[QStringLiteral("nodes")] = c.nodes;
    o[QStringLiteral("tp")] = c.tensorParallel;
    o[QStringLiteral("pp")] = c.pipelineParallel;
    o[QStringLiteral("dp")] = r.dataParallel;
    o[QStringLiteral("zero")] = c.zeroStage;
    o[QStringLiteral("link")] = c.link.id;
    o[QStringLiteral("network")] = c.network.id;
    o[QStringLiteral("sequence")] = static_cast<double>(c.sequence);
    o[QStringLiteral("micro_batch")] = static_cast<double>(c.microBatch);
    o[QStringLiteral("global_batch")] = static_cast<double>(c.globalBatch);
    o[QStringLiteral("accumulation_steps")] = static_cast<double>(r.accumulationSteps);
    o[QStringLiteral("precision")] = precisionPolicyName(c.precision);
    o[QStringLiteral("optimizer")] = optimizerName(c.optimizer);
    o[QStringLiteral("checkpointing")] = checkpointingName(c.checkpointing);
    o[QStringLiteral("attention")] = attentionKernelName(c.attention);
    o[QStringLiteral("data_parallel_overlap")] = c.dataParallelOverlap;
    return o;
}

QString layoutText(const TrainingConfig& c, const TrainingReport& r)
{
    return QStringLiteral("%1 GPU%2 (%3 per node x %4 node%5): tp %6, pp %7, dp %8, ZeRO-%9")
        .arg(c.gpus())
        .arg(c.gpus() == 1 ? QString() : QStringLiteral("s"))
        .arg(c.gpusPerNode)
        .arg(c.nodes)
        .arg(c.nodes == 1 ? QString() : QStringLiteral("s"))
        .arg(c.tensorParallel)
        .arg(c.pipelineParallel)
        .arg(r.dataParallel)
        .arg(c.zeroStage);
}

void printMemory(QTextStream& out, const TrainingReport& r)
{
    const TrainingMemory& m = r.memory;
    out << "\nMemory per GPU\n";
    row(out, QStringLiteral("parameters"),
        QStringLiteral("%1 (%2 per GPU before ZeRO)")
            .arg(formatSi(static_cast<double>(r.params), QString()), formatSi(m.paramsPerGpu, QString())));
    row(out, QStringLiteral("weights"), formatGiB(m.weights));
    row(out, QStringLiteral("gradients"), formatGiB(m.gradients));
    row(out, QStringLiteral("optimizer state"), formatGiB(m.optimizer));
    row(out, QStringLiteral("activations"),
        QStringLiteral("%1 (%2 layers x %3 micro-batch%4 in flight)")
            .arg(formatGiB(m.activations))
            .arg(m.layersPerStage)
            .arg(m.microBatchesInFlight)
            .arg(m.microBatchesInFlight == 1 ? QString() : QStringLiteral("es")));
    row(out, QStringLiteral("temporary buffers"), formatGiB(m.temporary) + QStringLiteral(" (logits, gathers)"));
    row(out, QStringLiteral("CUDA context + NCCL"),
        QStringLiteral("%1 + %2 (outside PyTorch's allocator)")
            .arg(formatGiB(m.cudaContext), formatGiB(m.ncclBuffers)));
    row(out, QStringLiteral("total / capacity"),
        QStringLiteral("%1 of %2: %3")
            .arg(formatGiB(m.onCard()), formatGiB(m.capacity),
                 m.fits() ? QStringLiteral("fits") : QStringLiteral("DOES NOT FIT")));
}

void printStep(QTextStream& out, const TrainingReport& r)
{
    const TrainingStepTime& t = r.time;
    out << "\nStep" << (r.memory.fits() ? "" : " (as if it fitted)") << '\n';
    row(out, QStringLiteral("FLOPs"),
        QStringLiteral("%1 (model %2 + recompute %3)")
            .arg(formatSi(r.stepFlops(), QStringLiteral("FLOP")), formatSi(r.modelFlops, QStringLiteral("FLOP")),
                 formatSi(r.recomputeFlops, QStringLiteral("FLOP"))));
    row(out, QStringLiteral("matmul rate"),
        QStringLiteral("%1 TFLOP/s %2 x %3 share")
            .arg(r.peakTflops)
            .arg(numberFormatName(r.matmulPrecision))
            .arg(r.matmulShare, 0, 'f', 3));
    const double total = t.total();
    auto part = [&](const char* label, double seconds) {
        row(out, QString::fromLatin1(label),
            QStringLiteral("%1 (%2)").arg(formatSeconds(seconds), share(seconds, total)));
    };
    part("compute: matmuls", t.matmul);
    part("compute: memory-bound", t.memoryBound);
    part("recompute", t.recompute);
    part("communication", t.communication);
    part("pipeline bubble", t.bubble);
    row(out, QStringLiteral("step time"), formatSeconds(total));
    row(out, QStringLiteral("bubble fraction"), QStringLiteral("%1").arg(r.bubbleFraction, 0, 'f', 3));
    row(out, QStringLiteral("tokens/s"), formatGrouped(r.tokensPerSecond));
    row(out, QStringLiteral("MFU"), QStringLiteral("%1 %").arg(100.0 * r.mfu, 0, 'f', 1));
    if (!r.collectives.empty())
        out << "\nCommunication per step (before overlap)\n";
    for (const TrainingCollective& c : r.collectives)
        row(out, c.what,
            QStringLiteral("%1 x %2 over %3: %4")
                .arg(formatGrouped(c.count), formatBinaryBytes(c.bytes), c.link, formatSeconds(c.seconds)));
}

}  // namespace

QStringList fixOptions(const TrainingConfig& from, const TrainingFix& fix)
{
    const TrainingConfig& to = fix.config;
    QStringList options;
    auto add = [&](bool changed, const char* name, const QString& value) {
        if (changed)
            options << QStringLiteral("--%1 %2").arg(QLatin1String(name), value);
    };
    add(to.precision != from.precision, "precision", precisionPolicyName(to.precision));
    add(to.microBatch != from.microBatch, "micro-batch", QString::number(to.microBatch));
    add(to.globalBatch != from.globalBatch, "global-batch", QString::number(to.globalBatch));
    add(to.checkpointing != from.checkpointing, "checkpointing", checkpointingName(to.checkpointing));
    add(to.gpusPerNode != from.gpusPerNode, "gpus-per-node", QString::number(to.gpusPerNode));
    add(to.nodes != from.nodes, "nodes", QString::number(to.nodes));
    add(to.zeroStage != from.zeroStage, "zero", QString::number(to.zeroStage));
    add(to.tensorParallel != from.tensorParallel, "tp", QString::number(to.tensorParallel));
    add(to.pipelineParallel != from.pipelineParallel, "pp", QString::number(to.pipelineParallel));
    return options;
}

QJsonObject trainReportJson(const TrainingConfig& c, const TrainingReport& r, const std::optional<TrainingFix>& fix)
{
    QJsonObject o;
    o[QStringLiteral("model")] = c.model.id;
    o[QStringLiteral("gpu")] = c.gpu.id;
    o[QStringLiteral("params")] = static_cast<double>(r.params);
    o[QStringLiteral("layout")] = layoutJson(c, r);
    o[QStringLiteral("memory_per_gpu_bytes")] = memoryJson(r.memory);
    o[QStringLiteral("capacity_bytes")] = r.memory.capacity;
    o[QStringLiteral("fits")] = r.memory.fits();
    o[QStringLiteral("step_flops")] = r.stepFlops();
    o[QStringLiteral("model_flops")] = r.modelFlops;
    o[QStringLiteral("recompute_flops")] = r.recomputeFlops;
    o[QStringLiteral("step_time_s")] = r.time.total();
    QJsonObject split;
    split[QStringLiteral("matmul")] = r.time.matmul;
    split[QStringLiteral("memory_bound")] = r.time.memoryBound;
    split[QStringLiteral("compute")] = r.time.compute();
    split[QStringLiteral("recompute")] = r.time.recompute;
    split[QStringLiteral("communication")] = r.time.communication;
    split[QStringLiteral("bubble")] = r.time.bubble;
    o[QStringLiteral("step_time_split_s")] = split;
    o[QStringLiteral("communication_s")] = r.time.communication;
    o[QStringLiteral("data_parallel_s_before_overlap")] = r.dataParallelSeconds;
    o[QStringLiteral("bubble_fraction")] = r.bubbleFraction;
    o[QStringLiteral("tokens_per_s")] = r.tokensPerSecond;
    o[QStringLiteral("mfu")] = r.mfu;
    o[QStringLiteral("matmul_precision")] = numberFormatName(r.matmulPrecision);
    o[QStringLiteral("peak_tflops")] = r.peakTflops;
    QJsonArray collectives;
    for (const TrainingCollective& k : r.collectives)
        collectives.append(QJsonObject{{QStringLiteral("what"), k.what},
                                       {QStringLiteral("link"), k.link},
                                       {QStringLiteral("crosses_nodes"), k.crossesNodes},
                                       {QStringLiteral("count"), k.count},
                                       {QStringLiteral("bytes"), k.bytes},
                                       {QStringLiteral("seconds"), k.seconds}});
    o[QStringLiteral("collectives")] = collectives;
    o[QStringLiteral("cheapest_fix")] = fix ? QJsonValue(fix->text()) : QJsonValue();
    if (fix && fix->found)
        o[QStringLiteral("cheapest_fix_options")] = fixOptions(c, *fix).join(u' ');
    o[QStringLiteral("notes")] = QJsonArray::fromStringList(r.notes);
    return o;
}

void printTrainTable(QTextStream& out, const TrainingConfig& c, const TrainingReport& r,
                     const std::optional<TrainingFix>& fix)
{
    out << c.model.name << " on " << c.gpu.name << ", " << precisionPolicyName(c.precision) << ", "
        << optimizerName(c.optimizer) << ", checkpointing " << checkpointingName(c.checkpointing) << ", "
        << attentionKernelName(c.attention) << " attention\n";
    out << "  " << layoutText(c, r) << '\n';
    out << "  sequence " << formatGrouped(c.sequence) << ", micro-batch " << formatGrouped(c.microBatch)
        << ", global batch " << formatGrouped(c.globalBatch) << " (" << formatGrouped(r.accumulationSteps)
        << " accumulation step" << (r.accumulationSteps == 1 ? "" : "s") << ")\n";
    if (c.gpus() > 1)
        out << "  " << c.link.name << " inside a node, " << c.network.name << " between nodes\n";
    printMemory(out, r);
    printStep(out, r);
    out << "\nCheapest fix\n  ";
    if (!fix)
        out << "none needed: it fits\n";
    else if (!fix->found)
        out << fix->text() << '\n';
    else
        out << fix->text() << "\n  try: " << fixOptions(c, *fix).join(u' ') << '\n';
    if (!r.notes.isEmpty())
        out << "\nNotes\n";
    for (const QString& note : r.notes)
        out << "  " << note << '\n';
}

}  // namespace ridgeline::cli
