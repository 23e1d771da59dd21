// The training step model against published training measurements (tests/data/training/validation.csv, sources and
// the split rule in tests/data/README.md, "Training validation set"): every row is run through evaluateTraining, its
// error printed, and the median and worst |error| of the fit and held-out parts reported and checked.
#include "core/model/training/training_step.h"
#include "tests/core/model/training_test_support.h"

#include "tests/support/data_rows.h"

#include <QFile>
#include <QStringList>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace ridgeline;

namespace {

using test::DataRow;
using test::readDataRows;

struct TrainingRow {
    QString id, source, split, quantity;
    TrainingConfig config;
    double measured = 0;
};

// A model given by its shape columns (no catalog model has the shapes of MPT or Megatron's GPT runs).
template <typename At>
ModelSpec shapeOf(const At& at)
{
    ModelSpec m;
    m.id = at("id");
    m.name = m.id;
    m.layers = at("layers").toInt();
    m.hidden = at("hidden").toInt();
    m.heads = at("heads").toInt();
    m.kvHeads = m.heads;
    m.headDim = m.hidden / std::max(1, m.heads);
    m.ffn = at("ffn").toInt();
    m.vocab = at("vocab").toInt();
    m.gatedFfn = at("mlp") == QLatin1String("swiglu");
    m.tiedEmbeddings = at("tied") == QLatin1String("yes");
    m.linearBias = at("bias") == QLatin1String("yes");
    m.norm = NormKind::Layer;
    m.learnedPositions = at("learned_positions").toInt();
    return m;
}

std::vector<TrainingRow> loadRows()
{
    std::vector<TrainingRow> rows;
    for (const DataRow& at : readDataRows(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/training/validation.csv"))) {
        auto integer = [&](const char* name) { return at(name).toLongLong(); };
        TrainingRow row;
        row.id = at("id");
        row.source = at("source");
        row.split = at("split");
        row.quantity = at("quantity");
        row.measured = at("measured").toDouble();
        const ModelSpec m = at("model").isEmpty() ? shapeOf(at) : test::model(at("model").toLatin1().constData());
        TrainingConfig c = test::trainingConfig(m, at("gpu").toLatin1().constData());
        c.gpusPerNode = static_cast<int>(integer("gpus_per_node"));
        c.nodes = static_cast<int>(integer("nodes"));
        c.tensorParallel = static_cast<int>(integer("tp"));
        c.pipelineParallel = static_cast<int>(integer("pp"));
        c.zeroStage = static_cast<int>(integer("zero"));
        c.precision = parsePrecisionPolicy(at("precision")).value_or(PrecisionPolicy::Fp32);
        c.optimizer = parseOptimizer(at("optimizer")).value_or(Optimizer::Sgd);
        const std::optional<Checkpointing> checkpointing = parseCheckpointing(at("checkpointing"));
        EXPECT_TRUE(checkpointing.has_value()) << row.id.toStdString();
        c.checkpointing = checkpointing.value_or(Checkpointing::None);
        const std::optional<AttentionKernel> attention = parseAttentionKernel(at("attention"));
        EXPECT_TRUE(attention.has_value()) << row.id.toStdString();
        c.attention = attention.value_or(AttentionKernel::Materialised);
        c.sequence = integer("sequence");
        c.microBatch = integer("micro_batch");
        c.globalBatch = integer("global_batch");
        row.config = c;
        rows.push_back(row);
    }
    return rows;
}

// The model's figure for the row's measured quantity.
double predicted(const TrainingRow& row)
{
    const Result<TrainingReport> r = evaluateTraining(row.config);
    EXPECT_TRUE(r.ok()) << row.id.toStdString() << ": " << (r.ok() ? "" : r.error().message.toStdString());
    if (!r.ok())
        return 0;
    if (row.quantity == QLatin1String("tokens_per_s_per_gpu"))
        return r.value().tokensPerSecond / row.config.gpus();
    if (row.quantity == QLatin1String("step_time_s"))
        return r.value().time.total();
    if (row.quantity == QLatin1String("mfu"))
        return r.value().mfu;
    // Which of PyTorch's two figures a row reports (tests/data/README.md): the live tensors, or those and the
    // allocator's cache.
    if (row.quantity == QLatin1String("memory_per_gpu_bytes"))
        return r.value().memory.total();
    if (row.quantity == QLatin1String("reserved_memory_per_gpu_bytes"))
        return r.value().memory.reserved();
    // nvidia-smi's (NVML's) figure: also the CUDA context and NCCL's buffers, which PyTorch's two do not see.
    if (row.quantity == QLatin1String("device_memory_per_gpu_bytes"))
        return r.value().memory.device();
    ADD_FAILURE() << row.id.toStdString() << ": unknown quantity " << row.quantity.toStdString();
    return 0;
}

struct Summary {
    int points = 0;
    double medianAbs = 0, worstAbs = 0, signedMedian = 0;
    QString worstId;
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool isMemory(const TrainingRow& row)
{
    return row.quantity.endsWith(QLatin1String("memory_per_gpu_bytes"));
}

// The figures of `split`'s time rows (throughput, step time, MFU; its memory rows when `memory`), of `source` alone
// when given, printed; every row with its error when the source is not.
Summary check(const std::vector<TrainingRow>& rows, const QString& split, const QString& source = QString(),
              bool memory = false)
{
    Summary s;
    std::vector<double> abs, signedErrors;
    for (const TrainingRow& row : rows) {
        if (row.split != split || (!source.isEmpty() && row.source != source) || isMemory(row) != memory)
            continue;
        const double p = predicted(row);
        const double error = p / row.measured - 1.0;
        if (source.isEmpty())
            std::printf("  %-44s %-22s measured %10.4g predicted %10.4g error %+7.1f %%\n",
                        row.id.toLatin1().constData(), row.quantity.toLatin1().constData(), row.measured, p,
                        100.0 * error);
        abs.push_back(std::abs(error));
        signedErrors.push_back(error);
        if (std::abs(error) > s.worstAbs) {
            s.worstAbs = std::abs(error);
            s.worstId = row.id;
        }
    }
    s.points = static_cast<int>(abs.size());
    s.medianAbs = median(abs);
    s.signedMedian = median(signedErrors);
    std::printf("%-10s %-6s %-22s %3d rows: median |error| %5.1f %% (signed median %+5.1f %%), worst %5.1f %% (%s)\n",
                split.toLatin1().constData(), memory ? "memory" : "time",
                source.isEmpty() ? "all sources" : source.toLatin1().constData(), s.points, 100.0 * s.medianAbs,
                100.0 * s.signedMedian, 100.0 * s.worstAbs, s.worstId.toLatin1().constData());
    return s;
}

const QStringList kSources = {QStringLiteral("llmfoundry-h100-bf16"), QStringLiteral("megatron-2021-table1"),
                              QStringLiteral("llmfoundry-a100-80gb"), QStringLiteral("megatron-2022-table5"),
                              QStringLiteral("torchtitan-a100"),      QStringLiteral("torchtitan-h100-2412")};

}  // namespace

TEST(TrainingValidation, EveryRowIsATrainingStepTheModelComputes)
{
    const std::vector<TrainingRow> rows = loadRows();
    ASSERT_GE(rows.size(), 60u);
    for (const TrainingRow& row : rows) {
        EXPECT_TRUE(row.split == QLatin1String("fit") || row.split == QLatin1String("held-out"))
            << row.id.toStdString();
        EXPECT_TRUE(kSources.contains(row.source)) << row.id.toStdString();
        EXPECT_GT(row.measured, 0) << row.id.toStdString();
        EXPECT_GT(predicted(row), 0) << row.id.toStdString();
    }
}

// The part the model's terms may be chosen on. Three were set on it: the fp16 GEMM share (bf16's, where both peaks
// are equal), and jointly the elementwise passes (10 per stored activation byte) and the fused attention kernel's
// FLOPs per L1 byte (5.5), by the fit part's mean |error| over a grid. The GEMM share is otherwise the inference
// model's as fitted then (kept with these terms: training_step.cpp) and the overlap an assumption. The figures are a
// regression guard: median 3.4 %, worst 33.7 % (llm-foundry's 13B at 2,048 tokens without checkpointing, +31 to +34 %
// at every GPU count).
TEST(TrainingValidation, FitPart)
{
    const std::vector<TrainingRow> rows = loadRows();
    for (const QString& source : kSources)
        check(rows, QStringLiteral("fit"), source);
    const Summary s = check(rows, QStringLiteral("fit"));
    EXPECT_GE(s.points, 60);
    EXPECT_LE(s.medianAbs, 0.04);
    EXPECT_LE(s.worstAbs, 0.34) << s.worstId.toStdString();
}

// The target is a held-out median |error| within 15 % and every row within 40 % for throughput and step time, memory
// within 10 %. Time rows meet it: median 8.4 %, worst 23.4 % (llm-foundry A100, 13B at 1,024 tokens, micro-batch 40:
// too slow); llm-foundry A100 median 8.9 % (signed -8.9 %: the short sequences too slow); Korthikanti et al. 2022
// median 7.2 %, all too slow; torchtitan A100 4.3 %. The A100's fused attention is timed by its own L1 bandwidth at the
// H100's fitted FLOPs per byte, and the long-sequence rows that were -30 to -45 % are within -12 to +8 %. Memory meets
// it: torchtitan's Llama 3.1 8B with its op-level checkpointing reports PyTorch's peak reserved memory, which is the
// live tensors (-10.7 % on 8 GPUs, -11.1 % on 128 without the cache) and the caching allocator's reserve, taken from
// the FSDP2 run that published both figures (training_memory.h): +1.2 % and +3.6 %.
// The assertions guard these figures.
TEST(TrainingValidation, HeldOutPart)
{
    const std::vector<TrainingRow> rows = loadRows();
    for (const QString& source : kSources)
        check(rows, QStringLiteral("held-out"), source);
    const Summary megatron = check(rows, QStringLiteral("held-out"), QStringLiteral("megatron-2022-table5"));
    EXPECT_LE(megatron.medianAbs, 0.08);
    EXPECT_LE(megatron.worstAbs, 0.10) << megatron.worstId.toStdString();
    const Summary s = check(rows, QStringLiteral("held-out"));
    EXPECT_GE(s.points, 60);
    const Summary memory = check(rows, QStringLiteral("held-out"), QString(), true);
    EXPECT_EQ(memory.points, 2);
    EXPECT_LE(memory.worstAbs, 0.05) << memory.worstId.toStdString();
    EXPECT_LE(s.medianAbs, 0.09);
    EXPECT_LE(s.worstAbs, 0.24) << s.worstId.toStdString();
}
