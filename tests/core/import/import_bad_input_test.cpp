// Malformed, truncated, huge, wrong-locale and hostile input: every case is refused as a whole, with a
// message naming the file, the line and the column. Most cases are one edit of a good fixture.
#include "core/import/text/import_text.h"
#include "tests/core/import/import_test_support.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <functional>

#include <sys/stat.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

namespace {

QByteArray replaceFirst(QByteArray bytes, const QByteArray& from, const QByteArray& to)
{
    const qsizetype at = bytes.indexOf(from);
    EXPECT_GE(at, 0) << "fixture edit not found: " << from.toStdString();
    return at < 0 ? bytes : bytes.replace(at, from.size(), to);
}

QByteArray dropLines(const QByteArray& bytes, const std::function<bool(int line, const QByteArray& text)>& drop)
{
    QList<QByteArray> lines = bytes.split('\n');
    QByteArray out;
    for (int i = 0; i < lines.size(); ++i) {
        if (drop(i + 1, lines[i]))
            continue;
        out += lines[i];
        if (i + 1 < lines.size())
            out += '\n';
    }
    return out;
}

QByteArray firstLines(const QByteArray& bytes, int count)
{
    return dropLines(bytes, [count](int line, const QByteArray&) { return line > count; }) + '\n';
}

struct BadCase {
    const char* id;
    ImportFormat format;  // Auto: the format must also be detected from the damaged file
    std::function<QByteArray()> bytes;
    const char* message;  // the whole message after "<file> (<format>): ", or its start
};

QByteArray ncuDetails()
{
    return importFixture(QStringLiteral("ncu_details.csv"));
}
QByteArray ncuRaw()
{
    return importFixture(QStringLiteral("ncu_raw.csv"));
}
QByteArray ert()
{
    return importFixture(QStringLiteral("ert_roofline.json"));
}
QByteArray likwid()
{
    return importFixture(QStringLiteral("likwid_mem_dp.csv"));
}
QByteArray plain()
{
    return importFixture(QStringLiteral("plain.csv"));
}
QByteArray rocprof()
{
    return importFixture(QStringLiteral("rocprof_roofline.csv"));
}

const ImportFormat kNcu = ImportFormat::NsightCompute;
const ImportFormat kErt = ImportFormat::Ert;
const ImportFormat kLikwid = ImportFormat::Likwid;
const ImportFormat kCsv = ImportFormat::PlainCsv;
const ImportFormat kRocprof = ImportFormat::RocprofRoofline;

const std::vector<BadCase>& badCases()
{
    static const std::vector<BadCase> cases = {
        // --- Nsight Compute ---
        {"ncu decimal comma", kNcu, []() -> QByteArray { return replaceFirst(ncuDetails(), "\"21.50\"", "\"21,50\""); },
         "line 12, column 212: gpu__time_duration.sum: a decimal comma in \"21,50\""},
        {"ncu German thousands and decimals", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"8.39\"", "\"8.390,5\""); },
         "line 10, column 208: dram__bytes_read.sum: a decimal comma in \"8.390,5\""},
        {"ncu unknown unit", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"usecond\",\"21.50\"", "\"furlong\",\"21.50\""); },
         "line 12, column 212: gpu__time_duration.sum: unknown unit \"furlong\" (expected second, msecond, usecond, "
         "nsecond, s, ms, us or ns)"},
        {"ncu negative", kNcu, []() -> QByteArray { return replaceFirst(ncuDetails(), "\"4.19\"", "\"-4.19\""); },
         "line 11, column 209: dram__bytes_write.sum: a negative value: \"-4.19\""},
        {"ncu overflow", kNcu, []() -> QByteArray { return replaceFirst(ncuDetails(), "\"4.19\"", "\"4e999\""); },
         "line 11, column 209: dram__bytes_write.sum: a number out of range: \"4e999\""},
        {"ncu badly grouped thousands", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"1,048,576\"", "\"1,04,8576\""); },
         "line 20, column 236: sm__sass_thread_inst_executed_op_ffma_pred_on.sum: not a number: \"1,04,8576\" "
         "(thousands separators must group 3 digits)"},
        {"ncu missing Metric Value column", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"Metric Value\"", "\"Value\""); },
         "line 9, column 1: no \"Metric Value\" column in the Nsight Compute header"},
        {"ncu duplicate header", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"Context\"", "\"Stream\""); },
         "line 9, column 69: the column \"Stream\" appears twice in the header (also column 60)"},
        {"ncu truncated inside a field", kNcu, []() -> QByteArray { return ncuDetails().chopped(10); },
         "line 69, column 221: the quoted field starting here is never closed (truncated file?)"},
        {"ncu truncated at a line", kNcu, []() -> QByteArray { return firstLines(ncuDetails(), 66); },
         "line 55, column 35: kernel ID 3 has no sm__sass_thread_inst_executed_op_hadd_pred_on.sum row while other "
         "kernels have one (a truncated file?)"},
        {"ncu unquoted comma", kNcu,
         []() -> QByteArray {
             return replaceFirst(ncuDetails(), "\"Command line profiler metrics\"",
                                 "\"Command line\",profiler metrics");
         },
         "line 10, column 208: 16 fields where the header on line 9 has 15 (an unquoted comma?)"},
        {"ncu text after a quote", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "\"8.39\"", "\"8.39\"x"); },
         "line 10, column 214: text after the closing quote of a field"},
        {"ncu without a time metric", kNcu,
         []() -> QByteArray {
             return dropLines(ncuDetails(), [](int, const QByteArray& text) { return text.contains("gpu__time"); });
         },
         "line 9, column 1: the file has no kernel time (gpu__time_duration.sum, or sm__cycles_elapsed.avg with "
         "sm__cycles_elapsed.avg.per_second); collect them with `ncu --csv --page raw --set roofline`"},
        {"ncu conflicting duplicate metric", kNcu,
         []() -> QByteArray {
             return ncuDetails() +
                    "\"0\",\"48213\",\"kernels\",\"127.0.0.1\",\"void saxpy_kernel<float>(int, float, const float *, "
                    "float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"8.0\",\"Command line profiler "
                    "metrics\",\"gpu__time_duration.sum\",\"usecond\",\"99\"\n";
         },
         "line 70, column 212: kernel ID 0 has two different values for gpu__time_duration.sum (also line 12)"},
        {"ncu huge field", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "saxpy_kernel<float>", QByteArray(70000, 'a')); },
         "line 10, column 35: a field longer than 65536 characters (a broken or hostile file?)"},
        {"ncu binary garbage", kNcu,
         []() -> QByteArray {
             return replaceFirst(ncuDetails(), "kernels: 4",
                                 QByteArray("\x7f"
                                            "ELF\0\x01\x02",
                                            7));
         },
         "line 7, column 5: a NUL byte: this is a binary file, not text"},
        {"ncu invalid UTF-8", kNcu,
         []() -> QByteArray { return replaceFirst(ncuDetails(), "127.0.0.1", "h\xf4\x90\x80\x80st"); },
         "line 10, column 25: the byte 0xf4 is not UTF-8 text (a binary file, or another encoding?)"},
        {"ncu empty", kNcu, []() -> QByteArray { return QByteArray(); }, "the file is empty"},
        {"ncu no header", kNcu, []() -> QByteArray { return QByteArray("a,b\n1,2\n"); },
         "line 1, column 1: no Nsight Compute header (a row with \"ID\" and \"Kernel Name\" columns)"},
        {"ncu raw without units row", kNcu,
         []() -> QByteArray { return dropLines(ncuRaw(), [](int line, const QByteArray&) { return line == 4; }); },
         "line 4, column 1: expected the units row of `ncu --page raw --csv` here (an empty ID and units such as "
         "\"byte\" or \"nsecond\"), got a kernel row"},
        {"ncu raw duplicate ID", kNcu, []() -> QByteArray { return replaceFirst(ncuRaw(), "\n\"2\",", "\n\"1\","); },
         "line 7, column 1: kernel ID 1 appears twice (also line 6)"},
        {"ncu raw short row", kNcu,
         []() -> QByteArray { return firstLines(ncuRaw(), 5) + "\"1\",\"48377\",\"kernels\"\n"; },
         "line 7, column 20: 3 fields where the header on line 3 has 27 (a truncated line?)"},
        {"ncu raw wrong time unit", kNcu,
         []() -> QByteArray { return replaceFirst(ncuRaw(), "\"Kbyte\",\"usecond\"", "\"Kbyte\",\"cycle\""); },
         "line 5, column 154: gpu__time_duration.sum: unknown unit \"cycle\" (expected second, msecond, usecond, "
         "nsecond, s, ms, us or ns)"},
        {"ncu UTF-16", kNcu, []() -> QByteArray { return QByteArray("\xFF\xFE\"\0I\0D\0\"\0", 10); },
         "the file is UTF-16 text; save it as UTF-8"},

        // --- ERT ---
        {"ert truncated", kErt, []() -> QByteArray { return ert().left(300); },
         "line 9, column 15: an object that is never closed (truncated file?)"},
        {"ert NaN", kErt, []() -> QByteArray { return replaceFirst(ert(), "9166.4", "NaN"); },
         "line 11, column 25: NaN is not a JSON number (Python writes NaN and Infinity; they are not allowed here)"},
        {"ert missing empirical", kErt,
         []() -> QByteArray { return replaceFirst(ert(), "\"empirical\"", "\"measured\""); },
         "line 1, column 1: the object has no \"empirical\" (not an ERT roofline.json)"},
        {"ert data not an array", kErt,
         []() -> QByteArray {
             return replaceFirst(ert(), "\"data\": [\n        [\"L1\"", "\"data\": {}, \"x\": [\n        [\"L1\"");
         },
         "line 17, column 15: \"empirical.gbytes.data\" is an object; expected a list"},
        {"ert entry not a pair", kErt,
         []() -> QByteArray { return replaceFirst(ert(), "[\"L1\", 14205.3]", "[\"L1\"]"); },
         "line 18, column 9: empirical.gbytes.data[0] must be a [\"name\", number] pair, got a list"},
        {"ert value as string", kErt,
         []() -> QByteArray { return replaceFirst(ert(), "[\"L2\", 3836.9]", "[\"L2\", \"3836.9\"]"); },
         "line 19, column 16: empirical.gbytes.data entry \"L2\" must have a number as its value, got the string "
         "\"3836.9\""},
        {"ert negative", kErt,
         []() -> QByteArray { return replaceFirst(ert(), "[\"DRAM\", 1433.2]", "[\"DRAM\", -1433.2]"); },
         "line 20, column 18: empirical.gbytes.data entry \"DRAM\" must be between 1e-06 and 1e+09 GB/s, got -1433.2 "
         "(or 0 for a test that did not run)"},
        {"ert absurd", kErt, []() -> QByteArray { return replaceFirst(ert(), "18304.2", "1.8e12"); },
         "line 12, column 25: empirical.gflops.data entry \"FP32 GFLOPs\" must be between 1e-06 and 1e+09 GFLOP/s, got "
         "1.8e+12 (or 0 for a test that did not run)"},
        // A ridge of 1e308 FLOP/byte would overflow the chart's log axis: a denormal is no bandwidth.
        {"ert denormal bandwidth", kErt, []() -> QByteArray { return replaceFirst(ert(), "1433.2", "5e-324"); },
         "line 20, column 18: empirical.gbytes.data entry \"DRAM\" must be between 1e-06 and 1e+09 GB/s, got 5e-324 "
         "(or 0 for a test that did not run)"},
        {"ert tiny bandwidth", kErt, []() -> QByteArray { return replaceFirst(ert(), "1433.2", "1e-305"); },
         "line 20, column 18: empirical.gbytes.data entry \"DRAM\" must be between 1e-06 and 1e+09 GB/s, got 1e-305 "
         "(or 0 for a test that did not run)"},
        {"ert duplicate key", kErt,
         []() -> QByteArray {
             return replaceFirst(ert(), "\"gbytes\": {", "\"gflops\": {\"data\": []}, \"gbytes\": {");
         },
         "line 16, column 5: duplicate key empirical.gflops"},
        {"ert duplicate level", kErt,
         []() -> QByteArray { return replaceFirst(ert(), "[\"L2\", 3836.9]", "[\"L1\", 3836.9]"); },
         "line 19, column 9: empirical.gbytes.data names \"L1\" twice"},
        {"ert top level array", kErt, []() -> QByteArray { return QByteArray("[1, 2]"); },
         "line 1, column 1: the top level must be a JSON object"},
        {"ert no ceilings", kErt,
         []() -> QByteArray {
             return QByteArray(R"({"empirical": {"gflops": {"data": []}, "gbytes": {"data": [["DRAM", 0]]}}})");
         },
         "line 1, column 15: empirical.gflops.data and empirical.gbytes.data hold no ceiling with a value above 0"},
        {"ert gbytes missing", kErt,
         []() -> QByteArray { return QByteArray(R"({"empirical": {"gflops": {"data": [["FP64", 1]]}}})"); },
         "line 1, column 15: the object empirical has no \"gbytes\" (not an ERT roofline.json)"},
        {"ert garbage after", kErt, []() -> QByteArray { return ert() + "}"; },
         "line 38, column 1: unexpected '}' after the end of a JSON value"},
        {"ert binary", kErt, []() -> QByteArray { return QByteArray("{\"empirical\": \0\0\0", 17); },
         "line 1, column 15: a NUL byte"},
        {"ert empty", kErt, []() -> QByteArray { return QByteArray("  \n"); }, "the file is empty"},

        // --- likwid ---
        {"likwid decimal comma", kLikwid,
         []() -> QByteArray {
             return replaceFirst(likwid(), "Runtime (RDTSC) [s],0.5,0.52,,", "Runtime (RDTSC) [s],0,5,0,52,");
         },
         "line 22, column 25: Runtime (RDTSC) [s]: more values than the table's header has columns (a decimal comma, "
         "e.g. \"0,5\"? export with LC_NUMERIC=C)"},
        {"likwid without runtime", kLikwid,
         []() -> QByteArray {
             const QByteArray once =
                 replaceFirst(likwid(), "Runtime (RDTSC) [s],0.5,0.52", "Runtime (TSC) [s],0.5,0.52");
             return replaceFirst(once, "Runtime (RDTSC) [s] STAT,1.02", "Runtime (TSC) [s] STAT,1.02");
         },
         "line 20, column 1: the MEM_DP Metric table has no \"Runtime (RDTSC) [s]\" row"},
        {"likwid negative", kLikwid,
         []() -> QByteArray {
             return replaceFirst(likwid(), "Memory data volume [GBytes] STAT,9.88",
                                 "Memory data volume [GBytes] STAT,-9.88");
         },
         "line 60, column 34: Memory data volume [GBytes]: a negative value: \"-9.88\""},
        {"likwid not likwid", kLikwid, []() -> QByteArray { return QByteArray("hello,world\n"); },
         "line 1, column 1: no likwid-perfctr tables: neither its CSV (STRUCT and TABLE lines, written by -o FILE.csv "
         "or -O) nor its tables under a \"Group N: GROUP\" line (likwid-mpirun: \"Group: N\") with a Metric table"},
        {"likwid TABLE without group", kLikwid,
         []() -> QByteArray {
             return replaceFirst(likwid(), "TABLE,Region triad,Group 1 Metric,MEM_DP",
                                 "TABLE,Region triad,Metric,MEM_DP");
         },
         "line 20, column 20: a TABLE line without its \"Group N ...\" field (a truncated or edited likwid file?)"},
        {"likwid bad row count", kLikwid,
         []() -> QByteArray {
             return replaceFirst(likwid(), "Group 1 Metric,MEM_DP,19", "Group 1 Metric,MEM_DP,twenty");
         },
         "line 20, column 42: a TABLE line whose row count \"twenty\" is not a number"},
        {"likwid truncated", kLikwid, []() -> QByteArray { return firstLines(likwid(), 45); },
         "line 46, column 1: the table on line 41 announces 19 rows, only 3 follow (a truncated file?)"},
        {"likwid header row missing", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "Metric,HWThread 0", "Metrik,HWThread 0"); },
         "line 21, column 1: expected the table's \"Metric,...\" header row"},
        {"likwid duplicate metric", kLikwid,
         []() -> QByteArray {
             return replaceFirst(likwid(), "AVX DP [MFLOP/s],800,780,,\n", "DP [MFLOP/s],800,780,,\n");
         },
         "line 31, column 1: the metric \"DP [MFLOP/s]\" appears twice in a table (also line 30)"},
        {"likwid STAT without Sum", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "Metric,Sum,", "Metric,Total,"); },
         "line 42, column 8: a STAT table without Sum and Max columns"},
        {"likwid short row", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "DP [MFLOP/s],800,780,,", "DP [MFLOP/s],800"); },
         "line 30, column 17: 2 fields where the table's header has 3 (a truncated line?)"},
        {"likwid text as a number", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "DP [MFLOP/s],800,780", "DP [MFLOP/s],800,n/a"); },
         "line 30, column 18: DP [MFLOP/s]: not a number: \"n/a\""},
        {"likwid unterminated quote", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "CPU name:,Intel", "CPU name:,\"Intel"); },
         "line 2, column 11: the quoted field starting here is never closed (truncated file?)"},
        {"likwid binary", kLikwid,
         []() -> QByteArray { return replaceFirst(likwid(), "CPU type", QByteArray("CPU\0type", 8)); },
         "line 3, column 4: a NUL byte: this is a binary file, not text"},
        {"likwid raw tables only", kLikwid, []() -> QByteArray { return firstLines(likwid(), 19); },
         "line 19, column 1: no Metric table (only raw counters?); likwid-perfctr writes one per group"},

        // --- rocprof-compute roofline.csv ---
        {"rocprof not its header", kRocprof,
         []() -> QByteArray { return replaceFirst(rocprof(), "device,HBMBw", "gpu,HBMBw"); },
         "line 1, column 1: not a rocprof-compute roofline.csv: it starts with a \"device,HBMBw,...\" header"},
        {"rocprof no ceiling columns", kRocprof,
         []() -> QByteArray { return QByteArray("device,Bandwidth,Peak\n0,1,2\n"); },
         "line 1, column 1: no ceiling columns (HBMBw, L2Bw, FP32Flops, MFMAF16Flops, ...) in the header"},
        {"rocprof header only", ImportFormat::Auto, []() -> QByteArray { return firstLines(rocprof(), 1); },
         "line 2, column 1: no device row under the header (the benchmark did not run?)"},
        {"rocprof truncated row", ImportFormat::Auto,
         []() -> QByteArray { return firstLines(rocprof(), 2).left(rocprof().indexOf("\n") + 40) + '\n'; },
         "line 2, column 40: 9 fields where the header has 34 (a truncated line?)"},
        {"rocprof decimal comma", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), "\n0,1400,1399,", "\n0,1400,5,1399,"); },
         "line 2, column 196: 35 fields where the header has 34 (a decimal comma?)"},
        {"rocprof device not a number", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), "\n1,1386,", "\ngpu1,1386,"); },
         "line 3, column 1: the device id \"gpu1\" is not a number"},
        {"rocprof negative device", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), "\n0,1400,", "\n-1,1400,"); },
         "line 2, column 1: the device id \"-1\" is not a number"},
        {"rocprof unit in a cell", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), ",5000,4990,", ",5000 GB/s,4990,"); },
         "line 2, column 18: L2Bw: not a number: \"5000 GB/s\""},
        {"rocprof thousands separator", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), ",21000,20900,", ",\"21,000\",20900,"); },
         "line 2, column 66: FP32Flops: "},
        {"rocprof absurd ceiling", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), ",9200,9190,", ",9.2e12,9190,"); },
         "line 2, column 33: L1Bw is 9.2e+12; a ceiling is at most 1e+09 GB/s or GFLOP/s"},
        {"rocprof bad cell in a later device", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), ",5050,5040,", ",fast,5040,"); },
         "line 3, column 18: L2Bw: not a number: \"fast\""},
        {"rocprof unterminated quote", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), "\n1,1386,", "\n1,\"1386,"); },
         "line 3, column 3: the quoted field starting here is never closed (truncated file?)"},
        {"rocprof binary", ImportFormat::Auto,
         []() -> QByteArray { return replaceFirst(rocprof(), ",18000,", QByteArray(",18\0000,", 7)); },
         "line 2, column 50: a NUL byte: this is a binary file, not text"},
        {"rocprof nothing measured", ImportFormat::Auto,
         []() -> QByteArray { return QByteArray("device,HBMBw,L2Bw,FP32Flops\n0,0,,nan\n"); },
         "nothing to import: all 3 ceilings were skipped (3 x not measured (empty, 0 or nan))"},

        // --- plain CSV ---
        {"csv unknown column", kCsv, []() -> QByteArray { return replaceFirst(plain(), "name,flops,", "name,gflop,"); },
         "line 3, column 6: unknown column \"gflop\"; the columns are name, flops, bytes, seconds and optionally "
         "level, "
         "precision, group"},
        {"csv missing seconds column", kCsv, []() -> QByteArray { return QByteArray("name,flops,bytes\nk,1,2\n"); },
         "line 1, column 17: the header has no \"seconds\" column (needed: name, flops, bytes, seconds)"},
        {"csv duplicate column", kCsv,
         []() -> QByteArray { return QByteArray("name,flops,bytes,seconds,Flops\nk,1,2,3,4\n"); },
         "line 1, column 26: the column \"flops\" appears twice (also column 6)"},
        {"csv decimal comma quoted", kCsv,
         []() -> QByteArray { return replaceFirst(plain(), "1.6e9,3.2e9,0.08,", "1.6e9,3.2e9,\"0,08\","); },
         "line 4, column 24: seconds: a decimal comma in \"0,08\"; export with a '.' decimal point (e.g. "
         "LC_NUMERIC=C)"},
        {"csv decimal comma unquoted", kCsv,
         []() -> QByteArray { return replaceFirst(plain(), "1.6e9,3.2e9,0.08,", "1.6e9,3.2e9,0,08,"); },
         "line 4, column 39: 8 fields where the header has 7 (an unquoted comma, or a decimal comma?)"},
        {"csv NaN", kCsv, []() -> QByteArray { return replaceFirst(plain(), "2147483648", "NaN"); },
         "line 8, column 12: flops: not a finite number: \"NaN\""},
        {"csv infinity", kCsv, []() -> QByteArray { return replaceFirst(plain(), "25165824", "inf"); },
         "line 8, column 23: bytes: not a finite number: \"inf\""},
        {"csv negative", kCsv, []() -> QByteArray { return replaceFirst(plain(), ",0.0215,", ",-0.0215,"); },
         "line 8, column 32: seconds: a negative value: \"-0.0215\""},
        {"csv empty number", kCsv, []() -> QByteArray { return replaceFirst(plain(), ",0.0215,", ",,"); },
         "line 8, column 32: seconds: an empty value where a number is expected"},
        {"csv text as a number", kCsv, []() -> QByteArray { return replaceFirst(plain(), "2147483648", "2 GFLOP"); },
         "line 8, column 12: flops: not a number: \"2 GFLOP\""},
        {"csv too few fields", kCsv,
         []() -> QByteArray {
             return replaceFirst(plain(), "dgemm 1024,2147483648,25165824,0.0215,,fp64,", "dgemm 1024,2147483648");
         },
         "line 8, column 22: 2 fields where the header has 7 (a truncated line?)"},
        {"csv levels disagree", kCsv,
         []() -> QByteArray { return replaceFirst(plain(), "6.4e9,0.08,L2", "6.4e9,0.09,L2"); },
         "line 5, column 24: \"stencil_3d\" at level L2 has other flops or seconds than on line 4; the levels of one "
         "kernel share them"},
        {"csv level twice", kCsv,
         []() -> QByteArray { return replaceFirst(plain(), "1.28e10,0.08,L1", "1.28e10,0.08,L2"); },
         "line 6, column 31: \"stencil_3d\" has level L2 twice"},
        {"csv empty name", kCsv, []() -> QByteArray { return replaceFirst(plain(), "dgemm 1024,", " ,"); },
         "line 8, column 1: an empty kernel name"},
        {"csv only comments", kCsv, []() -> QByteArray { return QByteArray("# nothing here\n\n# at all\n"); },
         "line 1, column 1: no header: the file has only comments or blank lines"},
        {"csv absurd count", kCsv, []() -> QByteArray { return replaceFirst(plain(), "2147483648", "1e30"); },
         "line 8, column 1: \"dgemm 1024\": the FLOP count 1e+30 is beyond 1e+21, more than any machine does"},
        {"csv a kernel slower than any machine", kCsv,
         []() -> QByteArray {
             return replaceFirst(plain(), "dgemm 1024,2147483648,25165824,0.0215", "dgemm 1024,1000,1000,1000");
         },
         "line 8, column 1: \"dgemm 1024\": GFLOP/s (1000 FLOPs in 1000 s) must be between 1e-06 and 1e+09 GFLOP/s, "
         "got 1e-09"},
        {"csv a time beyond months", kCsv,
         []() -> QByteArray { return replaceFirst(plain(), "2147483648,25165824,0.0215", "2147483648,25165824,3e7"); },
         "line 8, column 1: \"dgemm 1024\": the time must be between 1e-12 and 1e+07 s, got 3e+07"},
        {"csv stray quote", kCsv, []() -> QByteArray { return replaceFirst(plain(), "dgemm 1024", "dgemm \"1024"); },
         "line 8, column 7: a quote inside an unquoted field (quote the whole field and double the quote)"},
        {"csv semicolons and decimal commas", ImportFormat::Auto,
         []() -> QByteArray { return QByteArray("name;flops;bytes;seconds\nk;1,5e9;2e9;0,1\n"); },
         "line 1, column 5: semicolon-separated (a spreadsheet saved with a European locale?); save it comma-separated "
         "with '.' as the decimal point"},
        {"csv binary", kCsv,
         []() -> QByteArray { return QByteArray("name,flops,bytes,seconds\n\x89PNG\r\n\x1a\n\0\0", 34); },
         "line 4, column 1: a NUL byte: this is a binary file, not text"},
    };
    return cases;
}

}  // namespace

class ImportBadInput : public testing::TestWithParam<std::size_t> {};

TEST_P(ImportBadInput, IsRefusedWithItsOwnMessage)
{
    const BadCase& bad = badCases()[GetParam()];
    const auto result = importBytes(bad.bytes(), QStringLiteral("bad.file"), bad.format);
    ASSERT_FALSE(result.ok()) << bad.id << ": imported " << result.value().kernels.size() << " kernels";
    // "bad.file (Nsight Compute CSV): ...", or "bad.file: ..." when the bytes were refused before parsing.
    const QString message = result.error().message;
    ASSERT_TRUE(message.startsWith(QStringLiteral("bad.file"))) << message.toStdString();
    const QString detail = message.startsWith(QStringLiteral("bad.file ("))
                               ? message.mid(message.indexOf(QStringLiteral("): ")) + 3)
                               : message.mid(10);
    EXPECT_TRUE(detail.startsWith(QString::fromUtf8(bad.message)))
        << bad.id << "\n  got:      " << detail.toStdString() << "\n  expected: " << bad.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ImportBadInput, testing::Range(std::size_t{0}, badCases().size()),
                         [](const testing::TestParamInfo<std::size_t>& param) {
                             std::string name = badCases()[param.param].id;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

TEST(ImportBadInputs, EveryParserHasAtLeastTenCases)
{
    std::map<ImportFormat, int> counts;
    for (const BadCase& bad : badCases())
        ++counts[bad.format];
    counts[kRocprof] += 0;
    for (const BadCase& bad : badCases())  // Auto cases count for the format their fixture is in
        if (bad.format == ImportFormat::Auto && QString::fromLatin1(bad.id).startsWith(QStringLiteral("rocprof")))
            ++counts[kRocprof];
    for (ImportFormat format : {kNcu, kErt, kLikwid, kCsv, kRocprof})
        EXPECT_GE(counts[format], 10) << static_cast<int>(format);
}

// A truncated file never crashes and never gives a kernel that differs from the whole file's: it either
// fails, or gives a subset (whole rows cut off the end).
TEST(ImportBadInputs, TruncationAtEveryLineNeverGivesADifferentKernel)
{
    for (const char* name : {"ncu_details.csv", "ncu_raw.csv", "likwid_mem_dp.csv", "likwid_mem_sp_single.csv",
                             "plain.csv", "ert_roofline.json", "rocprof_roofline.csv", "rocprof_roofline_2025.csv"}) {
        const QByteArray whole = importFixture(QString::fromLatin1(name));
        const auto full = importBytes(whole, QString::fromLatin1(name));
        ASSERT_TRUE(full.ok()) << name;
        for (qsizetype end = whole.indexOf('\n'); end >= 0 && end + 1 < whole.size();
             end = whole.indexOf('\n', end + 1)) {
            for (const qsizetype cut : {end, end + 1, end + 4}) {
                const auto part = importBytes(whole.left(cut), QString::fromLatin1(name), full.value().format);
                if (!part.ok())
                    continue;
                EXPECT_LE(part.value().computeCeilings.size() + part.value().bandwidthCeilings.size(),
                          full.value().computeCeilings.size() + full.value().bandwidthCeilings.size());
                for (const KernelResult& kernel : part.value().kernels) {
                    const KernelResult* same = ridgeline::test::findKernel(full.value(), kernel.name, kernel.group);
                    ASSERT_NE(same, nullptr) << name << " cut at " << cut << ": " << kernel.name.toStdString();
                    EXPECT_EQ(kernel.flops, same->flops) << name << " cut at " << cut;
                    EXPECT_EQ(kernel.seconds, same->seconds) << name << " cut at " << cut;
                }
            }
        }
    }
}

TEST(ImportBadInputs, FilesAbove100MbAreRefusedBeforeParsing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("huge.csv"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    ASSERT_TRUE(file.resize(kMaxImportFileBytes + 1));  // sparse: costs no disk
    file.close();
    const auto result = importFile(path);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message,
              path + QStringLiteral(": the file is 100000001 bytes; files larger than 100 MB are refused (export only "
                                    "the kernels you need)"));
}

TEST(ImportBadInputs, MissingFilesAndFoldersAreNamed)
{
    QTemporaryDir dir;
    EXPECT_EQ(importFile(dir.filePath(QStringLiteral("nope.csv"))).error().message,
              dir.filePath(QStringLiteral("nope.csv")) + QStringLiteral(": no such file"));
    EXPECT_EQ(importFile(dir.path()).error().message,
              dir.path() + QStringLiteral(": is a folder, not a file to import"));
    // A device never ends and a FIFO blocks its reader until a writer comes: neither is opened.
    const QString fifo = dir.filePath(QStringLiteral("pipe.csv"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& path : {QStringLiteral("/dev/zero"), fifo})
        EXPECT_EQ(importFile(path).error().message,
                  path + QStringLiteral(": not a regular file (a FIFO, a device or a socket): a file to import is read "
                                        "from a file"));
}

TEST(ImportBadInputs, GarbageIsNamedAsBinaryEvenWhenTheFormatIsDetected)
{
    const auto result = importBytes(QByteArray("\x1f\x8b\x08\0\0\0", 6), QStringLiteral("profile.csv.gz"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message,
              QStringLiteral("profile.csv.gz: line 1, column 4: a NUL byte: this is a binary file, not text"));
}

// Random byte corruptions of every fixture: no crash, and every refusal is one line naming the file.
TEST(ImportBadInputs, RandomCorruptionsAreRefusedInOneLineOrReadWhole)
{
    std::uint32_t state = 6;  // a fixed seed: the same cases on every run
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    };
    for (const char* name : {"ncu_details.csv", "ncu_raw.csv", "likwid_mem_dp.csv", "plain.csv", "ert_roofline.json",
                             "rocprof_roofline.csv"}) {
        const QByteArray whole = importFixture(QString::fromLatin1(name));
        ASSERT_FALSE(whole.isEmpty()) << name;
        for (int round = 0; round < 300; ++round) {
            QByteArray bytes = whole;
            for (int edit = 0; edit < 1 + round % 3; ++edit) {
                const auto at = static_cast<qsizetype>(next() % static_cast<std::uint32_t>(bytes.size()));
                static const char kBytes[] = {'"', ',', '\n', '\r', '\0', '-', '.', 'e', '9', '\xff', '{', ']'};
                bytes[at] = kBytes[next() % sizeof kBytes];
            }
            const auto result = importBytes(bytes, QStringLiteral("fuzzed"));
            if (result.ok()) {
                for (const KernelResult& kernel : result.value().kernels) {
                    EXPECT_GT(kernel.flops, 0.0);
                    EXPECT_GT(kernel.bytes, 0.0);
                    EXPECT_GT(kernel.seconds, 0.0);
                }
                continue;
            }
            const QString message = result.error().message;
            EXPECT_TRUE(message.startsWith(QStringLiteral("fuzzed"))) << message.toStdString();
            EXPECT_FALSE(message.contains(u'\n') || message.contains(u'\r')) << message.toStdString();
        }
    }
}

TEST(ImportBadInputs, LineBreaksQuotedFromTheFileAreEscapedInMessages)
{
    const auto result = importBytes("name,flops,bytes,seconds\nk,\"1\n2\",3,4\n", QStringLiteral("k.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message,
              QStringLiteral("k.csv (plain CSV): line 2, column 3: flops: not a number: \"1\\u000a2\""));
}
