// The engine held-out set (tests/data/llm/engine_heldout.csv; sources and the rules fixed before it was gathered in
// tests/data/README.md): published decode rates of llama.cpp, ExLlamaV2 and MLC LLM, each judged once with its own
// engine's profile, nothing fitted on them. Per engine family and per GPU family, median and worst |error|; the
// figures asserted are the first run's, so that a change of the model that moves them is seen. The rows a catalog or
// the model's formats cannot express are listed in the same file and stay unexpressible here.
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_profile.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

using namespace ridgeline;

namespace {

struct Judged {
    test::ValidationRow row;
    PointResidual residual;
    QString gpuFamily;
};

// The families the issue reports by: data-centre cards with HBM, GeForce and workstation cards with GDDR, Apple's
// unified memory; by vendor, since one engine's kernels differ between CUDA, ROCm and Metal.
QString gpuFamily(const GpuSpec& gpu)
{
    return gpu.vendor + QLatin1Char(' ') + memoryFamilyName(memoryFamily(gpu));
}

std::vector<Judged> judgeHeldOutRows()
{
    std::vector<Judged> judged;
    for (const test::ValidationRow& row : test::loadValidationRows(QStringLiteral("engine_heldout.csv"))) {
        if (row.split != QLatin1String("heldout-engines"))
            continue;
        const Result<EngineSelection> engine = selectEngine(row.engine);
        const Result<InferenceConfig> config = resolveInference(row.request);
        EXPECT_TRUE(engine.ok() && config.ok()) << row.id.toStdString();
        const std::optional<MeasuredQuantity> quantity = parseQuantityName(row.quantity);
        if (!engine.ok() || !config.ok() || !quantity)
            continue;
        MeasuredPoint point{row.id, config.value(), *quantity, row.measured, 1.0};
        point.config.efficiency = engine.value().profile->termsFor(config.value().gpu);
        const Result<std::vector<PointResidual>> r = evaluatePoints({point}, point.config.efficiency);
        EXPECT_TRUE(r.ok()) << row.id.toStdString() << ": " << (r.ok() ? "" : r.error().message.toStdString());
        if (r.ok())
            judged.push_back(Judged{row, r.value().front(), gpuFamily(config.value().gpu)});
    }
    return judged;
}

template <typename Key>
std::map<QString, ErrorSummary> summaryBy(const std::vector<Judged>& judged, Key key)
{
    std::map<QString, std::vector<PointResidual>> groups;
    for (const Judged& j : judged)
        groups[key(j)].push_back(j.residual);
    std::map<QString, ErrorSummary> summaries;
    for (const auto& [name, residuals] : groups)
        summaries[name] = summarize(residuals);
    return summaries;
}

void printSummaries(const char* title, const std::map<QString, ErrorSummary>& summaries)
{
    std::printf("%s\n", title);
    for (const auto& [name, s] : summaries)
        std::printf("  %-22s %3d rows: median |error| %5.1f %%, worst %6.1f %% (%s)%s\n", name.toLatin1().constData(),
                    s.points, 100.0 * s.medianAbs, 100.0 * s.worstAbs, s.worstId.toLatin1().constData(),
                    s.points < 10                               ? ""
                    : s.medianAbs <= 0.12 && s.worstAbs <= 0.40 ? "  meets the target"
                                                                : "  misses the target");
}

struct Expected {
    const char* name;
    int rows;
    double medianAbs, worstAbs;
};

// The first run's figures, to half a percentage point.
void expectFigures(const std::map<QString, ErrorSummary>& summaries, std::initializer_list<Expected> expected)
{
    EXPECT_EQ(summaries.size(), expected.size());
    for (const Expected& e : expected) {
        const auto it = summaries.find(QString::fromLatin1(e.name));
        ASSERT_NE(it, summaries.end()) << e.name;
        EXPECT_EQ(it->second.points, e.rows) << e.name;
        EXPECT_NEAR(it->second.medianAbs, e.medianAbs, 0.005) << e.name;
        EXPECT_NEAR(it->second.worstAbs, e.worstAbs, 0.005) << e.name;
    }
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
    const auto byEngine = summaryBy(judged, [](const Judged& j) -> QString { return j.row.engine; });
    const auto byGpu = summaryBy(judged, [](const Judged& j) -> QString { return j.gpuFamily; });
    const auto byEngineAndGpu =
        summaryBy(judged, [](const Judged& j) -> QString { return j.row.engine + QLatin1String(", ") + j.gpuFamily; });
    const auto bySource = summaryBy(judged, [](const Judged& j) -> QString { return j.row.source; });
    const auto whole = summaryBy(judged, [](const Judged&) -> QString { return QStringLiteral("all"); });
    printSummaries("per engine family", byEngine);
    printSummaries("per GPU family", byGpu);
    printSummaries("per engine and GPU family", byEngineAndGpu);
    printSummaries("per source", bySource);
    printSummaries("the whole set", whole);

    // The target (median 12 %, worst 40 % for an engine family of at least 10 rows) holds for llama.cpp as a
    // family, and is missed on data-centre HBM cards (A100 decodes F16 about 25 % slower than predicted) and by MLC
    // LLM's set (too few rows to judge; every NVIDIA row faster than predicted).
    expectFigures(byEngine,
                  {{"exllamav2", 4, 0.107, 0.166}, {"llama.cpp", 55, 0.079, 0.335}, {"mlc-llm", 5, 0.146, 0.206}});
    expectFigures(byGpu, {{"AMD GDDR", 1, 0.141, 0.141},
                          {"Apple unified", 12, 0.117, 0.335},
                          {"NVIDIA GDDR", 39, 0.076, 0.206},
                          {"NVIDIA HBM", 12, 0.229, 0.312}});
    expectFigures(whole, {{"all", 64, 0.099, 0.335}});
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
