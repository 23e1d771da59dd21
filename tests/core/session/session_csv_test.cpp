// Flat CSV tables of a session: what `ridgeline export --csv` writes, read back with the project's
// own RFC 4180 reader; the folder written all or nothing.
#include "core/session/session_csv.h"
#include "core/import/text/csv_reader.h"
#include "core/session/format/session_json.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

Session exampleSession()
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    EXPECT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    return std::move(loaded).value();
}

const CsvTable& table(const std::vector<CsvTable>& tables, const char* name)
{
    for (const CsvTable& t : tables)
        if (t.fileName == QLatin1String(name))
            return t;
    ADD_FAILURE() << "no table " << name;
    return tables.front();
}

// Header names -> index, and the records after the header.
struct Read {
    QStringList header;
    std::vector<CsvRecord> rows;
    QString at(std::size_t row, const char* column) const
    {
        const qsizetype index = header.indexOf(QLatin1String(column));
        EXPECT_GE(index, 0) << column;
        return rows.at(row).value(index);
    }
    double number(std::size_t row, const char* column) const
    {
        bool ok = false;
        const double value = at(row, column).toDouble(&ok);
        EXPECT_TRUE(ok) << column << " = '" << at(row, column).toStdString() << "'";
        return value;
    }
};

Read read(const CsvTable& t)
{
    Result<std::vector<CsvRecord>> records = readCsv(QString::fromUtf8(t.text));
    EXPECT_TRUE(records.ok());
    Read r;
    for (const CsvField& field : records.value().front().fields)
        r.header << field.text;
    r.rows.assign(records.value().begin() + 1, records.value().end());
    for (const CsvRecord& row : r.rows)
        EXPECT_EQ(row.size(), r.header.size()) << "line " << row.line;
    return r;
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

}  // namespace

TEST(SessionCsv, EveryTableNamesItsUnitsInTheHeader)
{
    const std::vector<CsvTable> tables = sessionCsvTables(exampleSession());
    ASSERT_EQ(tables.size(), 4u);
    EXPECT_EQ(tables[0].fileName, QStringLiteral("ceilings.csv"));
    EXPECT_EQ(tables[1].fileName, QStringLiteral("kernels.csv"));
    EXPECT_EQ(tables[2].fileName, QStringLiteral("bandwidth_curve.csv"));
    EXPECT_EQ(tables[3].fileName, QStringLiteral("kernel_levels.csv"));
    EXPECT_TRUE(tables[0].text.startsWith(
        "kind,name,precision,isa,level,mix,threads,GFLOP_per_s,GFLOP_per_s_min,GFLOP_per_s_median,GFLOP_per_s_max,"
        "theoretical_GFLOP_per_s,GB_per_s,GB_per_s_min,GB_per_s_median,GB_per_s_max,working_set_bytes,"
        "repetitions\n"));
    EXPECT_TRUE(tables[1].text.startsWith(
        "name,kind,size,precision,threads,batch,FLOP,bytes,seconds,seconds_min,seconds_median,seconds_max,"
        "GFLOP_per_s,GB_per_s,intensity_FLOP_per_byte,tokens_per_s,repetitions,level,group,source,full_name,"
        "tensor_flops_counted\n"));
    EXPECT_TRUE(tables[2].text.startsWith(
        "working_set_bytes,mix,level,threads,GB_per_s,GB_per_s_min,GB_per_s_median,GB_per_s_max\n"));
    EXPECT_TRUE(tables[3].text.startsWith("kernel,level,bytes,GB_per_s,intensity_FLOP_per_byte\n"));
    for (const CsvTable& t : tables) {
        EXPECT_FALSE(t.text.contains("nan")) << t.fileName.toStdString();
        EXPECT_FALSE(t.text.contains("inf")) << t.fileName.toStdString();
        EXPECT_FALSE(t.text.contains('\r'));
    }
}

TEST(SessionCsv, RowsCarryTheSessionsNumbersExactly)
{
    const Session session = exampleSession();
    const std::vector<CsvTable> tables = sessionCsvTables(session);

    const Read ceilings = read(table(tables, "ceilings.csv"));
    // Every compute and bandwidth ceiling, then the STREAM triad.
    ASSERT_EQ(ceilings.rows.size(), session.computeCeilings.size() + session.bandwidthCeilings.size() + 1);
    EXPECT_EQ(table(tables, "ceilings.csv").rows, static_cast<int>(ceilings.rows.size()));
    for (std::size_t i = 0; i < session.computeCeilings.size(); ++i) {
        const ComputeCeiling& c = session.computeCeilings[i];
        EXPECT_EQ(ceilings.at(i, "kind"), QStringLiteral("compute"));
        EXPECT_EQ(ceilings.at(i, "name"), c.name);
        EXPECT_EQ(ceilings.number(i, "GFLOP_per_s"), c.gflops);
        EXPECT_EQ(ceilings.number(i, "GFLOP_per_s_min"), c.spread.min);
        EXPECT_EQ(ceilings.number(i, "GFLOP_per_s_max"), c.spread.max);
        EXPECT_EQ(ceilings.number(i, "theoretical_GFLOP_per_s"), c.theoreticalGflops);
        EXPECT_EQ(ceilings.at(i, "GB_per_s"), QString());  // a compute row has no bandwidth
    }
    const std::size_t firstBandwidth = session.computeCeilings.size();
    for (std::size_t j = 0; j < session.bandwidthCeilings.size(); ++j) {
        const BandwidthCeiling& b = session.bandwidthCeilings[j];
        EXPECT_EQ(ceilings.at(firstBandwidth + j, "kind"), QStringLiteral("bandwidth"));
        EXPECT_EQ(ceilings.at(firstBandwidth + j, "level"), b.level);
        EXPECT_EQ(ceilings.at(firstBandwidth + j, "mix"), b.mix);
        EXPECT_EQ(ceilings.number(firstBandwidth + j, "GB_per_s"), b.gbps);
        EXPECT_EQ(ceilings.number(firstBandwidth + j, "working_set_bytes"), static_cast<double>(b.workingSetBytes));
        EXPECT_EQ(ceilings.at(firstBandwidth + j, "GFLOP_per_s"), QString());
    }
    const std::size_t last = ceilings.rows.size() - 1;
    EXPECT_EQ(ceilings.at(last, "kind"), QStringLiteral("stream-triad"));
    EXPECT_EQ(ceilings.number(last, "GB_per_s"), 33.1);

    const Read kernels = read(table(tables, "kernels.csv"));
    ASSERT_EQ(kernels.rows.size(), session.kernels.size());
    for (std::size_t i = 0; i < session.kernels.size(); ++i) {
        const KernelResult& k = session.kernels[i];
        EXPECT_EQ(kernels.at(i, "name"), k.name);
        EXPECT_EQ(kernels.number(i, "FLOP"), k.flops);
        EXPECT_EQ(kernels.number(i, "bytes"), k.bytes);
        EXPECT_EQ(kernels.number(i, "seconds"), k.seconds);
        EXPECT_EQ(kernels.number(i, "GFLOP_per_s"), k.gflops);
        EXPECT_EQ(kernels.number(i, "intensity_FLOP_per_byte"), k.intensity);
        if (k.kind == QLatin1String("decode")) {
            EXPECT_EQ(kernels.number(i, "batch"), k.batch);
            EXPECT_EQ(kernels.number(i, "tokens_per_s"), k.tokensPerSecond);
        } else {
            EXPECT_EQ(kernels.at(i, "batch"), QString());
            EXPECT_EQ(kernels.at(i, "tokens_per_s"), QString());
        }
    }

    const Read curve = read(table(tables, "bandwidth_curve.csv"));
    ASSERT_EQ(curve.rows.size(), session.bandwidthCurve.size());
    ASSERT_FALSE(curve.rows.empty());
    EXPECT_EQ(curve.number(0, "working_set_bytes"), static_cast<double>(session.bandwidthCurve[0].workingSetBytes));
    EXPECT_EQ(curve.number(0, "GB_per_s"), session.bandwidthCurve[0].gbps);
}

TEST(SessionCsv, TextWithCommasQuotesAndNewlinesIsQuotedAndReadsBack)
{
    Session session = exampleSession();
    KernelResult k = session.kernels.front();
    k.name = QStringLiteral("void gemm<float, 128>(\"tile\")");
    k.fullName = QStringLiteral("line one\nline two");
    k.kind = QStringLiteral("imported");
    k.levels = {LevelPoint{QStringLiteral("L2"), 1e6, 300.0, 4.5}};
    session.kernels = {k};
    const std::vector<CsvTable> tables = sessionCsvTables(session);
    EXPECT_TRUE(table(tables, "kernels.csv").text.contains("\"void gemm<float, 128>(\"\"tile\"\")\""));
    const Read kernels = read(table(tables, "kernels.csv"));
    ASSERT_EQ(kernels.rows.size(), 1u);
    EXPECT_EQ(kernels.at(0, "name"), k.name);
    EXPECT_EQ(kernels.at(0, "full_name"), k.fullName);
    const Read levels = read(table(tables, "kernel_levels.csv"));
    ASSERT_EQ(levels.rows.size(), 1u);
    EXPECT_EQ(levels.at(0, "kernel"), k.name);
    EXPECT_EQ(levels.at(0, "level"), QStringLiteral("L2"));
    EXPECT_EQ(levels.number(0, "GB_per_s"), 300.0);
}

TEST(SessionCsv, ExportMakesTheFolderAndWritesEveryTable)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("tables"));
    const Session session = exampleSession();
    const auto written = exportSessionCsv(session, folder);
    ASSERT_TRUE(written.ok()) << written.error().message.toStdString();
    for (const CsvTable& t : sessionCsvTables(session))
        EXPECT_EQ(readFile(QDir(folder).filePath(t.fileName)), t.text) << t.fileName.toStdString();
}

TEST(SessionCsv, AFailedExportReplacesNothingAndLeavesNoFolderBehind)
{
    QTemporaryDir dir;
    const Session session = exampleSession();
    // A folder whose parent does not exist: refused, nothing made.
    const QString deep = dir.filePath(QStringLiteral("no/such/tables"));
    const auto missing = exportSessionCsv(session, deep);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, deep + QStringLiteral(": not written: the folder ") +
                                           dir.filePath(QStringLiteral("no/such")) + QStringLiteral(" does not exist"));
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("no"))));

    // A file where the folder should be.
    const QString file = dir.filePath(QStringLiteral("plain-file"));
    QFile(file).open(QIODevice::WriteOnly);
    EXPECT_EQ(exportSessionCsv(session, file).error().message, file + QStringLiteral(": not a folder"));

    // One target cannot be replaced (a folder named kernels.csv): the tables before it are not written either,
    // and an old ceilings.csv stays as it was.
    const QString folder = dir.filePath(QStringLiteral("tables"));
    ASSERT_TRUE(QDir().mkpath(QDir(folder).filePath(QStringLiteral("kernels.csv"))));
    {
        QFile old(QDir(folder).filePath(QStringLiteral("ceilings.csv")));
        ASSERT_TRUE(old.open(QIODevice::WriteOnly));
        old.write("old table\n");
    }
    const auto blocked = exportSessionCsv(session, folder);
    ASSERT_FALSE(blocked.ok());
    EXPECT_EQ(blocked.error().message,
              QDir(folder).filePath(QStringLiteral("kernels.csv")) + QStringLiteral(": not saved: not a regular file"));
    EXPECT_EQ(readFile(QDir(folder).filePath(QStringLiteral("ceilings.csv"))), QByteArray("old table\n"));
    EXPECT_FALSE(QFileInfo::exists(QDir(folder).filePath(QStringLiteral("bandwidth_curve.csv"))));
    EXPECT_EQ(QDir(folder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 2);  // no temporaries left
}

TEST(SessionCsv, AComparisonReadsBackWithEmptyCellsWhereASideIsMissing)
{
    const Session before = exampleSession();
    Session after = before;
    after.computeCeilings.front().gflops *= 0.8;
    after.kernels.pop_back();
    const SessionComparison comparison = compareSessions(before, after, 5.0);
    const CsvTable t = comparisonCsvTable(comparison);
    EXPECT_EQ(t.fileName, QStringLiteral("comparison.csv"));
    EXPECT_EQ(t.rows, static_cast<int>(comparison.rows.size()));
    const Read r = read(t);
    ASSERT_EQ(r.rows.size(), comparison.rows.size());
    EXPECT_EQ(r.at(0, "section"), QStringLiteral("compute"));
    EXPECT_EQ(r.at(0, "key"), comparison.rows.front().key);
    EXPECT_EQ(r.at(0, "unit"), QStringLiteral("GFLOP/s"));
    EXPECT_EQ(r.number(0, "baseline"), before.computeCeilings.front().gflops);
    EXPECT_EQ(r.number(0, "new"), after.computeCeilings.front().gflops);
    EXPECT_NEAR(r.number(0, "change_percent"), -20.0, 1e-9);
    EXPECT_EQ(r.at(0, "verdict"), verdictName(comparison.rows.front().verdict));
    EXPECT_EQ(r.number(0, "threshold_percent"), 5.0);
    const std::size_t last = r.rows.size() - 1;
    EXPECT_EQ(r.at(last, "verdict"), QStringLiteral("only in baseline"));
    EXPECT_EQ(r.at(last, "new"), QString());
    EXPECT_EQ(r.at(last, "new_name"), QString());
    EXPECT_EQ(r.at(last, "change_percent"), QString());
    EXPECT_FALSE(t.text.contains("nan") || t.text.contains("inf"));
}
