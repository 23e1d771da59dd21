#include "core/import/ncu/ncu_table.h"

#include "core/import/text/csv_reader.h"
#include "core/import/text/import_text.h"

#include <QRegularExpression>

#include <optional>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

// The columns ncu leaves off the end of a metric row when they are empty.
bool isRuleColumn(const QString& name)
{
    return name == u"Rule Name"_s || name == u"Rule Type"_s || name == u"Rule Description"_s ||
           name == u"Estimated Speedup Type"_s || name == u"Estimated Speedup"_s;
}

// Nsight Compute's metric that names the GPU (the "Device" column is only its index).
const QString kDeviceNameMetric = u"device__attribute_display_name"_s;

// A "Device" cell that is a name rather than an index (older exports write "Tesla V100-SXM2-16GB (0)").
QString deviceNameFromColumn(const QString& cell)
{
    static const QRegularExpression index(u"\\s*\\(\\d+\\)$"_s);
    QString name = cell.trimmed();
    bool isNumber = false;
    name.toInt(&isNumber);
    if (isNumber || name.isEmpty())
        return QString();
    return name.remove(index).trimmed();
}

// Column index by header name; duplicate names are an error (which one would be meant?).
class Header {
public:
    static Result<Header> read(const CsvRecord& record)
    {
        Header header;
        header.m_record = record;
        for (qsizetype i = 0; i < record.size(); ++i) {
            const QString name = record.value(i).trimmed();
            if (name.isEmpty())
                continue;
            if (header.m_columns.contains(name))
                return errorAt(record.line, record.columnOf(i),
                               u"the column \""_s + name + u"\" appears twice in the header (also column "_s +
                                   QString::number(record.columnOf(header.m_columns.value(name))) + u')');
            header.m_columns.insert(name, i);
        }
        return header;
    }
    qsizetype index(const QString& name) const { return m_columns.value(name, -1); }
    bool has(const QString& name) const { return m_columns.contains(name); }
    qsizetype size() const { return m_record.size(); }
    QString name(qsizetype index) const { return m_record.value(index).trimmed(); }
    const CsvRecord& record() const { return m_record; }
    const QHash<QString, qsizetype>& columns() const { return m_columns; }

private:
    CsvRecord m_record;
    QHash<QString, qsizetype> m_columns;
};

// Reads the records as they stream past, keeping only the metrics asked for. Details: rows grouped by ID
// in order of first appearance. Raw: a units row under the header, then one row per kernel.
class NcuTableReader {
public:
    explicit NcuTableReader(const std::function<bool(QStringView)>& keep) : m_keep(keep) {}

    std::optional<Error> onRecord(CsvRecord&& record)
    {
        if (!m_header)  // the lines before it were skipped as raw text (see readNcuTable)
            return readHeader(record);
        if (auto error = checkWidth(record))
            return error;
        if (m_table.details)
            return detailsRow(record);
        if (!m_units)
            return unitsRow(std::move(record));
        return rawRow(record);
    }

    // After the last record: the kernels, or why there are none. before: the lines before the header.
    Result<NcuTable> finish(QStringList errors, int firstBefore, int countBefore)
    {
        m_table.errors = std::move(errors);
        m_before.first = firstBefore;
        m_before.count = countBefore;
        if (!m_header)
            return noHeader();
        if (!m_table.details && !m_units)
            return errorAt(m_table.headerLine + 1, 1,
                           u"the units row under the header is missing (a truncated `ncu --page raw --csv` file?)"_s);
        if (m_table.kernels.empty())
            return errorAt(m_table.headerLine + (m_table.details ? 1 : 2), 1,
                           u"no kernel rows after the header"_s + reported(m_table.errors));
        return std::move(m_table);
    }

private:
    static QString reported(const QStringList& errors)
    {
        if (errors.isEmpty())
            return QString();
        return u"; ncu reported: "_s + errors.first().left(200) +
               (errors.size() > 1 ? u" (and "_s + QString::number(errors.size() - 1) + u" more errors)"_s : QString());
    }

    Error noHeader() const
    {
        if (m_before.count == 0)  // nothing but ncu's own log lines
            return errorAt(1, 1, u"no Nsight Compute table, only ncu's log lines"_s + reported(m_table.errors));
        return errorAt(
            m_before.first, 1,
            u"no Nsight Compute header (a row with \"ID\" and \"Kernel Name\" columns)"_s + reported(m_table.errors));
    }

    std::optional<Error> readHeader(const CsvRecord& record)
    {
        auto header = Header::read(record);
        if (!header.ok())
            return header.error();
        m_header = std::move(header).value();
        m_table.headerLine = record.line;
        m_table.details = m_header->has(u"Metric Name"_s);
        if (m_table.details) {
            for (const QString& name : {u"Metric Unit"_s, u"Metric Value"_s})
                if (!m_header->has(name))
                    return errorAt(record.line, 1, u"no \""_s + name + u"\" column in the Nsight Compute header"_s);
        }
        m_id = m_header->index(u"ID"_s);
        m_name = m_header->index(u"Kernel Name"_s);
        m_section = m_header->index(u"Section Name"_s);
        m_metric = m_header->index(u"Metric Name"_s);
        m_unit = m_header->index(u"Metric Unit"_s);
        m_value = m_header->index(u"Metric Value"_s);
        m_grid = m_header->index(u"Grid Size"_s);
        m_block = m_header->index(u"Block Size"_s);
        m_device = m_header->index(u"Device"_s);
        m_deviceName = m_table.details ? -1 : m_header->index(kDeviceNameMetric);
        m_cc = m_header->index(u"CC"_s);
        return std::nullopt;
    }

    // A details row may end early when only rule columns are missing; anything else is a broken line.
    std::optional<Error> checkWidth(const CsvRecord& record) const
    {
        const qsizetype width = m_header->size();
        if (record.size() == width)
            return std::nullopt;
        const bool fewer = record.size() < width;
        if (fewer && m_table.details) {
            bool onlyRules = true;
            for (qsizetype i = record.size(); i < width && onlyRules; ++i)
                onlyRules = isRuleColumn(m_header->name(i));
            if (onlyRules)
                return std::nullopt;
        }
        return errorAt(record.line, record.columnOf(fewer ? record.size() : width),
                       QString::number(record.size()) + u" fields where the header on line "_s +
                           QString::number(m_table.headerLine) + u" has "_s + QString::number(width) +
                           (fewer ? u" (a truncated line?)"_s : u" (an unquoted comma?)"_s));
    }

    // Without an ID column, kernels are numbered in order from 0, as ncu numbers them.
    std::optional<Error> newKernel(const CsvRecord& record, NcuKernel& kernel) const
    {
        kernel.id = m_id >= 0 ? record.value(m_id).trimmed() : QString::number(m_table.kernels.size());
        kernel.name = record.value(m_name).trimmed();
        kernel.line = record.line;
        kernel.nameColumn = record.columnOf(m_name);
        kernel.grid = record.value(m_grid).trimmed();
        kernel.block = record.value(m_block).trimmed();
        kernel.deviceIndex = record.value(m_device).trimmed();
        kernel.deviceName = deviceNameFromColumn(kernel.deviceIndex);
        if (m_deviceName >= 0 && !record.value(m_deviceName).trimmed().isEmpty())
            kernel.deviceName = record.value(m_deviceName).trimmed();
        kernel.computeCapability = record.value(m_cc).trimmed();
        if (kernel.id.isEmpty())
            return errorAt(record.line, record.columnOf(m_id), u"an empty kernel ID"_s);
        if (kernel.name.isEmpty())
            return errorAt(record.line, record.columnOf(m_name), u"an empty kernel name"_s);
        return std::nullopt;
    }

    // Without an ID column a row belongs to the kernel before it, unless the name changes or the metric
    // repeats (the next launch of the same kernel).
    QString detailsId(const CsvRecord& record, const QString& metricName) const
    {
        if (m_id >= 0)
            return record.value(m_id).trimmed();
        if (m_table.kernels.empty())
            return QString::number(0);
        const NcuKernel& last = m_table.kernels.back();
        const bool same = last.name == record.value(m_name).trimmed() && !last.metrics.contains(metricName);
        return same ? last.id : QString::number(m_table.kernels.size());
    }

    // Labels such as "Duration" are kept only from the Speed Of Light section, where they name gpu__ metrics.
    bool wanted(const QString& section, const QString& metric) const
    {
        if (metric.contains(u"__"_s))
            return m_keep(metric);
        return (section.contains(u"Speed Of Light"_s) || section.startsWith(u"SpeedOfLight"_s)) && m_keep(metric);
    }

    void noteSection(const QString& section)
    {
        if (!section.isEmpty() && !m_table.sections.contains(section))
            m_table.sections.append(section);
    }

    std::optional<Error> detailsRow(const CsvRecord& record)
    {
        const QString metricName = record.value(m_metric).trimmed();
        const QString section = record.value(m_section).trimmed();
        noteSection(section);
        ++(metricName.isEmpty() ? m_table.ruleRows : m_table.metricRows);
        const bool keep = !metricName.isEmpty() && wanted(section, metricName);
        const QString kernelId = detailsId(record, keep ? metricName : QString());
        auto found = m_byId.constFind(kernelId);
        if (found == m_byId.constEnd()) {
            NcuKernel kernel;
            if (auto error = newKernel(record, kernel))
                return error;
            found = m_byId.insert(kernelId, m_table.kernels.size());
            m_table.kernels.push_back(std::move(kernel));
        }
        NcuKernel& kernel = m_table.kernels[*found];
        if (record.value(m_name).trimmed() != kernel.name)
            return errorAt(
                record.line, record.columnOf(m_name),
                u"kernel ID "_s + kernelId + u" is named differently than on line "_s + QString::number(kernel.line));
        if (metricName == kDeviceNameMetric && !record.value(m_value).trimmed().isEmpty())
            kernel.deviceName = record.value(m_value).trimmed();
        if (!keep)
            return std::nullopt;
        const NcuCell cell{record.value(m_value), record.value(m_unit).trimmed(), record.line,
                           record.columnOf(m_value)};
        const auto previous = kernel.metrics.constFind(metricName);
        if (previous != kernel.metrics.constEnd() && (previous->value != cell.value || previous->unit != cell.unit))
            return errorAt(record.line, cell.column,
                           u"kernel ID "_s + kernelId + u" has two different values for "_s + metricName +
                               u" (also line "_s + QString::number(previous->line) + u')');
        kernel.metrics.insert(metricName, cell);
        return std::nullopt;
    }

    std::optional<Error> unitsRow(CsvRecord&& record)
    {
        const qsizetype identity = m_id >= 0 ? m_id : m_name;  // empty in the units row
        if (!record.value(identity).trimmed().isEmpty())
            return errorAt(record.line, record.columnOf(identity),
                           u"expected the units row of `ncu --page raw --csv` here (an empty ID and units such as "
                           "\"byte\" or \"nsecond\"), got a kernel row"_s);
        for (auto it = m_header->columns().cbegin(); it != m_header->columns().cend(); ++it)
            if (it.key().contains(u"__"_s) && m_keep(it.key()))
                m_rawMetrics.emplace_back(it.key(), it.value());
        m_units = std::move(record);
        return std::nullopt;
    }

    std::optional<Error> rawRow(const CsvRecord& record)
    {
        NcuKernel kernel;
        if (auto error = newKernel(record, kernel))
            return error;
        if (m_id >= 0 && m_lineById.contains(kernel.id))
            return errorAt(record.line, record.columnOf(m_id),
                           u"kernel ID "_s + kernel.id + u" appears twice (also line "_s +
                               QString::number(m_lineById.value(kernel.id)) + u')');
        m_lineById.insert(kernel.id, record.line);
        for (const auto& [metric, column] : m_rawMetrics)
            kernel.metrics.insert(metric, NcuCell{record.value(column), m_units->value(column).trimmed(), record.line,
                                                  record.columnOf(column)});
        m_table.kernels.push_back(std::move(kernel));
        return std::nullopt;
    }

    const std::function<bool(QStringView)>& m_keep;
    NcuTable m_table;
    std::optional<Header> m_header;
    std::optional<CsvRecord> m_units;
    std::vector<std::pair<QString, qsizetype>> m_rawMetrics;  // kept metric -> column, raw page
    struct {
        int first = 0;
        int count = 0;
    } m_before;  // lines before the header
    qsizetype m_id = -1;
    qsizetype m_name = -1;
    qsizetype m_section = -1;
    qsizetype m_metric = -1;
    qsizetype m_unit = -1;
    qsizetype m_value = -1;
    qsizetype m_grid = -1;
    qsizetype m_block = -1;
    qsizetype m_device = -1;
    qsizetype m_deviceName = -1;  // raw page: the device__attribute_display_name column
    qsizetype m_cc = -1;
    QHash<QString, std::size_t> m_byId;
    QHash<QString, int> m_lineById;
};

}  // namespace

bool isNsightLogLine(QStringView line)
{
    return line.startsWith(u"==PROF=="_s) || line.startsWith(u"==WARNING=="_s) || line.startsWith(u"==ERROR=="_s);
}

bool looksLikeNcuHeader(QStringView line)
{
    return line.contains(u"Kernel Name"_s) && (line.contains(u"\"ID\""_s) || line.startsWith(u"ID,"_s) ||
                                               line.contains(u"Metric Name"_s) || line.contains(u"__"_s));
}

Result<NcuTable> readNcuTable(const QString& text, const std::function<bool(QStringView)>& keep,
                              std::vector<SkippedRow>& skipped)
{
    // Lines before the header are the profiled program's output (tracebacks with quotes, tables...): they are
    // skipped as raw text, never read as CSV.
    QStringList errors;
    bool header = false;
    int firstBefore = 0;
    int countBefore = 0;
    CsvOptions options;
    options.skipLine = [&](QStringView line, int number) {
        if (isNsightLogLine(line)) {
            if (line.startsWith(u"==ERROR=="_s) && errors.size() < 100)
                errors.append(line.trimmed().toString());
            return true;
        }
        if (header || line.trimmed().isEmpty())
            return false;
        header = looksLikeNcuHeader(line);
        if (!header) {
            firstBefore = firstBefore == 0 ? number : firstBefore;
            ++countBefore;
        }
        return !header;
    };
    NcuTableReader reader(keep);
    const auto onRecord = [&reader](CsvRecord&& record) { return reader.onRecord(std::move(record)); };
    if (auto error = forEachCsvRecord(text, options, onRecord))
        return *error;
    if (countBefore > 0)
        skipped.insert(skipped.begin(),
                       SkippedRow{firstBefore, QString(),
                                  QString::number(countBefore) + (countBefore == 1 ? u" line"_s : u" lines"_s) +
                                      u" before the table, not part of it (the profiled program's "
                                      "output?)"_s});
    return reader.finish(std::move(errors), firstBefore, countBefore);
}

}  // namespace ridgeline
