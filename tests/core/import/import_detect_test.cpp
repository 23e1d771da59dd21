// Format detection: each fixture is recognized, and what is not is refused with a hint.
#include "core/import/import_format.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

TEST(ImportDetect, EveryFixtureIsRecognized)
{
    const std::pair<const char*, ImportFormat> cases[] = {
        {"ncu_details.csv", ImportFormat::NsightCompute},
        {"ncu_raw.csv", ImportFormat::NsightCompute},
        {"ert_roofline.json", ImportFormat::Ert},
        {"likwid_mem_dp.csv", ImportFormat::Likwid},
        {"likwid_mem_sp_single.csv", ImportFormat::Likwid},
        {"plain.csv", ImportFormat::PlainCsv},
        {"ncu_nersc_rules.csv", ImportFormat::NsightCompute},
        {"ncu_2025_details.csv", ImportFormat::NsightCompute},
        {"ncu_raw_roofline_set.csv", ImportFormat::NsightCompute},
        {"likwid_o_stdout.txt", ImportFormat::Likwid},
        {"likwid_ascii_markers.txt", ImportFormat::Likwid},
        {"likwid_o_threads.txt", ImportFormat::Likwid},
        {"likwid_mpirun_ascii.txt", ImportFormat::Likwid},
        {"rocprof_roofline.csv", ImportFormat::RocprofRoofline},
        {"rocprof_roofline_2025.csv", ImportFormat::RocprofRoofline},
    };
    for (const auto& [name, format] : cases) {
        const auto detected = detectFormat(importFixture(QString::fromLatin1(name)), QString::fromLatin1(name));
        ASSERT_TRUE(detected.ok()) << name << ": " << detected.error().message.toStdString();
        EXPECT_EQ(detected.value(), format) << name;
    }
}

// Classic Mac line ends (CR alone) are the same file: recognised as such, and the CSV formats read the same kernels.
TEST(ImportDetect, CrOnlyLineEndsAreRecognizedAndReadAlike)
{
    for (const char* name :
         {"ncu_details.csv", "ncu_raw.csv", "likwid_mem_dp.csv", "plain.csv", "rocprof_roofline.csv"}) {
        const QByteArray lf = importFixture(QString::fromLatin1(name));
        QByteArray cr = lf;
        cr.replace("\r\n", "\n").replace('\n', '\r');
        const auto expected = detectFormat(lf, QString::fromLatin1(name));
        const auto detected = detectFormat(cr, QString::fromLatin1(name));
        ASSERT_TRUE(detected.ok()) << name << ": " << detected.error().message.toStdString();
        EXPECT_EQ(detected.value(), expected.value()) << name;
    }
    for (const char* name : {"plain.csv", "ncu_details.csv", "rocprof_roofline.csv"}) {
        const QByteArray lf = importFixture(QString::fromLatin1(name));
        QByteArray cr = lf;
        cr.replace("\r\n", "\n").replace('\n', '\r');
        const auto fromLf = importBytes(lf, QString::fromLatin1(name));
        const auto fromCr = importBytes(cr, QString::fromLatin1(name));
        ASSERT_TRUE(fromCr.ok()) << name << ": " << fromCr.error().message.toStdString();
        ASSERT_EQ(fromCr.value().kernels.size(), fromLf.value().kernels.size()) << name;
        ASSERT_EQ(fromCr.value().bandwidthCeilings.size(), fromLf.value().bandwidthCeilings.size()) << name;
        for (std::size_t i = 0; i < fromLf.value().kernels.size(); ++i) {
            EXPECT_EQ(fromCr.value().kernels[i].name, fromLf.value().kernels[i].name) << name;
            EXPECT_EQ(fromCr.value().kernels[i].gflops, fromLf.value().kernels[i].gflops) << name;
        }
    }
}

TEST(ImportDetect, NcuHeaderAfterHundredsOfLinesOfProgramOutputAndNcuLogsAlone)
{
    QByteArray text = "==PROF== Connected to process 17485 (/usr/bin/python3)\n";
    for (int i = 0; i < 300; ++i)
        text += "step " + QByteArray::number(i) + ": 0.42\n";
    text += "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    EXPECT_EQ(detectFormat(text, QStringLiteral("long.csv")).value(), ImportFormat::NsightCompute);
    // Only ncu's log (the profiled program failed): still Nsight Compute's, whose importer says what ncu reported.
    EXPECT_EQ(detectFormat("==PROF== Connected to process 1\n==ERROR== The application returned an error code (1).\n",
                           QStringLiteral("failed.csv"))
                  .value(),
              ImportFormat::NsightCompute);
}

TEST(ImportDetect, SessionsAndUnknownTextAreRefusedWithAHint)
{
    const auto session =
        detectFormat(R"({"format": "ridgeline-session", "schema_version": 1})", QStringLiteral("s.json"));
    ASSERT_FALSE(session.ok());
    EXPECT_TRUE(session.error().message.contains(QStringLiteral("a Ridgeline session, not a file to import")));
    const auto other = detectFormat("time,value\n1,2\n", QStringLiteral("x.csv"));
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.error().message,
              QStringLiteral("x.csv: cannot tell the format (not Nsight Compute CSV, ERT roofline.json, likwid-perfctr "
                             "output, rocprof-compute roofline.csv or a name,flops,bytes,seconds CSV); pass --format"));
}

TEST(ImportDetect, FormatNamesRoundTrip)
{
    for (ImportFormat format : {ImportFormat::Auto, ImportFormat::NsightCompute, ImportFormat::Ert,
                                ImportFormat::Likwid, ImportFormat::PlainCsv, ImportFormat::RocprofRoofline})
        EXPECT_EQ(formatFromName(formatName(format)).value(), format);
    EXPECT_FALSE(formatFromName(QStringLiteral("nvprof")).ok());
}
