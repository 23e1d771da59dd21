#include "core/import/ceilings/rocprof_import.h"

#include "core/import/text/csv_reader.h"
#include "core/import/text/import_text.h"

#include <QHash>
#include <QRegularExpression>

#include <cmath>
#include <optional>
#include <vector>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr double kMaxRate = 1e9;  // GB/s or GFLOP/s; what a session accepts

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

// One ceiling column with its spread columns.
struct Column {
    QString name;  // "FP64Flops"
    qsizetype value = -1;
    qsizetype low = -1;
    qsizetype high = -1;
    bool bandwidth = false;
    QString level;      // bandwidth: "DRAM", "L2", ...
    QString precision;  // compute: "fp64", "bf16", "int8"
    QString isa;        // compute: "VALU" or "MFMA"
};

std::optional<Column> describe(const QString& name)
{
    static const QRegularExpression bandwidth(u"^(HBM|L2|L1|LDS)Bw$"_s);
    static const QRegularExpression compute(u"^(MFMA)?(FP|F|BF|I)(\\d+)(Flops|Ops)$"_s);
    Column column;
    column.name = name;
    if (const auto match = bandwidth.match(name); match.hasMatch()) {
        column.bandwidth = true;
        column.level = match.captured(1) == u"HBM"_s ? u"DRAM"_s : match.captured(1);
        return column;
    }
    if (const auto match = compute.match(name); match.hasMatch()) {
        const QString kind = match.captured(2);
        column.isa = match.captured(1).isEmpty() ? u"VALU"_s : u"MFMA"_s;
        column.precision = (kind == u"BF"_s ? u"bf"_s : kind == u"I"_s ? u"int"_s : u"fp"_s) + match.captured(3);
        return column;
    }
    return std::nullopt;
}

// The ceiling columns and where their Low/High spread columns are ("hbmBwHigh" included: case-insensitive). One
// pass over the header and a look-up per column: a hostile header of thousands of fields stays linear.
std::vector<Column> columnsOf(const CsvRecord& header, QStringList& unread)
{
    std::vector<Column> columns;
    QHash<QString, qsizetype> byName;  // lower-cased; the last of equal names wins
    for (qsizetype i = 0; i < header.size(); ++i) {
        const QString name = header.value(i).trimmed();
        byName.insert(name.toLower(), i);
        if (auto column = describe(name)) {
            column->value = i;
            columns.push_back(*column);
        }
    }
    std::vector<bool> known(static_cast<std::size_t>(header.size()), false);
    auto find = [&](const QString& name, qsizetype& slot) {
        if (const auto it = byName.constFind(name.toLower()); it != byName.constEnd()) {
            slot = *it;
            known[static_cast<std::size_t>(*it)] = true;
        }
    };
    for (Column& column : columns) {
        known[static_cast<std::size_t>(column.value)] = true;
        if (column.name == u"MFMAI8Ops"_s)  // rocprof-compute spells its spread "MFMAFI8OpsLow"
            find(u"MFMAFI8OpsLow"_s, column.low);
        find(column.name + u"Low"_s, column.low);
        find(column.name + u"High"_s, column.high);
    }
    for (qsizetype i = 0; i < header.size(); ++i) {
        const QString name = header.value(i).trimmed();
        if (!known[static_cast<std::size_t>(i)] && !name.isEmpty() &&
            name.compare(u"device"_s, Qt::CaseInsensitive) != 0)
            unread.append(name);
    }
    return columns;
}

std::optional<double> valueAt(const CsvRecord& row, qsizetype index, const QString& what, std::optional<Error>& error)
{
    const QString text = row.value(index).trimmed();
    if (index < 0 || text.isEmpty())
        return std::nullopt;
    const Result<double> number = parseNumber(text, Thousands::Refuse);
    if (!number.ok()) {
        if (number.error().code == Error::Code::Range && text.contains(u"n"_s, Qt::CaseInsensitive))
            return std::nullopt;  // nan / inf: not measured
        error = errorAt(row.line, row.columnOf(index), what + u": "_s + number.error().message);
        return std::nullopt;
    }
    if (number.value() > kMaxRate)
        error = errorAt(row.line, row.columnOf(index),
                        what + u" is "_s + QString::number(number.value(), 'g', 6) +
                            u"; a ceiling is at most 1e+09 GB/s or GFLOP/s"_s);
    return number.value();
}

// min <= median <= max, as a session checks it; nullopt when the file's spread is not ordered.
std::optional<Spread> spreadOf(std::optional<double> low, double value, std::optional<double> high)
{
    if (!low || !high || !(*low <= value && value <= *high))
        return std::nullopt;
    return Spread{*low, value, *high};
}

struct DeviceRow {
    int device = 0;
    const CsvRecord* row = nullptr;
};

std::optional<Error> readCeilings(const std::vector<Column>& columns, const DeviceRow& device, ImportResult& result)
{
    std::optional<Error> error;
    bool unordered = false;
    for (const Column& column : columns) {
        const auto value = valueAt(*device.row, column.value, column.name, error);
        const auto low = valueAt(*device.row, column.low, column.name + u"Low"_s, error);
        const auto high = valueAt(*device.row, column.high, column.name + u"High"_s, error);
        if (error)
            return error;
        if (!value || *value <= 0.0) {
            result.skipped.push_back(SkippedRow{device.row->line,
                                                u"device "_s + QString::number(device.device) + u' ' + column.name,
                                                u"not measured (empty, 0 or nan)"_s});
            continue;
        }
        const auto spread = spreadOf(low, *value, high);
        unordered = unordered || (low && high && !spread);
        if (column.bandwidth) {
            BandwidthCeiling ceiling;
            ceiling.level = column.level;
            ceiling.mix = u"rocprof-compute"_s;
            ceiling.gbps = *value;
            ceiling.spread = spread.value_or(Spread{});
            result.bandwidthCeilings.push_back(ceiling);
        } else {
            ComputeCeiling ceiling;
            ceiling.name = column.precision + u' ' + column.isa;
            ceiling.precision = column.precision;
            ceiling.isa = column.isa;
            ceiling.gflops = *value;
            ceiling.spread = spread.value_or(Spread{});
            result.computeCeilings.push_back(ceiling);
        }
    }
    if (unordered)
        result.notes.append(u"some Low/High spreads are not around their value; those ceilings are kept without one"_s);
    return std::nullopt;
}

// How far the other devices' ceilings are from the first one's, in percent (the largest difference).
double largestDifference(const std::vector<Column>& columns, const std::vector<DeviceRow>& devices)
{
    double largest = 0.0;
    std::optional<Error> ignored;
    for (const Column& column : columns) {
        const auto first = valueAt(*devices.front().row, column.value, column.name, ignored);
        for (std::size_t d = 1; d < devices.size() && first && *first > 0.0; ++d) {
            const auto other = valueAt(*devices[d].row, column.value, column.name, ignored);
            if (other)
                largest = std::max(largest, std::abs(*other - *first) / *first * 100.0);
        }
    }
    return largest;
}

}  // namespace

bool looksLikeRocprofRoofline(QStringView text)
{
    const QStringView start = text.trimmed();
    const qsizetype end = start.indexOf(u'\n');
    const QStringView header = end < 0 ? start : start.left(end);
    return header.startsWith(u"device,"_s, Qt::CaseInsensitive) && header.contains(u"Bw"_s) &&
           header.contains(u"Flops"_s);
}

Result<ImportResult> importRocprofRoofline(const QString& text, const QString& fileName)
{
    const auto records = readCsv(text);
    if (!records.ok())
        return records.error();
    const std::vector<CsvRecord>& rows = records.value();
    if (rows.empty() || rows.front().value(0).trimmed().compare(u"device"_s, Qt::CaseInsensitive) != 0)
        return errorAt(1, 1, u"not a rocprof-compute roofline.csv: it starts with a \"device,HBMBw,...\" header"_s);
    QStringList unread;
    const std::vector<Column> columns = columnsOf(rows.front(), unread);
    if (columns.empty())
        return errorAt(1, 1, u"no ceiling columns (HBMBw, L2Bw, FP32Flops, MFMAF16Flops, ...) in the header"_s);
    std::vector<DeviceRow> devices;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const CsvRecord& row = rows[r];
        if (row.size() != rows.front().size())
            return errorAt(
                row.line, row.columnOf(std::min(row.size(), rows.front().size())),
                QString::number(row.size()) + u" fields where the header has "_s +
                    QString::number(rows.front().size()) +
                    (row.size() < rows.front().size() ? u" (a truncated line?)"_s : u" (a decimal comma?)"_s));
        bool ok = false;
        const int device = row.value(0).trimmed().toInt(&ok);
        if (!ok || device < 0)
            return errorAt(row.line, 1, u"the device id \""_s + row.value(0).left(20) + u"\" is not a number"_s);
        devices.push_back(DeviceRow{device, &row});
    }
    if (devices.empty())
        return errorAt(rows.front().line + 1, 1, u"no device row under the header (the benchmark did not run?)"_s);
    for (const DeviceRow& device : devices) {  // every cell is a number, in every row, not only the one used
        std::optional<Error> error;
        for (const Column& column : columns)
            for (const qsizetype index : {column.value, column.low, column.high})
                valueAt(*device.row, index, column.name, error);
        if (error)
            return *error;
    }

    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::RocprofRoofline;
    result.machineName = u"rocprof-compute: "_s + fileName + u", device "_s + QString::number(devices.front().device);
    if (auto error = readCeilings(columns, devices.front(), result))
        return *error;
    if (devices.size() > 1)
        result.notes.append(QString::number(devices.size()) + u" devices measured; device "_s +
                            QString::number(devices.front().device) +
                            u"'s ceilings are used, the others differ from them by at most "_s +
                            QString::number(largestDifference(columns, devices), 'f', 1) + u" %"_s);
    if (!unread.isEmpty())
        result.notes.append(u"columns not read: "_s + unread.join(u", "_s));
    return result;
}

}  // namespace ridgeline
