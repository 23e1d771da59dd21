// Which session each import goes to (placeImports): likwid kernels of another CPU are held to that CPU's roofs from
// the table of known CPUs, or to none, and never to the base session's; ceilings never merge; every file's summary
// ends with where it went.
#include "core/import/import_session.h"
#include "core/import/import_summary.h"
#include "core/import/kernel/known_cpus.h"
#include "core/session/format/session_json.h"
#include "core/session/session_roof.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

namespace {

Session minimalSession()
{
    return loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json")).value();
}

ImportResult imported(const char* name)
{
    const QString file = QString::fromLatin1(name);
    auto result = importBytes(importFixture(file), file);
    EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
    return result.ok() ? result.value() : ImportResult{};
}

}  // namespace

TEST(ImportPlacement, LikwidNamesTheCpuItPrinted)
{
    EXPECT_EQ(imported("likwid_epyc7763_mem_dp.csv").cpuName, QStringLiteral("AMD EPYC 7763 64-Core Processor"));
    EXPECT_EQ(imported("likwid_unknown_cpu_ascii.txt").cpuName,
              QStringLiteral("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"));
    EXPECT_TRUE(imported("likwid_mpirun_ascii.txt").cpuName.isEmpty());  // likwid-mpirun prints no CPU name
    EXPECT_TRUE(imported("plain.csv").cpuName.isEmpty());
}

TEST(ImportPlacement, CpuNamesCompareWithoutCaseMarksOrExtraSpaces)
{
    EXPECT_TRUE(sameCpuName(u"Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
                            u"  intel xeon(r)\tPLATINUM  8380 CPU @ 2.30GHz "));
    EXPECT_FALSE(sameCpuName(u"AMD EPYC 7763 64-Core Processor", u"AMD EPYC 7742 64-Core Processor"));
    EXPECT_FALSE(sameCpuName(u"", u""));  // no name is no machine
    ASSERT_TRUE(knownCpu(u"Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz").has_value());
    EXPECT_FALSE(knownCpu(u"Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz").has_value());  // Cooper Lake, not Ice Lake
    EXPECT_FALSE(knownCpu(u"AMD EPYC 77420").has_value());
}

// The figures of the table, each from cores x base clock x FLOPs per cycle and channels x MT/s x 8 B.
TEST(ImportPlacement, KnownCpusHaveTheirDatasheetPeaks)
{
    struct Expected {
        const char16_t* name;
        double fp64;
        double dram;
    };
    for (const Expected& cpu :
         {Expected{u"AMD EPYC 7742 64-Core Processor", 64 * 2.25 * 16, 8 * 3200 * 8e-3},
          Expected{u"AMD EPYC 7763 64-Core Processor", 64 * 2.45 * 16, 8 * 3200 * 8e-3},
          Expected{u"AMD EPYC 9654 96-Core Processor", 96 * 2.4 * 16, 12 * 4800 * 8e-3},
          Expected{u"Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", 40 * 2.3 * 32, 8 * 3200 * 8e-3}}) {
        Session unroofed;
        unroofed.machine.cpuModel = QString::fromUtf16(cpu.name);
        const Session session = withKnownCpuRoofs(unroofed);
        const std::optional<SessionRoof> fp64 = roofFor(session, u"fp64", u"DRAM");
        ASSERT_TRUE(fp64.has_value());
        EXPECT_DOUBLE_EQ(fp64->compute->gflops, cpu.fp64);
        EXPECT_DOUBLE_EQ(roofFor(session, u"fp32", u"DRAM")->compute->gflops, 2 * cpu.fp64);
        EXPECT_DOUBLE_EQ(fp64->memory->gbps, cpu.dram);
        EXPECT_TRUE(fp64->compute->name.contains(QStringLiteral("one socket at base")));
        ASSERT_EQ(session.findings.size(), 1u);
        EXPECT_TRUE(session.findings[0].message.contains(QStringLiteral("source: ")));
    }
    EXPECT_DOUBLE_EQ(knownCpu(u"AMD EPYC 7763 64-Core Processor")->fp64Gflops(), 2508.8);
    EXPECT_DOUBLE_EQ(knownCpu(u"AMD EPYC 9654 96-Core Processor")->dramGbps(), 460.8);
}

TEST(ImportPlacement, LikwidKernelsOfTheBaseCpuJoinTheBase)
{
    const Session base = minimalSession();  // measured on an EPYC 9R14
    ImportResult same = imported("likwid_mem_sp_single.csv");
    const PlacedImports placed = placeImports(base, {same});
    ASSERT_EQ(placed.sessions.size(), 1u);
    EXPECT_TRUE(placed.firstIsBase);
    EXPECT_EQ(placed.sessions[0].kernels.size(), base.kernels.size() + 1);
    EXPECT_EQ(placed.into.value(0), QStringLiteral("the session imported into, \"") + base.machine.cpuModel +
                                        QStringLiteral("\": measured on its CPU (AMD EPYC 9R14 96-Core Processor), "
                                                       "so held to its roofs"));

    // The same CPU written another way (likwid keeps the brand string's spacing) is still the same machine.
    Session spaced = base;
    spaced.machine.cpuModel = QStringLiteral("  AMD EPYC 9R14  96-Core processor");
    EXPECT_EQ(placeImports(spaced, {same}).sessions.size(), 1u);
}

TEST(ImportPlacement, LikwidKernelsOfAKnownCpuGetThatCpusRoofsNeverTheBases)
{
    const Session base = minimalSession();
    const ImportResult epyc = imported("likwid_epyc7763_mem_dp.csv");
    const PlacedImports placed = placeImports(base, {epyc});
    ASSERT_EQ(placed.sessions.size(), 2u);
    EXPECT_EQ(placed.sessions[0].kernels.size(), base.kernels.size());  // the base is left as it was
    EXPECT_EQ(placed.sessionOf, std::vector<int>({1}));
    const Session& cpu = placed.sessions[1];
    EXPECT_EQ(cpu.machine.cpuModel, QStringLiteral("AMD EPYC 7763 64-Core Processor"));
    EXPECT_EQ(cpu.title, cpu.machine.cpuModel);
    ASSERT_EQ(cpu.kernels.size(), 2u);
    // Each kernel's roof is the EPYC 7763's datasheet peak over its DRAM, not the EPYC 9R14's measured roof.
    for (const KernelResult& kernel : cpu.kernels) {
        const std::optional<SessionRoof> roof = kernelRoof(cpu, kernel, u"DRAM");
        ASSERT_TRUE(roof.has_value()) << kernel.name.toStdString();
        EXPECT_DOUBLE_EQ(roof->memory->gbps, 204.8);
        EXPECT_DOUBLE_EQ(roof->compute->gflops, 2508.8);
    }
    EXPECT_EQ(placed.into.value(0),
              QStringLiteral("a session of its own CPU, \"AMD EPYC 7763 64-Core Processor\", with the roofs of AMD "
                             "EPYC 7763 from the table of known CPUs (one socket at base clock), not \"") +
                  base.machine.cpuModel + QStringLiteral("\"'s"));
    // Saved and loaded back, the roofs and their source stay.
    const Result<Session> reloaded = sessionFromJson(sessionToJson(cpu), QStringLiteral("cpu.json"));
    ASSERT_TRUE(reloaded.ok()) << reloaded.error().message.toStdString();
    EXPECT_EQ(reloaded.value().computeCeilings[0].peakBasis, cpu.computeCeilings[0].peakBasis);
    EXPECT_TRUE(cpu.computeCeilings[0].peakBasis.startsWith(
        QStringLiteral("AMD product page \"AMD EPYC 7763\", https://www.amd.com/")));
}

TEST(ImportPlacement, AnUnknownCpuGetsASessionWithoutRoofsAndSaysSo)
{
    const ImportResult unknown = imported("likwid_unknown_cpu_ascii.txt");
    const PlacedImports placed = placeImports(minimalSession(), {unknown});
    ASSERT_EQ(placed.sessions.size(), 2u);
    const Session& cpu = placed.sessions[1];
    EXPECT_TRUE(cpu.computeCeilings.empty());
    EXPECT_TRUE(cpu.bandwidthCeilings.empty());
    ASSERT_EQ(cpu.kernels.size(), 1u);
    EXPECT_FALSE(kernelRoof(cpu, cpu.kernels[0], u"DRAM").has_value());
    ASSERT_EQ(cpu.findings.size(), 1u);
    EXPECT_TRUE(cpu.findings[0].message.startsWith(
        QStringLiteral("no roofs known for Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz")));
    const QStringList summary = importSummaryLines(unknown, placed.into.value(0));
    EXPECT_EQ(summary.back(), QStringLiteral("  into     a session of its own CPU, \"Intel(R) Xeon(R) Gold 6338 CPU @ "
                                             "2.00GHz\", without roofs: no roofs known for Intel(R) Xeon(R) Gold 6338 "
                                             "CPU @ 2.00GHz, not \"") +
                                  minimalSession().machine.cpuModel + QStringLiteral("\"'s"));
    // Without a base it is the only session.
    EXPECT_EQ(placeImports(std::nullopt, {unknown}).sessions.size(), 1u);
}

TEST(ImportPlacement, FilesOfOneCpuShareASessionAndErtNeverMerges)
{
    const ImportResult epyc = imported("likwid_epyc7763_mem_dp.csv");
    ImportResult again = epyc;
    again.fileName = QStringLiteral("again.csv");
    const ImportResult ert = imported("ert_roofline.json");
    const ImportResult plain = imported("plain.csv");
    const PlacedImports placed = placeImports(std::nullopt, {plain, epyc, ert, again});
    ASSERT_EQ(placed.sessions.size(), 3u);
    EXPECT_FALSE(placed.firstIsBase);
    EXPECT_EQ(placed.sessionOf, std::vector<int>({0, 1, 2, 1}));
    EXPECT_EQ(placed.sessions[0].title, QStringLiteral("Imported from plain.csv"));
    EXPECT_TRUE(placed.sessions[0].computeCeilings.empty());  // ERT's ceilings stay with ERT
    EXPECT_EQ(placed.sessions[1].kernels.size(), 4u);
    EXPECT_EQ(placed.sessions[2].machine.cpuModel, QStringLiteral("ERT: ert_roofline.json"));
    EXPECT_TRUE(placed.sessions[2].kernels.empty());
    EXPECT_EQ(placed.into.value(0), QStringLiteral("a new session \"Imported from plain.csv\" of the kernels that name "
                                                   "no machine"));
    EXPECT_EQ(placed.into.value(2), QStringLiteral("a session of its own ceilings, \"ERT: ert_roofline.json\" "
                                                   "(ceilings of another machine never join a session)"));
    // Into a session without ceilings of its own (an import of kernels only), ERT still comes apart.
    const PlacedImports intoImported = placeImports(placed.sessions[0], {ert});
    ASSERT_EQ(intoImported.sessions.size(), 2u);
    EXPECT_TRUE(intoImported.sessions[0].computeCeilings.empty());
}

TEST(ImportPlacement, KernelsThatNameNoMachineJoinTheBase)
{
    const Session base = minimalSession();
    const PlacedImports placed =
        placeImports(base, {imported("plain.csv"), imported("ncu_details.csv"), imported("likwid_mpirun_ascii.txt")});
    ASSERT_EQ(placed.sessions.size(), 1u);
    EXPECT_EQ(placed.sessionOf, std::vector<int>({0, 0, 0}));
    const QString session = QStringLiteral("the session imported into, \"") + base.machine.cpuModel + u'"';
    EXPECT_EQ(placed.into.value(0), session);
    EXPECT_EQ(placed.into.value(2),
              session + QStringLiteral(": the file names no CPU, so its kernels are held to that session's roofs"));
}

TEST(ImportPlacement, EverySummaryEndsWithItsIntoLine)
{
    const std::vector<ImportResult> imports = {imported("plain.csv"), imported("likwid_epyc7763_mem_dp.csv"),
                                               imported("ert_roofline.json")};
    const PlacedImports placed = placeImports(minimalSession(), imports);
    for (std::size_t i = 0; i < imports.size(); ++i) {
        const QStringList lines = importSummaryLines(imports[i], placed.into.value(static_cast<qsizetype>(i)));
        EXPECT_EQ(lines.back(), QStringLiteral("  into     ") + placed.into.value(static_cast<qsizetype>(i)));
        EXPECT_EQ(lines.filter(QStringLiteral("  into     ")).size(), 1);
    }
    const QString refusal = oneSessionRefusal(imports, placed);
    EXPECT_TRUE(refusal.startsWith(QStringLiteral("the imports need 3 sessions, not one: ")));
    EXPECT_TRUE(
        refusal.contains(QStringLiteral("\n  likwid_epyc7763_mem_dp.csv -> a session of its own CPU, \"AMD "
                                        "EPYC 7763 64-Core Processor\"")))
        << refusal.toStdString();
    EXPECT_TRUE(refusal.contains(QStringLiteral("\n  ert_roofline.json -> a session of its own ceilings")));
}

// `ridgeline import` and the window move the kernels into their sessions instead of copying them: the same sessions
// and summaries as the copying placement, each import's kernels found again in its session.
TEST(ImportPlacement, MovingTheKernelsPlacesAndSummarisesAsCopyingThem)
{
    const std::vector<ImportResult> imports = {imported("plain.csv"), imported("likwid_epyc7763_mem_dp.csv"),
                                               imported("ert_roofline.json"), imported("ncu_details.csv")};
    const PlacedImports copied = placeImports(minimalSession(), imports);
    std::vector<ImportResult> movable = imports;
    const PlacedImports moved = placeImportsMovingKernels(minimalSession(), movable);

    ASSERT_EQ(moved.sessions.size(), copied.sessions.size());
    for (std::size_t s = 0; s < moved.sessions.size(); ++s) {
        Session session = moved.sessions[s];
        session.created = copied.sessions[s].created;  // a new session is dated when it is made
        EXPECT_EQ(sessionToJson(session), sessionToJson(copied.sessions[s]));
    }
    EXPECT_EQ(moved.sessionOf, copied.sessionOf);
    EXPECT_EQ(moved.into, copied.into);
    for (std::size_t i = 0; i < imports.size(); ++i) {
        SCOPED_TRACE(imports[i].fileName.toStdString());
        EXPECT_TRUE(movable[i].kernels.empty());
        const std::span<const KernelResult> kernels = moved.kernelsOf(i);
        ASSERT_EQ(kernels.size(), imports[i].kernels.size());
        for (std::size_t k = 0; k < kernels.size(); ++k)
            EXPECT_EQ(kernels[k].name, imports[i].kernels[k].name);
        const QString into = moved.into.value(static_cast<qsizetype>(i));
        EXPECT_EQ(importSummaryLines(movable[i], kernels, into), importSummaryLines(imports[i], into));
    }
    EXPECT_GT(moved.kernelsOf(0).size() + moved.kernelsOf(3).size(), 0U);
}
