#include "core/import/likwid_import.h"

#include "core/import/csv_reader.h"
#include "core/import/import_text.h"
#include "core/import/imported_kernel.h"

#include <QFileInfo>
#include <QHash>

#include <algorithm>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kRuntime = u"Runtime (RDTSC) [s]"_s;
const QString kBandwidth = u"Memory bandwidth [MBytes/s]"_s;
const QString kVolume = u"Memory data volume [GBytes]"_s;

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

// One metric row: its values per thread (or Sum/Min/Max/Avg in a STAT table), with where each was.
struct MetricRow {
    std::vector<double> values;
    std::vector<int> columns;
    int line = 0;
};

// The Metric tables of one region and group.
struct GroupTables {
    QString region;  // empty without markers
    QString group;   // "MEM_DP"
    int line = 0;    // the first TABLE line
    QHash<QString, MetricRow> perThread;
    QHash<QString, MetricRow> stat;
    qsizetype statSum = -1;  // column index of Sum / Max in the STAT table's values
    qsizetype statMax = -1;
};

struct TableHeader {
    QString region;
    QString group;
    bool metric = false;
    bool stat = false;
    int rows = -1;
};

// "TABLE,Region triad,Group 1 Metric STAT,MEM_DP,12" or "TABLE,Group 1 Raw,MEM_DP,23".
Result<TableHeader> readTableLine(const CsvRecord& record)
{
    TableHeader table;
    qsizetype i = 1;
    if (record.value(i).startsWith(u"Region "_s)) {
        table.region = record.value(i).mid(7).trimmed();
        ++i;
    }
    const QString kind = record.value(i).trimmed();
    if (!kind.startsWith(u"Group "_s))
        return errorAt(record.line, record.columnOf(i),
                       u"a TABLE line without its \"Group N ...\" field (a truncated or edited likwid file?)"_s);
    table.metric = kind.contains(u" Metric"_s);
    table.stat = kind.endsWith(u" STAT"_s);
    table.group = record.value(i + 1).trimmed();
    if (table.group.isEmpty())
        return errorAt(record.line, record.columnOf(i + 1), u"a TABLE line without a group name"_s);
    const QString count = record.value(i + 2).trimmed();
    if (!count.isEmpty()) {
        bool ok = false;
        table.rows = count.toInt(&ok);
        if (!ok || table.rows < 0)
            return errorAt(record.line, record.columnOf(i + 2),
                           u"a TABLE line whose row count \""_s + count.left(20) + u"\" is not a number"_s);
    }
    return table;
}

bool isBlock(const CsvRecord& record)
{
    const QString first = record.value(0).trimmed();
    return first == u"TABLE"_s || first == u"STRUCT"_s;
}

// Per-thread values: the largest runtime, the sum of everything else.
std::optional<double> total(const GroupTables& tables, const QString& metric, bool slowest)
{
    const auto stat = tables.stat.constFind(metric);
    const qsizetype column = slowest ? tables.statMax : tables.statSum;
    if (stat != tables.stat.constEnd() && column >= 0 && column < static_cast<qsizetype>(stat->values.size()))
        return stat->values[static_cast<std::size_t>(column)];
    const auto row = tables.perThread.constFind(metric);
    if (row == tables.perThread.constEnd() || row->values.empty())
        return std::nullopt;
    if (slowest)
        return *std::max_element(row->values.cbegin(), row->values.cend());
    double sum = 0.0;
    for (double value : row->values)
        sum += value;
    return sum;
}

}  // namespace

Result<ImportResult> importLikwid(const QString& text, const QString& fileName)
{
    const auto records = readCsv(text);
    if (!records.ok())
        return records.error();
    const std::vector<CsvRecord>& rows = records.value();

    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::Likwid;
    std::vector<GroupTables> groups;
    QHash<QString, std::size_t> byKey;
    bool sawTable = false;

    for (std::size_t r = 0; r < rows.size();) {
        const CsvRecord& record = rows[r];
        const QString first = record.value(0).trimmed();
        if (first == u"STRUCT"_s) {
            for (++r; r < rows.size() && !isBlock(rows[r]); ++r) {
                if (rows[r].value(0).trimmed() == u"CPU name:"_s)
                    result.notes.append(u"measured on "_s + rows[r].value(1).trimmed());
            }
            continue;
        }
        if (first != u"TABLE"_s)
            return errorAt(record.line, record.columnOf(0),
                           sawTable ? u"expected a TABLE or STRUCT line (a row outside any table)"_s
                                    : u"not a likwid-perfctr CSV file: it must start with STRUCT or TABLE lines "
                                      "(written by likwid-perfctr -o FILE.csv)"_s);
        sawTable = true;
        const auto table = readTableLine(record);
        if (!table.ok())
            return table.error();
        const int tableLine = record.line;
        std::size_t end = r + 1;
        while (end < rows.size() && !isBlock(rows[end]))
            ++end;
        const int bodyRows = static_cast<int>(end - r - 1);
        // likwid states how many rows follow; fewer means the file was cut short.
        if (table.value().rows >= 0 && bodyRows < table.value().rows - 1)
            return errorAt(end < rows.size() ? rows[end].line : rows[end - 1].line + 1, 1,
                           u"the table on line "_s + QString::number(tableLine) + u" announces "_s +
                               QString::number(table.value().rows) + u" rows, only "_s + QString::number(bodyRows) +
                               u" follow (a truncated file?)"_s);
        if (!table.value().metric) {
            r = end;
            continue;
        }
        if (bodyRows < 1)
            return errorAt(tableLine + 1, 1,
                           u"the Metric table on line "_s + QString::number(tableLine) + u" has no header row"_s);
        const QString key = table.value().region + u'\x1f' + table.value().group;
        auto found = byKey.constFind(key);
        if (found == byKey.constEnd()) {
            GroupTables tables;
            tables.region = table.value().region;
            tables.group = table.value().group;
            tables.line = tableLine;
            found = byKey.insert(key, groups.size());
            groups.push_back(std::move(tables));
        }
        GroupTables& tables = groups[*found];
        const CsvRecord& header = rows[r + 1];
        if (header.value(0).trimmed() != u"Metric"_s)
            return errorAt(header.line, header.columnOf(0), u"expected the table's \"Metric,...\" header row"_s);
        // Trailing empty fields pad likwid's rows; the header says how many values a row has.
        qsizetype width = header.size();
        while (width > 1 && header.value(width - 1).trimmed().isEmpty())
            --width;
        if (table.value().stat) {
            for (qsizetype i = 1; i < width; ++i) {
                if (header.value(i).trimmed() == u"Sum"_s)
                    tables.statSum = i - 1;
                if (header.value(i).trimmed() == u"Max"_s)
                    tables.statMax = i - 1;
            }
            if (tables.statSum < 0 || tables.statMax < 0)
                return errorAt(header.line, header.columnOf(1), u"a STAT table without Sum and Max columns"_s);
        }
        QHash<QString, MetricRow>& target = table.value().stat ? tables.stat : tables.perThread;
        for (std::size_t k = r + 2; k < end; ++k) {
            const CsvRecord& row = rows[k];
            QString name = row.value(0).trimmed();
            if (table.value().stat && name.endsWith(u" STAT"_s))
                name.chop(5);
            const bool wanted = name == kRuntime || name == kBandwidth || name == kVolume ||
                                name.endsWith(u"[MFLOP/s]"_s) || name.endsWith(u"MFLOP/s"_s);
            if (!wanted)
                continue;
            if (target.contains(name))
                return errorAt(row.line, row.columnOf(0), u"the metric \""_s + name + u"\" appears twice in a table"_s);
            // A decimal comma splits "0,5" into two fields: refuse rows wider than the header.
            for (qsizetype i = width; i < row.size(); ++i) {
                if (!row.value(i).trimmed().isEmpty())
                    return errorAt(row.line, row.columnOf(i),
                                   name +
                                       u": more values than the table's header has columns (a decimal comma, "
                                       "e.g. \"0,5\"? export with LC_NUMERIC=C)"_s);
            }
            MetricRow values;
            values.line = row.line;
            for (qsizetype i = 1; i < width; ++i) {
                if (i >= row.size())
                    return errorAt(row.line, row.columnOf(row.size()),
                                   QString::number(row.size()) + u" fields where the table's header has "_s +
                                       QString::number(width) + u" (a truncated line?)"_s);
                const Result<double> number = parseNumber(row.value(i), Thousands::Refuse);
                if (!number.ok())
                    return errorAt(row.line, row.columnOf(i), name + u": "_s + number.error().message);
                values.values.push_back(number.value());
                values.columns.push_back(row.columnOf(i));
            }
            target.insert(name, values);
        }
        r = end;
    }
    if (!sawTable)
        return errorAt(1, 1, u"no likwid-perfctr TABLE lines"_s);
    if (groups.empty())
        return errorAt(rows.back().line, 1,
                       u"no Metric table (only raw counters?); likwid-perfctr writes one per "
                       "group"_s);

    const QString source = importSource(fileName, u"likwid"_s);
    const QString baseName = QFileInfo(fileName).completeBaseName();
    for (const GroupTables& tables : groups) {
        const QString what = (tables.region.isEmpty() ? baseName : tables.region) + u" ["_s + tables.group + u']';
        const std::optional<double> runtime = total(tables, kRuntime, true);
        if (!runtime)
            return errorAt(tables.line, 1,
                           u"the "_s + tables.group + u" Metric table has no \""_s + kRuntime + u"\" row"_s);
        QString precision;
        std::optional<double> mflops;
        for (const auto& [name, label] : {std::pair{u"DP"_s, u"fp64"_s}, std::pair{u"SP"_s, u"fp32"_s}}) {
            std::optional<double> rate = total(tables, name + u" [MFLOP/s]"_s, false);
            if (!rate)
                rate = total(tables, name + u" MFLOP/s"_s, false);
            if (rate && !mflops) {
                mflops = rate;
                precision = label;
            }
        }
        const std::optional<double> volume = total(tables, kVolume, false);
        const std::optional<double> bandwidth = total(tables, kBandwidth, false);
        KernelResult kernel;
        kernel.kind = u"imported"_s;
        kernel.source = source;
        kernel.name = tables.region.isEmpty() ? baseName : tables.region;
        kernel.group = tables.group;
        kernel.precision = precision;
        kernel.level = u"DRAM"_s;
        kernel.seconds = *runtime;
        kernel.flops = mflops.value_or(0.0) * 1e6 * *runtime;
        kernel.bytes = volume ? *volume * 1e9 : bandwidth.value_or(0.0) * 1e6 * *runtime;
        QString reason;
        if (!mflops)
            reason =
                u"the group measures no FLOPs (no \"DP [MFLOP/s]\" or \"SP [MFLOP/s]\" row; use MEM_DP or "
                "MEM_SP)"_s;
        else if (!volume && !bandwidth)
            reason = u"the group measures no memory traffic (use MEM_DP or MEM_SP, not FLOPS_DP/FLOPS_SP)"_s;
        else if (kernel.seconds <= 0.0)
            reason = u"a runtime of 0 seconds"_s;
        else if (kernel.flops <= 0.0)
            reason = u"0 FLOP/s (no floating-point work in this region?)"_s;
        else if (kernel.bytes <= 0.0)
            reason = u"0 bytes of memory traffic"_s;
        if (!reason.isEmpty()) {
            result.skipped.push_back(SkippedRow{tables.line, what, reason});
            continue;
        }
        if (const auto problem = completeImportedKernel(kernel))
            return errorAt(tables.line, 1, what + u": "_s + *problem);
        result.kernels.push_back(std::move(kernel));
    }
    return result;
}

}  // namespace ridgeline
