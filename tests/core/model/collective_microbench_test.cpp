// The model's all-reduce against published collective microbenchmarks (tests/data/collectives, sources in
// tests/data/README.md): each point is one all-reduce of a size over a number of GPUs on one link, by NCCL or by an
// engine's custom one-shot or two-shot kernel, and the model's time for it is the collective's start-up (the engine
// time per collective) plus that algorithm's hops and bytes over the link (links.h). The shares of NVLink the
// algorithms reach were fitted on the `fit` points alone; the `check` points were not used.
#include "core/model/catalog/links.h"
#include "core/model/llm/engine_terms.h"
#include "tests/support/data_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ridgeline;

namespace {

struct Judged {
    std::string split, what;
    double bytes = 0, measuredUs = 0, modelUs = 0;
    double error() const { return modelUs / measuredUs - 1.0; }
};

std::vector<Judged> judgedPoints()
{
    const double startUpUs = 1e6 * EngineTerms::measured().collectiveSeconds;
    std::vector<Judged> judged;
    for (const test::DataRow& at :
         test::readDataRows(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/collectives/all_reduce_microbench.csv"))) {
        const Result<LinkSpec> link = findLink(at("link"));
        EXPECT_TRUE(link.ok()) << at("link").toStdString();
        if (!link.ok())
            continue;
        const QString kernel = at("kernel");
        AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring;
        if (kernel == QLatin1String("one-shot"))
            algorithm = AllReduceAlgorithm::OneShot;
        else if (kernel == QLatin1String("two-shot"))
            algorithm = AllReduceAlgorithm::TwoShot;
        else
            EXPECT_EQ(kernel, QStringLiteral("nccl"));
        Judged j;
        j.split = at("split").toStdString();
        j.bytes = at("bytes").toDouble();
        j.measuredUs = at("measured_us").toDouble();
        const int gpus = at("gpus").toInt();
        j.modelUs = startUpUs + 1e6 * allReduceAlgorithmSeconds(algorithm, link.value(), gpus, j.bytes);
        const QString what = at("source") + QLatin1Char(' ') + at("link") + QStringLiteral(" x%1 ").arg(gpus) + kernel;
        j.what = what.toStdString();
        judged.push_back(j);
    }
    return judged;
}

struct Summary {
    int points = 0;
    double medianAbs = 0, worstAbs = 0;
};

Summary summarize(const std::vector<Judged>& points)
{
    std::vector<double> errors;
    for (const Judged& j : points)
        errors.push_back(std::fabs(j.error()));
    Summary s;
    s.points = static_cast<int>(errors.size());
    if (errors.empty())
        return s;
    std::sort(errors.begin(), errors.end());
    const size_t n = errors.size();
    s.medianAbs = n % 2 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
    s.worstAbs = errors.back();
    return s;
}

std::string sizeBand(double bytes)
{
    if (bytes < 64e3)
        return "below 64 KB";
    if (bytes < 1e6)
        return "64 KB-1 MB";
    if (bytes <= 4.2e6)
        return "1-4 MB";
    return "above 4 MB";
}

}  // namespace

TEST(CollectiveMicrobench, TheModelsAllReduceReproducesThePublishedTimesBySize)
{
    const std::vector<Judged> judged = judgedPoints();
    ASSERT_EQ(judged.size(), 55u);
    std::map<std::string, std::vector<Judged>> bySplit, byBand;
    for (const Judged& j : judged) {
        std::printf("%-6s %-50s %11.0f B: measured %8.1f us, model %8.1f us, %+6.1f %%\n", j.split.c_str(),
                    j.what.c_str(), j.bytes, j.measuredUs, j.modelUs, 100.0 * j.error());
        bySplit[j.split].push_back(j);
        if (j.split != "outlier")
            byBand[sizeBand(j.bytes)].push_back(j);
    }
    for (const auto* groups : {&bySplit, &byBand})
        for (const auto& [name, points] : *groups) {
            const Summary s = summarize(points);
            std::printf("%-12s %3d points: median |error| %5.1f %%, worst %5.1f %%\n", name.c_str(), s.points,
                        100.0 * s.medianAbs, 100.0 * s.worstAbs);
        }
    const auto expect = [](const std::map<std::string, std::vector<Judged>>& groups, const char* name, int points,
                           double medianAbs, double worstAbs) {
        const Summary s = summarize(groups.at(name));
        EXPECT_EQ(s.points, points) << name;
        EXPECT_NEAR(s.medianAbs, medianAbs, 0.005) << name;
        EXPECT_NEAR(s.worstAbs, worstAbs, 0.005) << name;
    };
    // The fitted points (vLLM's one-stage, two-stage and NCCL on four and six H100s at 0.5-4 MiB, and the 256 MB
    // all-reduce on four RTX 4090s that sets NCCL's Simple share over PCIe) and the points no share was fitted on
    // (NCCL on eight H100s from 128 B to 16 MB, NCCL over PCIe with and without peer-to-peer at small messages).
    // Priced at the datasheet's rate (every share 1), as the model without an engine still prices them, they were
    // 25.5 % / 49.1 % and 9.5 % / 41.3 % (1-4 MB: 26.5 % / 49.1 %, all too fast).
    expect(bySplit, "fit", 37, 0.095, 0.300);
    expect(bySplit, "check", 17, 0.037, 0.108);
    expect(byBand, "below 64 KB", 9, 0.032, 0.104);
    expect(byBand, "64 KB-1 MB", 10, 0.108, 0.300);
    expect(byBand, "1-4 MB", 32, 0.083, 0.272);
    expect(byBand, "above 4 MB", 3, 0.022, 0.036);
    // NCCL on eight H100s at 2 MB took 290.7 us between 32.4 us at 1 MB and 59.4 us at 4 MB: kept as published,
    // not judged (split "outlier").
    ASSERT_EQ(bySplit.at("outlier").size(), 1u);
}
