#include "core/session/session_csv.h"

#include "core/save_file.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// One CSV table under construction: cells are added left to right, a row at a time.
class CsvWriter {
public:
    explicit CsvWriter(const QStringList& header) : m_columns(header.size())
    {
        for (const QString& name : header)
            cell(name);
        endRow();
        m_rows = 0;
    }

    CsvWriter& cell(const QString& text)
    {
        if (m_cells++ > 0)
            m_text += ',';
        if (text.contains(u',') || text.contains(u'"') || text.contains(u'\n') || text.contains(u'\r')) {
            QString quoted = text;
            quoted.replace(u'"', u"\"\""_s);
            m_text += '"' + quoted.toUtf8() + '"';
        } else {
            m_text += text.toUtf8();
        }
        return *this;
    }
    CsvWriter& cell(double value)
    {
        if (!std::isfinite(value))  // the session loader refuses these; never write "nan" into a table
            return cell(QString());
        if (std::trunc(value) == value && std::abs(value) < 1e15)
            return cell(QString::number(static_cast<qint64>(value)));
        return cell(QString::number(value, 'g', QLocale::FloatingPointShortest));
    }
    CsvWriter& cell(std::int64_t value) { return cell(QString::number(value)); }
    CsvWriter& cell(int value) { return cell(QString::number(value)); }
    CsvWriter& empty() { return cell(QString()); }
    // A spread's three figures, or three empty cells when the file recorded none (all zero).
    CsvWriter& spread(const Spread& spread)
    {
        if (spread.min == 0.0 && spread.median == 0.0 && spread.max == 0.0)
            return empty().empty().empty();
        return cell(spread.min).cell(spread.median).cell(spread.max);
    }
    void endRow()
    {
        Q_ASSERT(m_cells == m_columns);
        m_text += '\n';
        m_cells = 0;
        ++m_rows;
    }

    CsvTable table(const QString& fileName) const { return CsvTable{fileName, m_text, m_rows}; }

private:
    qsizetype m_columns = 0;
    qsizetype m_cells = 0;
    int m_rows = 0;
    QByteArray m_text;
};

CsvTable ceilingsTable(const Session& session)
{
    CsvWriter csv({u"kind"_s, u"name"_s, u"precision"_s, u"isa"_s, u"level"_s, u"mix"_s, u"threads"_s, u"GFLOP_per_s"_s,
                   u"GFLOP_per_s_min"_s, u"GFLOP_per_s_median"_s, u"GFLOP_per_s_max"_s, u"theoretical_GFLOP_per_s"_s,
                   u"GB_per_s"_s, u"GB_per_s_min"_s, u"GB_per_s_median"_s, u"GB_per_s_max"_s, u"working_set_bytes"_s,
                   u"repetitions"_s});
    for (const ComputeCeiling& c : session.computeCeilings) {
        csv.cell(u"compute"_s).cell(c.name).cell(c.precision).cell(c.isa).empty().empty().cell(c.threads);
        csv.cell(c.gflops).spread(c.spread).cell(c.theoreticalGflops);
        csv.empty().empty().empty().empty().empty().cell(c.repetitions);
        csv.endRow();
    }
    for (const BandwidthCeiling& b : session.bandwidthCeilings) {
        csv.cell(u"bandwidth"_s).cell(b.level + u' ' + b.mix).empty().empty().cell(b.level).cell(b.mix);
        csv.cell(b.threads).empty().empty().empty().empty().empty();
        csv.cell(b.gbps).spread(b.spread).cell(b.workingSetBytes).cell(b.repetitions);
        csv.endRow();
    }
    // The STREAM-style triad, measured beside the DRAM ceiling for comparison (one figure, no spread kept).
    if (session.streamTriadGbps > 0.0) {
        csv.cell(u"stream-triad"_s).cell(u"STREAM triad"_s).empty().empty().cell(u"DRAM"_s).cell(u"triad"_s);
        csv.empty().empty().empty().empty().empty().empty();
        csv.cell(session.streamTriadGbps).empty().empty().empty().empty().empty();
        csv.endRow();
    }
    return csv.table(u"ceilings.csv"_s);
}

CsvTable kernelsTable(const Session& session)
{
    CsvWriter csv({u"name"_s,
                   u"kind"_s,
                   u"size"_s,
                   u"precision"_s,
                   u"threads"_s,
                   u"batch"_s,
                   u"FLOP"_s,
                   u"bytes"_s,
                   u"seconds"_s,
                   u"seconds_min"_s,
                   u"seconds_median"_s,
                   u"seconds_max"_s,
                   u"GFLOP_per_s"_s,
                   u"GB_per_s"_s,
                   u"intensity_FLOP_per_byte"_s,
                   u"tokens_per_s"_s,
                   u"repetitions"_s,
                   u"level"_s,
                   u"group"_s,
                   u"source"_s,
                   u"full_name"_s,
                   u"tensor_flops_counted"_s});
    for (const KernelResult& k : session.kernels) {
        csv.cell(k.name).cell(k.kind).cell(k.size).cell(k.precision).cell(k.threads);
        k.batch > 0 ? csv.cell(k.batch) : csv.empty();
        csv.cell(k.flops).cell(k.bytes).cell(k.seconds).spread(k.spread);
        csv.cell(k.gflops).cell(k.gbps).cell(k.intensity);
        k.tokensPerSecond > 0.0 ? csv.cell(k.tokensPerSecond) : csv.empty();
        csv.cell(k.repetitions).cell(k.level).cell(k.group).cell(k.source).cell(k.fullName);
        csv.cell(k.tensorFlopsCounted ? u"true"_s : u"false"_s);
        csv.endRow();
    }
    return csv.table(u"kernels.csv"_s);
}

CsvTable bandwidthCurveTable(const Session& session)
{
    CsvWriter csv({u"working_set_bytes"_s, u"mix"_s, u"level"_s, u"threads"_s, u"GB_per_s"_s, u"GB_per_s_min"_s,
                   u"GB_per_s_median"_s, u"GB_per_s_max"_s});
    for (const BandwidthPoint& p : session.bandwidthCurve) {
        csv.cell(p.workingSetBytes).cell(p.mix).cell(p.level).cell(p.threads).cell(p.gbps).spread(p.spread);
        csv.endRow();
    }
    return csv.table(u"bandwidth_curve.csv"_s);
}

// Hierarchical-roofline points of imported kernels: the same kernel's traffic at other memory levels.
CsvTable kernelLevelsTable(const Session& session)
{
    CsvWriter csv({u"kernel"_s, u"level"_s, u"bytes"_s, u"GB_per_s"_s, u"intensity_FLOP_per_byte"_s});
    for (const KernelResult& k : session.kernels)
        for (const LevelPoint& l : k.levels) {
            csv.cell(k.name).cell(l.level).cell(l.bytes).cell(l.gbps).cell(l.intensity);
            csv.endRow();
        }
    return csv.table(u"kernel_levels.csv"_s);
}

}  // namespace

std::vector<CsvTable> sessionCsvTables(const Session& session)
{
    return {ceilingsTable(session), kernelsTable(session), bandwidthCurveTable(session), kernelLevelsTable(session)};
}

CsvTable comparisonCsvTable(const SessionComparison& comparison)
{
    CsvWriter csv({u"section"_s, u"key"_s, u"unit"_s, u"baseline_name"_s, u"baseline"_s, u"baseline_min"_s,
                   u"baseline_median"_s, u"baseline_max"_s, u"new_name"_s, u"new"_s, u"new_min"_s, u"new_median"_s,
                   u"new_max"_s, u"change_percent"_s, u"noise_percent"_s, u"verdict"_s, u"threshold_percent"_s});
    for (const ComparisonRow& row : comparison.rows) {
        csv.cell(sectionName(row.section)).cell(row.key).cell(row.unit);
        for (const std::optional<ComparedSide>& side : {row.baseline, row.candidate}) {
            if (side)
                csv.cell(side->name).cell(side->value).spread(side->spread);
            else
                csv.empty().empty().empty().empty().empty();
        }
        if (row.baseline && row.candidate)
            csv.cell(row.changePercent);
        else
            csv.empty();
        if (row.noisePercent)
            csv.cell(*row.noisePercent);
        else
            csv.empty();
        csv.cell(verdictName(row.verdict)).cell(comparison.thresholdPercent);
        csv.endRow();
    }
    return csv.table(u"comparison.csv"_s);
}

Result<std::vector<CsvTable>> exportSessionCsv(const Session& session, const QString& folder)
{
    const QFileInfo info(folder);
    if (info.exists() && !info.isDir())
        return Error{Error::Code::InvalidArgument, folder + u": not a folder"_s};
    if (!info.exists() && !QFileInfo(info.absolutePath()).isDir())
        return Error{Error::Code::NotFound,
                     folder + u": not written: the folder "_s + info.absolutePath() + u" does not exist"_s};
    std::vector<CsvTable> tables = sessionCsvTables(session);
    const bool made = !info.exists();
    if (made && !QDir().mkdir(folder))
        return Error{Error::Code::Io, folder + u": not written: cannot make this folder"_s};
    std::vector<FileContents> files;
    for (const CsvTable& table : tables)
        files.push_back({QDir(folder).filePath(table.fileName), table.text});
    if (std::optional<Error> error = saveFiles(files)) {
        if (made)
            QDir().rmdir(folder);  // leave the disk as it was: the folder was ours, and it is empty
        return *error;
    }
    return tables;
}

}  // namespace ridgeline
