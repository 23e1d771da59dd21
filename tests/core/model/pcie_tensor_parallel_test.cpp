// Tensor parallelism without NVLink: the validation set's rows whose GPUs all-reduce over PCIe (tests/data/llm,
// sources in tests/data/README.md), each with its engine's profile and the all-reduce kernels it runs there. All are
// TensorRT-LLM 0.8 and 0.9 on L40S, which ran its custom one-shot and two-shot kernels over any peer-to-peer link (the
// NVLink test of its AUTO strategy came later, engine_profile.cpp); NCCL's ring, which later versions run there, is
// shown beside.
#include "core/model/catalog/links.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_catalog.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace ridgeline;

namespace {

// The validation set's rows over PCIe, each judged as `ridgeline model --engine` judges it; with `kernels`, that
// engine's all-reduce kernels replaced by them.
std::vector<PointResidual> judgedOverPcie(std::optional<AllReduceKernels> kernels)
{
    std::vector<PointResidual> residuals;
    for (test::ValidationRow row : test::loadValidationRows()) {
        if (row.request.gpus <= 1)
            continue;
        const Result<InferenceConfig> config = resolveInference(row.request);
        EXPECT_TRUE(config.ok()) << row.id.toStdString();
        if (!config.ok() || !config.value().link.pcie)
            continue;
        if (kernels)
            row.request.allReduce = *kernels;
        if (const std::optional<test::JudgedRow> judged = test::judgeWithOwnEngine(row))
            residuals.push_back(judged->residual);
    }
    return residuals;
}

}  // namespace

TEST(PcieTensorParallel, RowsOverPcieArePricedWithTheKernelsTheirEngineRuns)
{
    for (const test::ValidationRow& row : test::loadValidationRows()) {
        const Result<InferenceConfig> config = resolveInference(row.request);
        if (row.request.gpus <= 1 || !config.ok() || !config.value().link.pcie)
            continue;
        const Result<EngineSelection> engine = selectEngine(row.engine);
        ASSERT_TRUE(engine.ok()) << row.engine.toStdString();
        EXPECT_EQ(engine.value().allReduceKernels(config.value().link, row.request.gpus), AllReduceKernels::Custom)
            << row.id.toStdString();
    }
    const std::vector<PointResidual> residuals = judgedOverPcie(std::nullopt);
    ASSERT_GE(residuals.size(), 20u);
    for (const PointResidual& r : residuals)
        std::printf("  %-52s measured %9.4g predicted %9.4g error %+6.1f %%\n", r.id.toLatin1().constData(), r.measured,
                    r.predicted, 100.0 * r.relativeError());
    const ErrorSummary custom = summarize(residuals), nccl = summarize(judgedOverPcie(AllReduceKernels::Nccl));
    std::printf(
        "%zu rows over PCIe, custom kernels: median |error| %.1f %%, worst %.1f %%; with NCCL instead: median "
        "%.1f %%, worst %.1f %%\n",
        residuals.size(), 100.0 * custom.medianAbs, 100.0 * custom.worstAbs, 100.0 * nccl.medianAbs,
        100.0 * nccl.worstAbs);
    // Judged by the engine's documented dispatch, not by which error is smaller (NCCL alone: a smaller median, a
    // worst of 60.5 %). Eight L40S cross between two sockets (links.cpp), where the custom kernels lose to NCCL's
    // ring for large messages and the engine's fastest is the ring; Falcon all-reduces once a layer (models.json).
    EXPECT_NEAR(custom.medianAbs, 0.102, 0.005);
    EXPECT_NEAR(custom.worstAbs, 0.440, 0.005);
    EXPECT_NEAR(nccl.medianAbs, 0.067, 0.005);
    // The held-out target of the validation set (median 15 %, worst 50 % but for the explained miss), on these rows.
    EXPECT_LE(summarize(test::judgedAgainstTheTarget(residuals)).worstAbs, 0.50);
}

// The PCIe tensor-parallel held-out set (tests/data/llm/pcie_tp_heldout.csv): published small-batch decode rates of
// GPUs joined by PCIe alone, each row judged once with its own engine's profile and the all-reduce kernels that
// engine runs over the GPUs' link. Reported, not fitted; too few rows for the target to apply.
TEST(PcieTensorParallel, HeldOutSmallBatchDecodeOverPcieIsJudgedWithItsEnginesProfile)
{
    std::vector<PointResidual> residuals;
    for (const test::ValidationRow& row : test::loadValidationRows(QStringLiteral("pcie_tp_heldout.csv"))) {
        ASSERT_EQ(row.split, QStringLiteral("heldout-pcie-tp")) << row.id.toStdString();
        ASSERT_GT(row.request.gpus, 1) << row.id.toStdString();
        const std::optional<test::JudgedRow> judged = test::judgeWithOwnEngine(row);
        ASSERT_TRUE(judged.has_value()) << row.id.toStdString();
        const InferenceConfig config = resolveInference(row.request).value();
        EXPECT_TRUE(config.link.pcie) << row.id.toStdString();
        std::printf("  %-48s %-5s %-14s TP %d batch %lld: measured %8.4g predicted %8.4g error %+6.1f %%\n",
                    row.id.toLatin1().constData(), row.engine.toLatin1().constData(),
                    config.link.id.toLatin1().constData(), row.request.gpus, static_cast<long long>(row.request.batch),
                    judged->residual.measured, judged->residual.predicted, 100.0 * judged->residual.relativeError());
        residuals.push_back(judged->residual);
    }
    ASSERT_FALSE(residuals.empty());
    const ErrorSummary s = summarize(residuals);
    std::printf("%d rows: median |error| %.1f %%, worst %.1f %% (%s)\n", s.points, 100.0 * s.medianAbs,
                100.0 * s.worstAbs, s.worstId.toLatin1().constData());
    // The figures as first judged, to half a percentage point, so that a change that moves them is seen. The one row
    // is 50 % too fast for a reason outside the all-reduce: its 160 all-reduces per token through the host take
    // about 1 ms of the predicted 28 ms, the weight stream 22 ms. The vLLM it ran (acbed3e, 2023-10-06) launched every
    // kernel eagerly: CUDA graphs came with vllm-project/vllm#1926 (merged 2023-12-17), and the profile's per-layer
    // time is that of engines that replay graphs.
    EXPECT_EQ(s.points, 1);
    EXPECT_NEAR(s.medianAbs, 0.495, 0.005);
}
