// Every held-out set judged the way the target is stated: each row with its own engine's profile for its card
// (as `ridgeline model --engine` runs it), per set, per engine family and per GPU family, median and worst |error|.
// The target (median <= 12 %, worst <= 40 % for a family of at least 10 rows) is printed as met or missed, and the
// figures are asserted so that a change of the model that moves them is seen; nothing is fitted on these rows.
#include "tests/core/model/family_summaries.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace ridgeline;

namespace {

// The held-out sets: validation.csv's three (the fit part is not one) and the engine held-out set.
std::vector<test::JudgedRow> judgedHeldOutRows()
{
    std::vector<test::JudgedRow> judged;
    for (const QString& file : {QStringLiteral("validation.csv"), QStringLiteral("engine_heldout.csv")})
        for (const test::ValidationRow& row : test::loadValidationRows(file))
            if (row.split.startsWith(QLatin1String("heldout")))
                if (std::optional<test::JudgedRow> j = test::judgeWithOwnEngine(row))
                    judged.push_back(*j);
    return judged;
}

}  // namespace

TEST(ValidationFamilies, EveryHeldOutSetPerEngineFamilyAndGpuFamily)
{
    const std::vector<test::JudgedRow> judged = judgedHeldOutRows();
    ASSERT_EQ(judged.size(), 144u + 303u + 64u + 64u);
    const auto bySet = test::summaryBy(judged, [](const test::JudgedRow& j) -> QString { return j.row.split; });
    const auto byEngine = test::summaryBy(judged, [](const test::JudgedRow& j) -> QString { return j.engineFamily; });
    const auto byGpu = test::summaryBy(judged, [](const test::JudgedRow& j) -> QString { return j.gpuFamily; });
    const auto bySetAndEngine = test::summaryBy(
        judged, [](const test::JudgedRow& j) -> QString { return j.row.split + QLatin1String(", ") + j.engineFamily; });
    const auto bySetAndGpu = test::summaryBy(
        judged, [](const test::JudgedRow& j) -> QString { return j.row.split + QLatin1String(", ") + j.gpuFamily; });
    test::printSummaries("per held-out set", bySet);
    test::printSummaries("per engine family, all held-out sets", byEngine);
    test::printSummaries("per GPU family, all held-out sets", byGpu);
    test::printSummaries("per set and engine family", bySetAndEngine);
    test::printSummaries("per set and GPU family", bySetAndGpu);

    int missed = 0;
    for (const auto* summaries : {&bySet, &byEngine, &byGpu})
        for (const auto& [name, s] : *summaries)
            if (s.points >= test::kFamilyRowsJudged && !test::meetsTarget(s)) {
                std::printf("misses the target: %s (median %.1f %%, worst %.1f %%, %s)\n", name.toLatin1().constData(),
                            100.0 * s.medianAbs, 100.0 * s.worstAbs, s.worstId.toLatin1().constData());
                ++missed;
            }
    std::printf("%d of the families of at least %d rows miss the target\n", missed, test::kFamilyRowsJudged);

    // Missed: TensorRT-LLM's worst rows (Mixtral's first token on four L40S, +44.0 %; Falcon 180B's 128-token first
    // token on eight H200s, -48.2 %, and on eight H100s, -44.9 %), so TensorRT-LLM, both NVIDIA families and the first
    // two validation sets; and the Apple family's median, 12.0 %, at the target's edge.
    test::expectFigures(bySet, {{"heldout", 144, 0.056, 0.440},
                                {"heldout-engines", 64, 0.099, 0.338},
                                {"heldout2", 303, 0.053, 0.482},
                                {"heldout3", 64, 0.042, 0.184}});
    test::expectFigures(byEngine, {{"exllamav2", 4, 0.110, 0.170},
                                   {"llama.cpp", 55, 0.079, 0.338},
                                   {"lmdeploy", 22, 0.068, 0.361},
                                   {"mlc-llm", 5, 0.150, 0.208},
                                   {"tensorrt-llm", 229, 0.071, 0.482},
                                   {"vllm", 260, 0.042, 0.207}});
    test::expectFigures(byGpu, {{"AMD GDDR", 1, 0.150, 0.150},
                                {"AMD HBM", 256, 0.042, 0.207},
                                {"Apple unified", 12, 0.120, 0.338},
                                {"NVIDIA GDDR", 104, 0.089, 0.440},
                                {"NVIDIA HBM", 202, 0.062, 0.482}});
    EXPECT_EQ(missed, 6);
}

// The rows beyond the target's worst, by name, so that a change that pushes another row past 40 % (or brings one of
// these within it) is seen. Why each misses: tests/data/README.md, "Tensor parallelism over PCIe".
TEST(ValidationFamilies, TheRowsBeyondTheWorstTargetAreTheExplainedThree)
{
    std::vector<std::string> beyond;
    for (const test::JudgedRow& j : judgedHeldOutRows()) {
        // The rows near the target's worst too, to follow them (the TP 8 first tokens, tests/data/README.md).
        if (std::fabs(j.residual.relativeError()) > 0.25)
            std::printf("  beyond 25 %%: %-48s %+6.1f %%\n", j.row.id.toLatin1().constData(),
                        100.0 * j.residual.relativeError());
        if (std::fabs(j.residual.relativeError()) > test::kTargetWorst) {
            std::printf("  beyond %.0f %%: %-48s %+6.1f %%\n", 100.0 * test::kTargetWorst,
                        j.row.id.toLatin1().constData(), 100.0 * j.residual.relativeError());
            beyond.push_back(j.row.id.toStdString());
        }
    }
    std::sort(beyond.begin(), beyond.end());
    EXPECT_EQ(beyond, (std::vector<std::string>{"trt080-h100-sxm-falcon-180b-tp8-ttft-128",
                                                "trt080-h200-falcon-180b-tp8-ttft-128",
                                                "trt090-l40s-mixtral-8x7b-tp4-ttft-128"}));
}
