#include "core/model/training/training_fix.h"

#include "core/model/number_format.h"
#include "core/model/units.h"

#include <functional>
#include <vector>

namespace ridgeline {

namespace {

// A move changes the configuration and says how, or returns nothing when it does not apply.
using Move = std::function<std::optional<QString>(TrainingConfig&)>;

std::optional<TrainingMemory> fittingMemory(const TrainingConfig& config)
{
    if (checkTrainingConfig(config))
        return std::nullopt;
    const TrainingMemory memory = trainingMemory(config, countParams(config.model).value());
    return memory.fits() ? std::optional<TrainingMemory>(memory) : std::nullopt;
}

// More data-parallel ranks: the global batch rounded up to a multiple of micro-batch x ranks when it was not one.
QString keepBatchWhole(TrainingConfig& c)
{
    const std::int64_t perStep = c.microBatch * c.dataParallel();
    if (perStep <= 0 || c.globalBatch % perStep == 0)
        return {};
    c.globalBatch = (c.globalBatch / perStep + 1) * perStep;
    return QStringLiteral(" (global batch %1)").arg(c.globalBatch);
}

bool sameKind(const QString& a, const QString& b)
{
    const QString checkpointing = QStringLiteral("checkpointing"), zero = QStringLiteral("ZeRO-");
    return (a.endsWith(checkpointing) && b.endsWith(checkpointing)) || (a.startsWith(zero) && b.startsWith(zero));
}

int boxGpus(const TrainingConfig& c)
{
    return std::max(c.gpusPerNode, c.gpu.scaleUpGpus > 0 ? c.gpu.scaleUpGpus : kDefaultBoxGpus);
}

std::vector<Move> cheapMoves()
{
    return {
        [](TrainingConfig& c) -> std::optional<QString> {
            if (c.precision != PrecisionPolicy::Fp32)
                return std::nullopt;
            const bool bf16 = c.gpu.peakTflops(NumberFormat::Bf16) > 0;
            c.precision = bf16 ? PrecisionPolicy::Bf16Mixed : PrecisionPolicy::Fp16Mixed;
            return QStringLiteral("%1 mixed precision").arg(bf16 ? QStringLiteral("bf16") : QStringLiteral("fp16"));
        },
        [](TrainingConfig& c) -> std::optional<QString> {
            if (c.microBatch == 1)
                return std::nullopt;
            c.microBatch = 1;
            return QStringLiteral("micro-batch 1 x %1 accumulation steps").arg(c.accumulationSteps());
        },
        [](TrainingConfig& c) -> std::optional<QString> {
            // With flash attention there are no stored scores for selective recomputation to drop.
            if (c.checkpointing != Checkpointing::None || c.attention == AttentionKernel::Flash)
                return std::nullopt;
            c.checkpointing = Checkpointing::Selective;
            return QStringLiteral("selective activation checkpointing");
        },
        [](TrainingConfig& c) -> std::optional<QString> {
            if (c.checkpointing == Checkpointing::Full)
                return std::nullopt;
            c.checkpointing = Checkpointing::Full;
            return QStringLiteral("full activation checkpointing");
        },
    };
}

// Sharding within the box: fill it with data-parallel ranks, shard their states (ZeRO 1, 2, 3), then split the
// layers' matmuls over its GPUs (tensor parallel, the largest degree that divides the heads and the box).
std::vector<Move> boxMoves()
{
    std::vector<Move> moves = {[](TrainingConfig& c) -> std::optional<QString> {
        const int box = boxGpus(c);
        if (c.nodes > 1 || c.gpusPerNode >= box)
            return std::nullopt;
        c.gpusPerNode = box;
        return QStringLiteral("%1 GPUs in one box").arg(box) + keepBatchWhole(c);
    }};
    for (int stage = 1; stage <= 3; ++stage)
        moves.push_back([stage](TrainingConfig& c) -> std::optional<QString> {
            if (c.zeroStage >= stage || c.dataParallel() < 2)
                return std::nullopt;
            c.zeroStage = stage;
            return QStringLiteral("ZeRO-%1 over the %2 data-parallel ranks").arg(stage).arg(c.dataParallel());
        });
    moves.push_back([](TrainingConfig& c) -> std::optional<QString> {
        for (int tp = c.gpusPerNode; tp > c.tensorParallel; --tp)
            if (c.gpusPerNode % tp == 0 && c.model.heads % tp == 0 && c.gpus() % (tp * c.pipelineParallel) == 0) {
                c.tensorParallel = tp;
                return QStringLiteral("tp %1 inside the box").arg(tp) + keepBatchWhole(c);
            }
        return std::nullopt;
    });
    return moves;
}

// Across boxes: twice the boxes each time, as more ZeRO-3 ranks, or else as pipeline stages (each box a stage).
std::optional<TrainingFix> acrossBoxes(TrainingFix fix)
{
    const TrainingConfig start = fix.config;
    for (int nodes = start.nodes * 2; static_cast<std::int64_t>(nodes) * start.gpusPerNode <= kMaxTrainingGpus;
         nodes *= 2) {
        TrainingConfig wider = start;
        wider.nodes = nodes;
        if (wider.zeroStage < 3 && wider.gpus() / wider.modelParallel() > 1)
            wider.zeroStage = 3;
        const QString batch = keepBatchWhole(wider);
        if (const std::optional<TrainingMemory> memory = fittingMemory(wider)) {
            fix.moves << QStringLiteral("%1 GPUs in %2 boxes, ZeRO-3").arg(wider.gpus()).arg(nodes) + batch;
            fix.config = wider;
            fix.memory = *memory;
            fix.found = true;
            return fix;
        }
        TrainingConfig staged = start;
        staged.nodes = nodes;
        staged.pipelineParallel = std::min(start.pipelineParallel * nodes, start.model.layers);
        const QString stagedBatch = keepBatchWhole(staged);
        if (const std::optional<TrainingMemory> memory = fittingMemory(staged)) {
            fix.moves << QStringLiteral("%1 GPUs in %2 boxes, pp %3 across them")
                                 .arg(staged.gpus())
                                 .arg(nodes)
                                 .arg(staged.pipelineParallel) +
                             stagedBatch;
            fix.config = staged;
            fix.memory = *memory;
            fix.found = true;
            return fix;
        }
    }
    return fix;
}

}  // namespace

std::vector<TrainingMoveStep> cheapMovesInOrder(const TrainingConfig& config)
{
    std::vector<TrainingMoveStep> steps;
    if (checkTrainingConfig(config))
        return steps;
    TrainingConfig at = config;
    for (const Move& move : cheapMoves()) {
        TrainingConfig next = at;
        const std::optional<QString> what = move(next);
        if (!what || checkTrainingConfig(next))
            continue;
        if (!steps.empty() && sameKind(steps.back().move, *what))
            steps.pop_back();
        steps.push_back({*what, next});
        at = next;
    }
    return steps;
}

QString TrainingFix::text() const
{
    if (!found)
        return QStringLiteral("nothing fits up to %1 GPUs").arg(formatGrouped(static_cast<double>(kMaxTrainingGpus)));
    return QStringLiteral("%1: %2 of %3 per GPU")
        .arg(moves.join(QStringLiteral(", then ")), formatGiB(memory.onCard()), formatGiB(memory.capacity));
}

std::optional<TrainingFix> cheapestFix(const TrainingConfig& config)
{
    if (checkTrainingConfig(config) || fittingMemory(config))
        return std::nullopt;
    TrainingFix fix;
    fix.config = config;
    std::vector<Move> moves = cheapMoves();
    for (Move& move : boxMoves())
        moves.push_back(std::move(move));
    for (const Move& move : moves) {
        TrainingConfig next = fix.config;
        const std::optional<QString> what = move(next);
        if (!what || checkTrainingConfig(next))
            continue;
        // A stronger move of the same kind (full after selective checkpointing, ZeRO-3 after ZeRO-2) replaces it.
        if (!fix.moves.isEmpty() && sameKind(fix.moves.constLast(), *what))
            fix.moves.removeLast();
        fix.config = next;
        fix.moves << *what;
        if (const std::optional<TrainingMemory> memory = fittingMemory(next)) {
            fix.memory = *memory;
            fix.found = true;
            return fix;
        }
    }
    return acrossBoxes(fix);
}

}  // namespace ridgeline
