// Ridgeline's plain CSV: name, flops, bytes, seconds, and optional level, precision, group.
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::findKernel;
using ridgeline::test::importFixture;
using ridgeline::test::nearlyEqual;

TEST(ImportPlainCsv, FixtureWithBomCrlfQuotesAndLevelsGivesTheKernelsByHand)
{
    const auto result =
        importBytes(importFixture(QStringLiteral("plain.csv")), QStringLiteral("plain.csv"), ImportFormat::PlainCsv);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 4u);

    // Three rows, one kernel: DRAM is the primary point, L2 and L1 join it.
    const KernelResult* after = findKernel(result.value(), QStringLiteral("stencil_3d"), QStringLiteral("after"));
    ASSERT_NE(after, nullptr);
    EXPECT_DOUBLE_EQ(after->flops, 1.6e9);
    EXPECT_DOUBLE_EQ(after->bytes, 3.2e9);
    EXPECT_DOUBLE_EQ(after->seconds, 0.08);
    EXPECT_DOUBLE_EQ(after->intensity, 0.5);
    EXPECT_DOUBLE_EQ(after->gflops, 20.0);
    EXPECT_DOUBLE_EQ(after->gbps, 40.0);
    EXPECT_EQ(after->level, QStringLiteral("DRAM"));
    EXPECT_EQ(after->precision, QStringLiteral("fp32"));
    ASSERT_EQ(after->levels.size(), 2u);
    EXPECT_EQ(after->levels[0].level, QStringLiteral("L2"));
    EXPECT_DOUBLE_EQ(after->levels[0].intensity, 0.25);
    EXPECT_EQ(after->levels[1].level, QStringLiteral("L1"));
    EXPECT_DOUBLE_EQ(after->levels[1].intensity, 0.125);
    EXPECT_DOUBLE_EQ(after->levels[1].gbps, 160.0);

    const KernelResult* before = findKernel(result.value(), QStringLiteral("stencil_3d"), QStringLiteral("before"));
    ASSERT_NE(before, nullptr);
    EXPECT_DOUBLE_EQ(before->intensity, 0.25);
    EXPECT_DOUBLE_EQ(before->gflops, 8.0);
    EXPECT_TRUE(before->levels.empty());

    // 2 x 1024^3 FLOPs over 3 x 1024^2 doubles.
    const KernelResult* dgemm = findKernel(result.value(), QStringLiteral("dgemm 1024"));
    ASSERT_NE(dgemm, nullptr);
    EXPECT_TRUE(nearlyEqual(dgemm->intensity, 2.0 * 1024 / 24));
    EXPECT_TRUE(dgemm->level.isEmpty());
    EXPECT_EQ(dgemm->precision, QStringLiteral("fp64"));

    const KernelResult* conv = findKernel(result.value(), QStringLiteral("conv2d \"3x3\", stride 1"));
    ASSERT_NE(conv, nullptr);
    EXPECT_DOUBLE_EQ(conv->intensity, 3.0);
    EXPECT_EQ(conv->source, QStringLiteral("plain.csv (csv)"));

    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].line, 10);
    EXPECT_EQ(result.value().skipped[0].what, QStringLiteral("memcpy (DRAM)"));
    EXPECT_EQ(result.value().skipped[0].reason, QStringLiteral("0 FLOPs"));
}

TEST(ImportPlainCsv, ColumnsMayComeInAnyOrderAndCase)
{
    const QByteArray csv = "Seconds,Bytes,NAME,Flops\n5e-7,100,k,200\n";
    const auto result = importBytes(csv, QStringLiteral("k.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].intensity, 2.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].seconds, 5e-7);
}

TEST(ImportPlainCsv, DramRowAfterAnotherLevelBecomesThePrimaryPoint)
{
    const QByteArray csv = "name,flops,bytes,seconds,level\nk,100,50,1e-6,L2\nk,100,10,1e-6,DRAM\n";
    const auto result = importBytes(csv, QStringLiteral("k.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_EQ(result.value().kernels[0].level, QStringLiteral("DRAM"));
    EXPECT_DOUBLE_EQ(result.value().kernels[0].intensity, 10.0);
    ASSERT_EQ(result.value().kernels[0].levels.size(), 1u);
    EXPECT_EQ(result.value().kernels[0].levels[0].level, QStringLiteral("L2"));
}

namespace {

QByteArray csvOfKernels(std::size_t count)
{
    QByteArray csv = "name,flops,bytes,seconds\n";
    csv.reserve(static_cast<qsizetype>(count * 32));
    for (std::size_t i = 0; i < count; ++i)
        csv += "k" + QByteArray::number(static_cast<qulonglong>(i)) + ",1e9,1e8,0.001\n";
    return csv;
}

}  // namespace

// The cap keeps an import's memory bounded: a file of one kernel more than it is refused at that row, with the
// count, and one of exactly the cap is read whole.
TEST(ImportPlainCsv, MoreKernelsThanTheCapAreRefusedAtTheRowThatPassesIt)
{
    const auto tooMany = importBytes(csvOfKernels(kMaxImportedKernels + 1), QStringLiteral("huge.csv"));
    ASSERT_FALSE(tooMany.ok());
    EXPECT_EQ(tooMany.error().code, Error::Code::Parse);
    EXPECT_EQ(tooMany.error().message.toStdString(),
              "huge.csv (plain CSV): line " + std::to_string(kMaxImportedKernels + 2) +
                  ", column 1: more than 200000 kernels: a roofline of that many points cannot be read; import a "
                  "filtered profile (fewer kernels, or one kernel per name)");
    const auto atTheCap = importBytes(csvOfKernels(kMaxImportedKernels), QStringLiteral("cap.csv"));
    ASSERT_TRUE(atTheCap.ok()) << atTheCap.error().message.toStdString();
    EXPECT_EQ(atTheCap.value().kernels.size(), kMaxImportedKernels);
    EXPECT_EQ(atTheCap.value().kernels.back().name, QStringLiteral("k199999"));
}
