// Which GPU imported kernels ran on (core/import/kernel/import_device.h): the kernels a file leaves without a
// catalog GPU, and giving them the one the user names (--device, the window's question), which the session keeps.
#include "core/import/kernel/import_device.h"
#include "core/import/import_session.h"
#include "core/model/catalog/user_catalog.h"
#include "core/session/format/session_json.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

TEST(ImportDevice, KernelsWithoutACatalogGpuGetTheOneChosenAndKeepTheProfilersName)
{
    auto details = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("ncu_details.csv"));
    auto named = importBytes(importFixture(QStringLiteral("ncu_raw_roofline_set.csv")), QStringLiteral("h100.csv"));
    ASSERT_TRUE(details.ok() && named.ok());
    std::vector<ImportResult> imports{details.value(), named.value()};
    EXPECT_EQ(kernelsWithoutGpu(imports), 3);
    EXPECT_EQ(unmatchedDeviceNames(imports), QStringList{QString()});

    const GpuSpec a100 = findGpu(u"a100-40gb-sxm").value();
    EXPECT_EQ(assignGpu(imports, a100, QStringLiteral("--device")), 3);
    EXPECT_EQ(kernelsWithoutGpu(imports), 0);
    for (const KernelResult& kernel : imports[0].kernels) {
        EXPECT_EQ(kernel.device.gpu, QStringLiteral("a100-40gb-sxm"));
        EXPECT_EQ(kernel.device.basis, QStringLiteral("--device"));
    }
    // The GPU a file names and the catalog knows is never overridden.
    for (const KernelResult& kernel : imports[1].kernels)
        EXPECT_EQ(kernel.device.gpu, QStringLiteral("h100-sxm"));
    EXPECT_TRUE(imports[0].notes.contains(
        QStringLiteral("3 kernels drawn on the roofline of NVIDIA A100 40GB SXM4 (--device)")))
        << imports[0].notes.join(u'\n').toStdString();
    EXPECT_EQ(assignGpu(imports, a100, QStringLiteral("--device")), 0);  // nothing left to give a GPU

    // The session keeps the device through a save and a load.
    const Result<Session> session = sessionWithImports(std::nullopt, imports);
    ASSERT_TRUE(session.ok());
    const Result<Session> reloaded = sessionFromJson(sessionToJson(session.value()), QStringLiteral("s.json"));
    ASSERT_TRUE(reloaded.ok()) << reloaded.error().message.toStdString();
    const KernelDevice& device = reloaded.value().kernels.back().device;
    EXPECT_EQ(device.kind, QStringLiteral("gpu"));
    EXPECT_EQ(device.name, QStringLiteral("NVIDIA H100 80GB HBM3"));
    EXPECT_EQ(device.gpu, QStringLiteral("h100-sxm"));
    EXPECT_EQ(device.basis, QStringLiteral("the profiler's device name"));
    EXPECT_EQ(reloaded.value().kernels.front().device.gpu, QStringLiteral("a100-40gb-sxm"));
}

TEST(ImportDevice, KernelsOfOtherProfilersAreNotGpuKernels)
{
    const auto likwid = importBytes(importFixture(QStringLiteral("likwid_mem_dp.csv")), QStringLiteral("l.csv"));
    const auto plain = importBytes(importFixture(QStringLiteral("plain.csv")), QStringLiteral("p.csv"));
    ASSERT_TRUE(likwid.ok() && plain.ok());
    std::vector<ImportResult> imports{likwid.value(), plain.value()};
    EXPECT_EQ(kernelsWithoutGpu(imports), 0);
    EXPECT_EQ(assignGpu(imports, findGpu(u"h100-sxm").value(), QStringLiteral("--device")), 0);
    for (const ImportResult& import : imports)
        for (const KernelResult& kernel : import.kernels)
            EXPECT_TRUE(kernel.device.kind.isEmpty()) << kernel.name.toStdString();
    // The sessions of them (the likwid file's CPU has one of its own) are written as before: no device field.
    const PlacedImports placed = placeImports(std::nullopt, imports);
    ASSERT_EQ(placed.sessions.size(), 2u);
    for (const Session& session : placed.sessions)
        EXPECT_FALSE(sessionToJson(session).contains("\"device\""));
}
