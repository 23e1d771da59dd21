// The engine held-out set (tests/data/llm/engine_heldout.csv; sources and the rules fixed before it was gathered in
// tests/data/README.md): published decode rates of llama.cpp, ExLlamaV2 and MLC LLM, each judged once with its own
// engine's profile, nothing fitted on them. Per engine family and per GPU family, median and worst |error|; the
// figures asserted are the first run's, so that a change of the model that moves them is seen. The rows a catalog or
// the model's formats cannot express are listed in the same file and stay unexpressible here.
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_profile.h"
#include "tests/core/model/family_summaries.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>

using namespace ridgeline;

namespace {

using Judged = test::JudgedRow;

std::vector<Judged> judgeHeldOutRows()
{
    std::vector<Judged> judged;
    for (const test::ValidationRow& row : test::loadValidationRows(QStringLiteral("engine_heldout.csv")))
        if (row.split == QLatin1String("heldout-engines"))
            if (std::optional<Judged> j = test::judgeWithOwnEngine(row))
                judged.push_back(*j);
    return judged;
}

}  // namespace

TEST(EngineHeldOut, EachEngineFamilyAndGpuFamilyIsJudgedWithItsOwnProfile)
{
    const std::vector<Judged> judged = judgeHeldOutRows();
    ASSERT_EQ(judged.size(), 64u);
    std::printf("engine held-out set, each row with its engine's profile\n");
    for (const Judged& j : judged)
        std::printf("  %-56s %-9s %-14s measured %8.2f predicted %8.2f error %+6.1f %%\n",
                    j.row.id.toLatin1().constData(), j.row.engine.toLatin1().constData(),
                    j.gpuFamily.toLatin1().constData(), j.residual.measured, j.residual.predicted,
                    100.0 * j.residual.relativeError());
    const auto byEngine = test::summaryBy(judged, [](const Judged& j) -> QString { return j.row.engine; });
    const auto byGpu = test::summaryBy(judged, [](const Judged& j) -> QString { return j.gpuFamily; });
    const auto byEngineAndGpu = test::summaryBy(
        judged, [](const Judged& j) -> QString { return j.row.engine + QLatin1String(", ") + j.gpuFamily; });
    const auto bySource = test::summaryBy(judged, [](const Judged& j) -> QString { return j.row.source; });
    const auto whole = test::summaryBy(judged, [](const Judged&) -> QString { return QStringLiteral("all"); });
    test::printSummaries("per engine family", byEngine);
    test::printSummaries("per GPU family", byGpu);
    test::printSummaries("per engine and GPU family", byEngineAndGpu);
    test::printSummaries("per source", bySource);
    test::printSummaries("the whole set", whole);

    // The target (median 12 %, worst 40 % for an engine family of at least 10 rows) holds for llama.cpp as a
    // family, and is missed on data-centre HBM cards (A100 decodes F16 about 25 % slower than predicted) and by MLC
    // LLM's set (too few rows to judge; every NVIDIA row faster than predicted).
    test::expectFigures(
        byEngine, {{"exllamav2", 4, 0.107, 0.166}, {"llama.cpp", 55, 0.079, 0.335}, {"mlc-llm", 5, 0.150, 0.206}});
    test::expectFigures(byGpu, {{"AMD GDDR", 1, 0.150, 0.150},
                                {"Apple unified", 12, 0.117, 0.335},
                                {"NVIDIA GDDR", 39, 0.076, 0.206},
                                {"NVIDIA HBM", 12, 0.229, 0.312}});
    test::expectFigures(whole, {{"all", 64, 0.099, 0.335}});
}

TEST(EngineHeldOut, RowsTheCatalogOrTheFormatsCannotExpressAreListedAndRefused)
{
    std::map<QString, int> byReason;
    int listed = 0;
    for (const test::ValidationRow& row : test::loadValidationRows(QStringLiteral("engine_heldout.csv"))) {
        EXPECT_FALSE(row.publishedGpu.isEmpty()) << row.id.toStdString();
        if (row.split != QLatin1String("not-expressible")) {
            EXPECT_EQ(row.split, QStringLiteral("heldout-engines")) << row.id.toStdString();
            EXPECT_TRUE(row.notExpressible.isEmpty()) << row.id.toStdString();
            continue;
        }
        ++listed;
        ++byReason[row.notExpressible];
        // A missing GPU or model keeps the row from running, and its format is none the model has; once the catalog
        // or the model gains it, the row belongs to the judged ones. A layer split is no tensor parallelism.
        const QStringList reasons = row.notExpressible.split(QLatin1Char('+'));
        if (reasons.contains(QStringLiteral("gpu")) || reasons.contains(QStringLiteral("model"))) {
            EXPECT_FALSE(resolveInference(row.request).ok()) << row.id.toStdString();
        }
        if (reasons.contains(QStringLiteral("format"))) {
            const qsizetype weights = row.cliArguments.indexOf(QStringLiteral("--weights")) + 1;
            EXPECT_FALSE(parseNumberFormat(row.cliArguments.at(weights)).has_value()) << row.id.toStdString();
        }
        for (const QString& reason : reasons)
            EXPECT_TRUE(QStringList({QStringLiteral("gpu"), QStringLiteral("format"), QStringLiteral("model"),
                                     QStringLiteral("layer-split")})
                            .contains(reason))
                << row.id.toStdString();
    }
    for (const auto& [reason, count] : byReason)
        std::printf("not expressible (%s): %d rows\n", reason.toLatin1().constData(), count);
    EXPECT_EQ(listed, 377);
}
