// The summary `ridgeline import` prints and the window shows: counts, kernels, skipped rows, notes, where it went.
#include "core/import/import_summary.h"
#include "core/import/import_session.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

namespace {

// Where placeImports puts the one import, without a base session.
QString intoOf(const ImportResult& import)
{
    return placeImports(std::nullopt, {import}).into.value(0);
}

}  // namespace

TEST(ImportSummary, PlainCsvFixtureReadsAsItsLines)
{
    const auto result = importBytes(importFixture(QStringLiteral("plain.csv")), QStringLiteral("plain.csv"));
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(importSummaryLines(result.value(), intoOf(result.value())),
              QStringList({QStringLiteral("plain.csv (csv): 4 kernels, 1 skipped"),
                           QStringLiteral("  kernel   stencil_3d [after]: 20 GFLOP/s, 0.5 FLOP/byte (DRAM), 0.25 (L2), "
                                          "0.125 (L1), 80 ms"),
                           QStringLiteral("  kernel   stencil_3d [before]: 8 GFLOP/s, 0.25 FLOP/byte (DRAM), 200 ms"),
                           QStringLiteral("  kernel   dgemm 1024: 99.88 GFLOP/s, 85.33 FLOP/byte, 21.5 ms"),
                           QStringLiteral("  kernel   conv2d \"3x3\", stride 1: 120 GFLOP/s, 3 FLOP/byte (DRAM), "
                                          "10 ms"),
                           QStringLiteral("  skipped  line 10 memcpy (DRAM) - 0 FLOPs"),
                           QStringLiteral("  into     a new session \"Imported from plain.csv\" of the kernels that "
                                          "name no machine")}));
}

TEST(ImportSummary, LongListsAreCutWithACount)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_raw.csv")), QStringLiteral("raw.csv"));
    ASSERT_TRUE(result.ok());
    const QStringList lines = importSummaryLines(result.value(), intoOf(result.value()), 1);
    EXPECT_EQ(lines.value(0), QStringLiteral("raw.csv (ncu): 3 kernels, 1 skipped"));
    EXPECT_EQ(lines.value(1), QStringLiteral("  kernel   saxpy_kernel: 97.54 GFLOP/s, 0.1667 FLOP/byte (DRAM), 0.1662 "
                                             "(L2), 0.1667 (L1), 21.5 us"));
    EXPECT_EQ(lines.value(2), QStringLiteral("  ... and 2 more kernels"));
    EXPECT_TRUE(lines.value(3).startsWith(QStringLiteral("  skipped  line 8 copy_kernel (ID 3) - ")));
}

TEST(ImportSummary, ErtNamesItsCeilings)
{
    const auto result = importBytes(importFixture(QStringLiteral("ert_roofline.json")), QStringLiteral("r.json"));
    ASSERT_TRUE(result.ok());
    const QStringList lines = importSummaryLines(result.value(), intoOf(result.value()));
    EXPECT_EQ(lines.back(), QStringLiteral("  into     a session of its own ceilings, \"ERT: r.json\" (ceilings of "
                                           "another machine never join a session)"));
    EXPECT_EQ(lines.value(0), QStringLiteral("r.json (ert): 2 compute and 3 bandwidth ceilings for ERT: r.json, 0 "
                                             "kernels, 1 skipped"));
    EXPECT_TRUE(lines.contains(QStringLiteral("  ceiling  DRAM: 1433 GB/s")));
}
