// `ridgeline import`, run as the real executable: what it prints, its exit codes, the session it writes,
// and a failed import that leaves --into untouched and writes nothing.
#include "core/session/format/session_json.h"
#include "tests/app/cli_runner.h"
#include "tests/core/import/import_test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::CliRun;
using ridgeline::test::importFixturePath;
using ridgeline::test::runRidgeline;

namespace {

QString fixture(const char* name)
{
    return importFixturePath(QString::fromLatin1(name));
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A copy of tests/data/sessions/minimal.json in dir, to import into.
QString copyOfMinimal(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("base.json"));
    QFile::copy(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json"), path);
    return path;
}

}  // namespace

TEST(ImportCli, ImportsEveryFormatIntoANewSessionAndPrintsWhatItReadAndSkipped)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("new.json"));
    // likwid's kernels ran on a CPU of their own and make a session of their own (LikwidKernels... below).
    const CliRun run = runRidgeline(
        {QStringLiteral("import"), fixture("ncu_details.csv"), fixture("plain.csv"), QStringLiteral("--out"), out});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("ncu_details.csv (ncu): 3 kernels, 2 skipped")))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("skipped  line 55 copy_kernel (ID 3) - no floating-point")));
    // The fixture's tensor-pipe instructions are not FLOPs; the summary says so.
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("ran tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum) "
                                        "that are not counted as FLOPs")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("plain.csv (csv): 4 kernels, 1 skipped")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("skipped  line 10 memcpy (DRAM) - 0 FLOPs")));
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("  into     a new session \"Imported from ncu_details.csv, plain.csv\" "
                                        "of the kernels that name no machine\n")))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("wrote ") + out + QStringLiteral(": 7 kernels (7 imported)")));

    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_EQ(loaded.value().kernels.size(), 7u);
    EXPECT_EQ(loaded.value().kernels[0].name, QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(loaded.value().kernels[0].kind, QStringLiteral("imported"));
    EXPECT_EQ(loaded.value().generator, QStringLiteral("ridgeline import"));
}

TEST(ImportCli, IntoWritesACopyAndLeavesTheOriginalAlone)
{
    QTemporaryDir dir;
    const QString base = copyOfMinimal(dir);
    const QByteArray before = readAll(base);
    const QString out = dir.filePath(QStringLiteral("with-ncu.json"));
    const CliRun run = runRidgeline({QStringLiteral("import"), fixture("ncu_raw.csv"), QStringLiteral("--into"), base,
                                     QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("ncu")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_EQ(readAll(base), before);
    const auto original = loadSession(base);
    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().kernels.size(), original.value().kernels.size() + 3);
    EXPECT_EQ(loaded.value().machine.cpuModel, original.value().machine.cpuModel);
    EXPECT_TRUE(run.out.contains(QStringLiteral("(3 imported, 4 from ") + base + u')')) << run.out.toStdString();
}

TEST(ImportCli, ABadFileImportsNothingAndLeavesTheTargetSessionAsItWas)
{
    QTemporaryDir dir;
    const QString base = copyOfMinimal(dir);
    const QByteArray before = readAll(base);
    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("name,flops,bytes,seconds\nk,\"1,5\",2,3\n");
    file.close();
    // Into the same file it reads from: the failure must not touch it.
    const CliRun run = runRidgeline({QStringLiteral("import"), fixture("plain.csv"), bad, QStringLiteral("--into"),
                                     base, QStringLiteral("--out"), base});
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_EQ(run.err, QStringLiteral("ridgeline import: bad.csv (plain CSV): line 2, column 3: flops: a decimal "
                                      "comma in \"1,5\"; export with a '.' decimal point (e.g. LC_NUMERIC=C)\n"
                                      "nothing was written\n"));
    EXPECT_EQ(readAll(base), before);
    EXPECT_TRUE(run.out.isEmpty()) << run.out.toStdString();
}

TEST(ImportCli, ErtIntoASessionWithCeilingsIsRefused)
{
    QTemporaryDir dir;
    const QString base = copyOfMinimal(dir);
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const CliRun run = runRidgeline({QStringLiteral("import"), fixture("ert_roofline.json"), QStringLiteral("--into"),
                                     base, QStringLiteral("--out"), out});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("ert_roofline.json -> a session of its own ceilings")))
        << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));

    const CliRun fresh =
        runRidgeline({QStringLiteral("import"), fixture("ert_roofline.json"), QStringLiteral("--out"), out});
    ASSERT_EQ(fresh.exitCode, 0) << fresh.err.toStdString();
    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded.value().machine.cpuModel, QStringLiteral("ERT: ert_roofline.json"));
    EXPECT_EQ(loaded.value().bandwidthCeilings.size(), 3u);
}

TEST(ImportCli, BadArgumentsExitWithTwo)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("o.json"));
    EXPECT_EQ(runRidgeline({QStringLiteral("import"), QStringLiteral("--out"), out}).exitCode, 2);
    EXPECT_EQ(runRidgeline({QStringLiteral("import"), fixture("plain.csv")}).exitCode, 2);
    const CliRun format = runRidgeline({QStringLiteral("import"), fixture("plain.csv"), QStringLiteral("--out"), out,
                                        QStringLiteral("--format"), QStringLiteral("nvprof")});
    EXPECT_EQ(format.exitCode, 2);
    EXPECT_TRUE(format.err.contains(QStringLiteral("unknown format \"nvprof\"")));
    EXPECT_EQ(runRidgeline({QStringLiteral("import"), fixture("plain.csv"), QStringLiteral("--out"), out,
                            QStringLiteral("--bogus")})
                  .exitCode,
              2);
    EXPECT_FALSE(QFile::exists(out));
    // A missing file is a bad file, not a bad argument.
    const CliRun missing = runRidgeline(
        {QStringLiteral("import"), dir.filePath(QStringLiteral("none.csv")), QStringLiteral("--out"), out});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_TRUE(missing.err.contains(QStringLiteral("none.csv: no such file")));
}

// rocprof-compute's roofline.csv (class 6): the ceilings of an AMD GPU, as a new session of their own.
TEST(ImportCli, RocprofRooflineCeilingsBecomeANewSessionAndSayWhatWasNotMeasured)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("mi200.json"));
    const CliRun run =
        runRidgeline({QStringLiteral("import"), fixture("rocprof_roofline.csv"), QStringLiteral("--out"), out});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("rocprof_roofline.csv (rocprof): 7 compute and 4 bandwidth ceilings "
                                        "for rocprof-compute: rocprof_roofline.csv, device 0, 0 kernels, "
                                        "0 skipped")))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("  ceiling  DRAM: 1400 GB/s"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("  ceiling  bf16 MFMA: 1.7e+05 GFLOP/s"))) << run.out.toStdString();
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("2 devices measured; device 0's ceilings are used, the others differ "
                                        "from them by at most 1.0 %")))
        << run.out.toStdString();
    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().machine.cpuModel, QStringLiteral("rocprof-compute: rocprof_roofline.csv, device 0"));
    ASSERT_EQ(loaded.value().bandwidthCeilings.size(), 4u);
    EXPECT_EQ(loaded.value().bandwidthCeilings[0].level, QStringLiteral("DRAM"));
    EXPECT_EQ(loaded.value().bandwidthCeilings[0].gbps, 1400.0);
    EXPECT_EQ(loaded.value().bandwidthCeilings[0].spread.min, 1399.0);
    EXPECT_EQ(loaded.value().bandwidthCeilings[0].spread.max, 1401.0);
    EXPECT_EQ(loaded.value().computeCeilings.size(), 7u);

    // The 2025 columns: a 0 and empty cells are not measured, listed with their line.
    const QString newer = dir.filePath(QStringLiteral("mi300.json"));
    const CliRun run2025 =
        runRidgeline({QStringLiteral("import"), fixture("rocprof_roofline_2025.csv"), QStringLiteral("--out"), newer});
    ASSERT_EQ(run2025.exitCode, 0) << run2025.err.toStdString();
    EXPECT_TRUE(
        run2025.out.contains(QStringLiteral("skipped  line 2 device 0 FP8Flops - not measured (empty, 0 or nan)")))
        << run2025.out.toStdString();
    EXPECT_TRUE(run2025.out.contains(QStringLiteral("skipped  line 2 device 0 I8Ops - not measured (empty, 0 or nan)")))
        << run2025.out.toStdString();
}

TEST(ImportCli, RocprofCeilingsNeverJoinASessionWithCeilingsAndABrokenFileWritesNothing)
{
    QTemporaryDir dir;
    const QString base = copyOfMinimal(dir);
    const QByteArray before = readAll(base);
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const CliRun into = runRidgeline({QStringLiteral("import"), fixture("rocprof_roofline.csv"),
                                      QStringLiteral("--into"), base, QStringLiteral("--out"), out});
    EXPECT_EQ(into.exitCode, 2);
    EXPECT_EQ(into.err,
              QStringLiteral("ridgeline import: the imports need 2 sessions, not one: kernels are held only to the "
                             "roofs of the machine they ran on, and ceilings never join another machine's session\n"
                             "  rocprof_roofline.csv -> a session of its own ceilings, \"rocprof-compute: "
                             "rocprof_roofline.csv, device 0\" (ceilings of another machine never join a session)\n"
                             "  nothing joins the session imported into, \"AMD EPYC 9R14 96-Core Processor\"\n"
                             "import each group on its own (one --out each), or open them together in the window, "
                             "which shows the extra sessions as overlays\nnothing was written\n"));
    EXPECT_FALSE(QFile::exists(out));
    EXPECT_EQ(readAll(base), before);

    // A cell with a unit: refused with its line and column, and nothing written.
    QByteArray broken = readAll(fixture("rocprof_roofline.csv"));
    broken.replace(",5000,4990,", ",5000 GB/s,4990,");
    const QString bad = dir.filePath(QStringLiteral("roofline.csv"));
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(broken);
    file.close();
    const CliRun refused = runRidgeline({QStringLiteral("import"), bad, QStringLiteral("--out"), out});
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_EQ(refused.err,
              QStringLiteral("ridgeline import: roofline.csv (rocprof-compute roofline.csv): line 2, column "
                             "18: L2Bw: not a number: \"5000 GB/s\"\nnothing was written\n"));
    EXPECT_FALSE(QFile::exists(out));

    // --format rocprof on another profiler's file names what it expected.
    const CliRun wrong = runRidgeline({QStringLiteral("import"), fixture("ncu_raw.csv"), QStringLiteral("--format"),
                                       QStringLiteral("rocprof"), QStringLiteral("--out"), out});
    EXPECT_EQ(wrong.exitCode, 1);
    EXPECT_TRUE(
        wrong.err.contains(QStringLiteral("ncu_raw.csv (rocprof-compute roofline.csv): line 1, column 1: not a "
                                          "rocprof-compute roofline.csv")))
        << wrong.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));
}

// Class 7: GPU kernels keep their GPU. A file that does not name it takes --device; without it the
// kernels are kept without a roof and the summary says how to give one.
TEST(ImportCli, DeviceGivesGpuKernelsTheirGpuAndUnknownIdsAreRefused)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("a100.json"));
    const CliRun run = runRidgeline({QStringLiteral("import"), fixture("ncu_details.csv"), QStringLiteral("--device"),
                                     QStringLiteral("a100-40gb-sxm"), QStringLiteral("--out"), out});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("note     3 kernels drawn on the roofline of NVIDIA A100 40GB SXM4 "
                                        "(--device)")))
        << run.out.toStdString();
    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    for (const KernelResult& kernel : loaded.value().kernels) {
        EXPECT_EQ(kernel.device.kind, QStringLiteral("gpu"));
        EXPECT_EQ(kernel.device.gpu, QStringLiteral("a100-40gb-sxm"));
    }

    const QString none = dir.filePath(QStringLiteral("none.json"));
    const CliRun without =
        runRidgeline({QStringLiteral("import"), fixture("ncu_details.csv"), QStringLiteral("--out"), none});
    ASSERT_EQ(without.exitCode, 0) << without.err.toStdString();
    EXPECT_TRUE(without.out.contains(QStringLiteral("3 kernels ran on a GPU the file does not name")))
        << without.out.toStdString();
    EXPECT_TRUE(loadSession(none).value().kernels.front().device.gpu.isEmpty());

    // The file names its GPU (an H100): --device is not needed, and does not override it.
    const QString h100 = dir.filePath(QStringLiteral("h100.json"));
    const CliRun named =
        runRidgeline({QStringLiteral("import"), fixture("ncu_raw_roofline_set.csv"), QStringLiteral("--device"),
                      QStringLiteral("l4"), QStringLiteral("--out"), h100});
    ASSERT_EQ(named.exitCode, 0) << named.err.toStdString();
    EXPECT_TRUE(named.out.contains(QStringLiteral("--device l4 was not needed"))) << named.out.toStdString();
    EXPECT_EQ(loadSession(h100).value().kernels.front().device.gpu, QStringLiteral("h100-sxm"));

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    const CliRun unknown =
        runRidgeline({QStringLiteral("import"), fixture("ncu_details.csv"), QStringLiteral("--device"),
                      QStringLiteral("v100"), QStringLiteral("--out"), bad});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_TRUE(
        unknown.err.startsWith(QStringLiteral("ridgeline import: --device: unknown GPU \"v100\"; known: "
                                              "a100-40gb-sxm,")))
        << unknown.err.toStdString();
    EXPECT_FALSE(QFile::exists(bad));
}

// A serving engine's benchmark result is no profile: the refusal says where it goes instead.
TEST(ImportCli, ABenchmarkResultIsRefusedWithWhereItGoes)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    for (const char* file : {"vllm_latency_2025.json", "llama_bench_2025.csv", "sglang_2025.jsonl"}) {
        const QString path = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/") + QLatin1String(file);
        const CliRun run = runRidgeline({QStringLiteral("import"), path, QStringLiteral("--out"), out});
        EXPECT_EQ(run.exitCode, 1) << file;
        EXPECT_TRUE(run.err.contains(QLatin1String(file) + QLatin1String(" is a "))) << run.err.toStdString();
        EXPECT_TRUE(run.err.contains(QLatin1String("fit the LLM model to it with `ridgeline calibrate`")))
            << run.err.toStdString();
        EXPECT_FALSE(QFile::exists(out));
    }
    // A profile that does not read is not called one.
    const QString notes = dir.filePath(QStringLiteral("notes.json"));
    QFile file(notes);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{\"hello\": 1}");
    file.close();
    const CliRun run = runRidgeline({QStringLiteral("import"), notes, QStringLiteral("--out"), out});
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_FALSE(run.err.contains(QLatin1String("calibrate"))) << run.err.toStdString();
}

// likwid kernels are held to the roofs of the CPU likwid names, never to another machine's: alone they make that
// CPU's session (roofs from the table of known CPUs, or none); beside a session of another CPU they cannot be
// written as one file, and the refusal says where each file would go.
TEST(ImportCli, LikwidKernelsOfAnotherCpuMakeItsSessionAndAreNeverMergedIntoThisOne)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("epyc.json"));
    const CliRun known =
        runRidgeline({QStringLiteral("import"), fixture("likwid_epyc7763_mem_dp.csv"), QStringLiteral("--out"), out});
    ASSERT_EQ(known.exitCode, 0) << known.err.toStdString();
    EXPECT_TRUE(known.out.contains(QStringLiteral("likwid_epyc7763_mem_dp.csv (likwid): 2 kernels, 0 skipped\n")))
        << known.out.toStdString();
    EXPECT_TRUE(
        known.out.contains(QStringLiteral("  into     a session of its own CPU, \"AMD EPYC 7763 64-Core "
                                          "Processor\", with the roofs of AMD EPYC 7763 from the table of "
                                          "known CPUs (one socket at base clock)\n")))
        << known.out.toStdString();
    const auto loaded = loadSession(out);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().machine.cpuModel, QStringLiteral("AMD EPYC 7763 64-Core Processor"));
    ASSERT_EQ(loaded.value().computeCeilings.size(), 2u);
    EXPECT_EQ(loaded.value().computeCeilings[0].gflops, 2508.8);
    EXPECT_EQ(loaded.value().bandwidthCeilings.at(0).gbps, 204.8);

    const QString unknownOut = dir.filePath(QStringLiteral("gold.json"));
    const CliRun unknown =
        runRidgeline({QStringLiteral("import"), fixture("likwid_mem_dp.csv"), QStringLiteral("--out"), unknownOut});
    ASSERT_EQ(unknown.exitCode, 0) << unknown.err.toStdString();
    EXPECT_TRUE(
        unknown.out.contains(QStringLiteral("without roofs: no roofs known for Intel(R) Xeon(R) Gold 6148 "
                                            "CPU @ 2.40GHz\n")))
        << unknown.out.toStdString();
    EXPECT_TRUE(loadSession(unknownOut).value().computeCeilings.empty());

    const QString base = copyOfMinimal(dir);
    const QByteArray before = readAll(base);
    const QString mixed = dir.filePath(QStringLiteral("mixed.json"));
    const CliRun refused =
        runRidgeline({QStringLiteral("import"), fixture("plain.csv"), fixture("likwid_epyc7763_mem_dp.csv"),
                      QStringLiteral("--into"), base, QStringLiteral("--out"), mixed});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_EQ(refused.err,
              QStringLiteral("ridgeline import: the imports need 2 sessions, not one: kernels are held only to the "
                             "roofs of the machine they ran on, and ceilings never join another machine's session\n"
                             "  plain.csv -> the session imported into, \"AMD EPYC 9R14 96-Core Processor\"\n"
                             "  likwid_epyc7763_mem_dp.csv -> a session of its own CPU, \"AMD EPYC 7763 64-Core "
                             "Processor\", with the roofs of AMD EPYC 7763 from the table of known CPUs (one socket "
                             "at base clock), not \"AMD EPYC 9R14 96-Core Processor\"'s\n"
                             "import each group on its own (one --out each), or open them together in the window, "
                             "which shows the extra sessions as overlays\nnothing was written\n"));
    EXPECT_TRUE(refused.out.isEmpty()) << refused.out.toStdString();
    EXPECT_FALSE(QFile::exists(mixed));
    EXPECT_EQ(readAll(base), before);

    // On the CPU the session measured (an EPYC 9R14), likwid's kernels join it.
    const QString same = dir.filePath(QStringLiteral("same.json"));
    const CliRun joined = runRidgeline({QStringLiteral("import"), fixture("likwid_mem_sp_single.csv"),
                                        QStringLiteral("--into"), base, QStringLiteral("--out"), same});
    ASSERT_EQ(joined.exitCode, 0) << joined.err.toStdString();
    EXPECT_TRUE(joined.out.contains(
        QStringLiteral("  into     the session imported into, \"AMD EPYC 9R14 96-Core Processor\": measured on "
                       "its CPU (AMD EPYC 9R14 96-Core Processor), so held to its roofs")))
        << joined.out.toStdString();
}

// A session of likwid kernels from a CPU the table of known CPUs lacks has no roofs: `ridgeline render` of its file
// says why on the chart, as the window does (the chart's notes have one home, deviceNotes), alone and beside another
// session.
TEST(ImportCli, ARooflessCpuSessionRenderedSaysItsKernelsHaveNoRoof)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString gold = dir.filePath(QStringLiteral("gold.json"));
    const CliRun imported =
        runRidgeline({QStringLiteral("import"), fixture("likwid_mem_dp.csv"), QStringLiteral("--out"), gold});
    ASSERT_EQ(imported.exitCode, 0) << imported.err.toStdString();
    const QString note = QStringLiteral(
        "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz: 2 kernels without a roof, no roofs "
        "known for that machine");
    const auto renderedNotes = [&](const QStringList& sessions) {
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        const QString layout = dir.filePath(QStringLiteral("chart.layout.json"));
        const CliRun run = runRidgeline(QStringList{QStringLiteral("render")} + sessions +
                                        QStringList{QStringLiteral("--out"), png, QStringLiteral("--layout-json"),
                                                    layout, QStringLiteral("--size"), QStringLiteral("1280x800")});
        EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
        const QJsonObject o = QJsonDocument::fromJson(readAll(layout)).object();
        EXPECT_FALSE(o.value(u"notes").toArray().isEmpty());
        QStringList texts;  // a long note wraps over lines: the words in order
        for (const QJsonValue& t : o.value(u"texts").toArray())
            texts << t.toObject().value(u"text").toString();
        return texts.join(u' ');
    };
    const QString alone = renderedNotes({gold});
    EXPECT_TRUE(alone.contains(note)) << alone.toStdString();
    const QString beside = renderedNotes({copyOfMinimal(dir), gold});
    EXPECT_TRUE(beside.contains(note)) << beside.toStdString();
}
