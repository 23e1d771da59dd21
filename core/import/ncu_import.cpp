#include "core/import/ncu_import.h"

#include "core/import/csv_reader.h"
#include "core/import/import_text.h"
#include "core/import/imported_kernel.h"
#include "core/import/kernel_names.h"

#include <QHash>

#include <array>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kTime = u"gpu__time_duration.sum"_s;
const QString kTimeLabel = u"Duration"_s;  // the SpeedOfLight section's row for the same metric
const QString kDram = u"dram__bytes.sum"_s;
const QString kDramRead = u"dram__bytes_read.sum"_s;
const QString kDramWrite = u"dram__bytes_write.sum"_s;
const QString kL2 = u"lts__t_bytes.sum"_s;
const QString kL1 = u"l1tex__t_bytes.sum"_s;
const QString kTensor = u"sm__inst_executed_pipe_tensor.sum"_s;
// Nsight Compute's own tensor roofline section (SpeedOfLight_HierarchicalTensorRooflineChart) counts each
// tensor-pipe instruction as 512 FLOPs; per-architecture shapes differ, so the kernel says it was counted.
constexpr double kFlopsPerTensorInstruction = 512.0;

QString flopMetric(QChar precision, const QString& op)
{
    return u"sm__sass_thread_inst_executed_op_"_s + precision + op + u"_pred_on.sum"_s;
}

bool isFlopMetric(const QString& name)
{
    return name.startsWith(u"sm__sass_thread_inst_executed_op_"_s) && name.endsWith(u"_pred_on.sum"_s);
}

bool isUsedMetric(const QString& name)
{
    return isFlopMetric(name) || name == kTime || name == kTimeLabel || name == kDram || name == kDramRead ||
           name == kDramWrite || name == kL2 || name == kL1 || name == kTensor;
}

// One metric value of one kernel, where it was found.
struct Cell {
    QString value;
    QString unit;
    int line = 0;
    int column = 0;
};

struct NcuKernel {
    QString id;
    QString name;
    QString grid;
    QString block;
    int line = 0;
    int nameColumn = 0;
    QHash<QString, Cell> metrics;
};

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
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
    const CsvRecord& record() const { return m_record; }
    const QHash<QString, qsizetype>& columns() const { return m_columns; }

private:
    CsvRecord m_record;
    QHash<QString, qsizetype> m_columns;
};

std::optional<Error> checkWidth(const CsvRecord& record, const Header& header)
{
    if (record.size() == header.size())
        return std::nullopt;
    const bool fewer = record.size() < header.size();
    return errorAt(record.line, record.columnOf(fewer ? record.size() : header.size()),
                   QString::number(record.size()) + u" fields where the header on line "_s +
                       QString::number(header.record().line) + u" has "_s + QString::number(header.size()) +
                       (fewer ? u" (a truncated line?)"_s : u" (an unquoted comma?)"_s));
}

// "Kernel Name" and either "ID", "Metric Name" or metric columns: scripts sometimes drop the ID column.
bool isHeader(const CsvRecord& record)
{
    bool id = false;
    bool name = false;
    for (const CsvField& field : record.fields) {
        const QString text = field.text.trimmed();
        id = id || text == u"ID"_s || text == u"Metric Name"_s || text.contains(u"__"_s);
        name = name || text == u"Kernel Name"_s;
    }
    return id && name;
}

// Reads the records as they stream past, keeping only the metrics it uses, so that a 100 MB export is
// never held as a table. Details: rows grouped by ID in order of first appearance. Raw: a units row
// under the header, then one row per kernel.
class NcuTableReader {
public:
    explicit NcuTableReader(std::vector<SkippedRow>& skipped) : m_skipped(skipped) {}

    std::optional<Error> onRecord(CsvRecord&& record)
    {
        if (!m_header) {
            if (!isHeader(record)) {
                // The profiled program's own output, when ncu's stdout was saved.
                m_skipped.push_back(SkippedRow{record.line, QString(), u"not part of the Nsight Compute table"_s});
                m_firstLine = m_firstLine == 0 ? record.line : m_firstLine;
                return std::nullopt;
            }
            return readHeader(record);
        }
        if (auto error = checkWidth(record, *m_header))
            return error;
        if (m_details)
            return detailsRow(record);
        if (!m_units)
            return unitsRow(std::move(record));
        return rawRow(record);
    }

    // After the last record: the kernels, or why there are none.
    Result<std::vector<NcuKernel>> finish()
    {
        if (!m_header)
            return errorAt(m_firstLine == 0 ? 1 : m_firstLine, 1,
                           u"no Nsight Compute header (a row with \"ID\" and \"Kernel Name\" columns)"_s);
        if (!m_details && !m_units)
            return errorAt(m_header->record().line + 1, 1,
                           u"the units row under the header is missing (a truncated `ncu --page raw --csv` file?)"_s);
        if (m_kernels.empty())
            return errorAt(m_header->record().line + (m_details ? 1 : 2), 1, u"no kernel rows after the header"_s);
        return std::move(m_kernels);
    }

    bool details() const { return m_details; }
    int headerLine() const { return m_header ? m_header->record().line : 1; }

private:
    std::optional<Error> readHeader(const CsvRecord& record)
    {
        auto header = Header::read(record);
        if (!header.ok())
            return header.error();
        m_header = std::move(header).value();
        m_details = m_header->has(u"Metric Name"_s);
        if (m_details) {
            for (const QString& name : {u"Metric Unit"_s, u"Metric Value"_s})
                if (!m_header->has(name))
                    return errorAt(record.line, 1, u"no \""_s + name + u"\" column in the Nsight Compute header"_s);
        }
        m_id = m_header->index(u"ID"_s);
        m_name = m_header->index(u"Kernel Name"_s);
        m_metric = m_header->index(u"Metric Name"_s);
        m_unit = m_header->index(u"Metric Unit"_s);
        m_value = m_header->index(u"Metric Value"_s);
        m_grid = m_header->index(u"Grid Size"_s);
        m_block = m_header->index(u"Block Size"_s);
        return std::nullopt;
    }

    // Without an ID column, kernels are numbered in order from 0, as ncu numbers them.
    std::optional<Error> newKernel(const CsvRecord& record, NcuKernel& kernel) const
    {
        kernel.id = m_id >= 0 ? record.value(m_id).trimmed() : QString::number(m_kernels.size());
        kernel.name = record.value(m_name).trimmed();
        kernel.line = record.line;
        kernel.nameColumn = record.columnOf(m_name);
        kernel.grid = record.value(m_grid).trimmed();
        kernel.block = record.value(m_block).trimmed();
        if (kernel.id.isEmpty())
            return errorAt(record.line, record.columnOf(m_id), u"an empty kernel ID"_s);
        if (kernel.name.isEmpty())
            return errorAt(record.line, record.columnOf(m_name), u"an empty kernel name"_s);
        return std::nullopt;
    }

    // Without an ID column a row belongs to the kernel before it, unless the name changes or the metric
    // repeats (the next launch of the same kernel).
    QString detailsId(const CsvRecord& record) const
    {
        if (m_id >= 0)
            return record.value(m_id).trimmed();
        if (m_kernels.empty())
            return QString::number(0);
        const NcuKernel& last = m_kernels.back();
        const QString metricName = record.value(m_metric).trimmed();
        const bool same = last.name == record.value(m_name).trimmed() &&
                          !(isUsedMetric(metricName) && last.metrics.contains(metricName));
        return same ? last.id : QString::number(m_kernels.size());
    }

    std::optional<Error> detailsRow(const CsvRecord& record)
    {
        const QString kernelId = detailsId(record);
        auto found = m_byId.constFind(kernelId);
        if (found == m_byId.constEnd()) {
            NcuKernel kernel;
            if (auto error = newKernel(record, kernel))
                return error;
            found = m_byId.insert(kernelId, m_kernels.size());
            m_kernels.push_back(std::move(kernel));
        }
        NcuKernel& kernel = m_kernels[*found];
        if (record.value(m_name).trimmed() != kernel.name)
            return errorAt(
                record.line, record.columnOf(m_name),
                u"kernel ID "_s + kernelId + u" is named differently than on line "_s + QString::number(kernel.line));
        const QString metricName = record.value(m_metric).trimmed();
        if (!isUsedMetric(metricName))
            return std::nullopt;
        const Cell cell{record.value(m_value), record.value(m_unit).trimmed(), record.line, record.columnOf(m_value)};
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
            if (isUsedMetric(it.key()))
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
            kernel.metrics.insert(metric, Cell{record.value(column), m_units->value(column).trimmed(), record.line,
                                               record.columnOf(column)});
        m_kernels.push_back(std::move(kernel));
        return std::nullopt;
    }

    std::vector<SkippedRow>& m_skipped;
    std::optional<Header> m_header;
    std::optional<CsvRecord> m_units;
    std::vector<std::pair<QString, qsizetype>> m_rawMetrics;  // used metric -> column, raw shape
    bool m_details = false;
    int m_firstLine = 0;
    qsizetype m_id = -1;
    qsizetype m_name = -1;
    qsizetype m_metric = -1;
    qsizetype m_unit = -1;
    qsizetype m_value = -1;
    qsizetype m_grid = -1;
    qsizetype m_block = -1;
    std::vector<NcuKernel> m_kernels;
    QHash<QString, std::size_t> m_byId;
    QHash<QString, int> m_lineById;
};

// Values of one kernel's metrics, converted to base units; a missing or "n/a" metric reads as nullopt.
class MetricReader {
public:
    explicit MetricReader(const NcuKernel& kernel) : m_kernel(kernel) {}

    std::optional<double> value(const QString& metric, const QString& baseUnit)
    {
        const auto it = m_kernel.metrics.constFind(metric);
        if (it == m_kernel.metrics.constEnd() || m_error)
            return std::nullopt;
        const QString text = it->value.trimmed();
        if (text.isEmpty() || text.compare(u"n/a"_s, Qt::CaseInsensitive) == 0)
            return std::nullopt;
        const Result<double> number = parseNumber(text, Thousands::Comma);
        if (!number.ok()) {
            m_error = errorAt(it->line, it->column, metric + u": "_s + number.error().message);
            return std::nullopt;
        }
        const std::optional<double> scale = unitScale(it->unit, baseUnit);
        if (!scale) {
            m_error = errorAt(it->line, it->column,
                              metric + u": unknown unit \""_s + it->unit + u"\" (expected "_s + baseUnit +
                                  (baseUnit == u"second"_s ? u", nsecond, usecond or msecond)"_s
                                                           : u" or K/M/G/T"_s + baseUnit + u')'));
            return std::nullopt;
        }
        return number.value() * *scale;
    }
    bool has(const QString& metric) const { return m_kernel.metrics.contains(metric); }
    const std::optional<Error>& error() const { return m_error; }

private:
    const NcuKernel& m_kernel;
    std::optional<Error> m_error;
};

struct Evaluated {
    std::optional<KernelResult> kernel;  // nullopt: skipped with `reason`
    QString reason;
};

Result<Evaluated> evaluate(const NcuKernel& source, const QString& sourceName)
{
    MetricReader in(source);
    Evaluated out;
    KernelResult kernel;
    kernel.kind = u"imported"_s;
    kernel.source = sourceName;
    const QString fullName = demangledName(source.name);
    kernel.name = shortKernelName(fullName);
    if (kernel.name != fullName)
        kernel.fullName = fullName;
    if (!source.grid.isEmpty() || !source.block.isEmpty())
        kernel.size = u"grid "_s + source.grid + u" block "_s + source.block;

    std::optional<double> seconds = in.value(kTime, u"second"_s);
    if (!seconds && !in.has(kTime))
        seconds = in.value(kTimeLabel, u"second"_s);

    double flops = 0.0;
    QString precision;
    int precisions = 0;
    const std::array<std::pair<QChar, QString>, 3> kinds = {{{u'd', u"fp64"_s}, {u'f', u"fp32"_s}, {u'h', u"fp16"_s}}};
    for (const auto& [letter, name] : kinds) {
        const double add = in.value(flopMetric(letter, u"add"_s), u"inst"_s).value_or(0.0);
        const double mul = in.value(flopMetric(letter, u"mul"_s), u"inst"_s).value_or(0.0);
        const double fma = in.value(flopMetric(letter, u"fma"_s), u"inst"_s).value_or(0.0);
        const double these = add + mul + 2.0 * fma;  // an FMA is two FLOPs
        if (these > 0.0) {
            precision = name;
            ++precisions;
        }
        flops += these;
    }
    // "n/a" (not collected for this kernel) is not counted, and the kernel says so.
    if (const std::optional<double> instructions = in.value(kTensor, u"inst"_s)) {
        const double tensor = *instructions * kFlopsPerTensorInstruction;
        kernel.tensorFlopsCounted = true;
        if (tensor > 0.0) {
            precision = u"tensor"_s;
            ++precisions;
        }
        flops += tensor;
    }
    kernel.precision = precisions > 1 ? u"mixed"_s : precision;

    std::optional<double> dram = in.value(kDram, u"byte"_s);
    if (!dram && !in.has(kDram)) {
        const std::optional<double> read = in.value(kDramRead, u"byte"_s);
        const std::optional<double> write = in.value(kDramWrite, u"byte"_s);
        if (read || write)
            dram = read.value_or(0.0) + write.value_or(0.0);
    }
    const std::optional<double> l2 = in.value(kL2, u"byte"_s);
    const std::optional<double> l1 = in.value(kL1, u"byte"_s);
    if (in.error())
        return *in.error();

    if (!seconds) {
        out.reason = u"no gpu__time_duration.sum value"_s;
        return out;
    }
    if (*seconds <= 0.0) {
        out.reason = u"a time of 0"_s;
        return out;
    }
    if (flops <= 0.0) {
        out.reason = u"no floating-point instructions executed (a copy, integer or tensor-only kernel?)"_s;
        return out;
    }
    // The primary point is the outermost level with traffic; the others join it as levels.
    const std::array<std::pair<QString, std::optional<double>>, 3> levels = {
        {{u"DRAM"_s, dram}, {u"L2"_s, l2}, {u"L1"_s, l1}}};
    for (const auto& [level, bytes] : levels) {
        if (!bytes || *bytes <= 0.0)
            continue;
        if (kernel.level.isEmpty()) {
            kernel.level = level;
            kernel.bytes = *bytes;
        } else {
            kernel.levels.push_back(LevelPoint{level, *bytes, 0.0, 0.0});
        }
    }
    if (kernel.level.isEmpty()) {
        out.reason =
            u"no memory traffic (dram__bytes.sum, lts__t_bytes.sum and l1tex__t_bytes.sum are 0 or "
            "missing)"_s;
        return out;
    }
    kernel.flops = flops;
    kernel.seconds = *seconds;
    if (const auto problem = completeImportedKernel(kernel))
        return errorAt(source.line, source.nameColumn, u"kernel ID "_s + source.id + u": "_s + *problem);
    out.kernel = std::move(kernel);
    return out;
}

}  // namespace

bool isNsightLogLine(QStringView line)
{
    return line.startsWith(u"==PROF=="_s) || line.startsWith(u"==WARNING=="_s) || line.startsWith(u"==ERROR=="_s);
}

Result<ImportResult> importNsightCompute(const QString& text, const QString& fileName)
{
    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::NsightCompute;
    CsvOptions options;
    options.skipLine = isNsightLogLine;
    NcuTableReader reader(result.skipped);
    const auto onRecord = [&reader](CsvRecord&& record) { return reader.onRecord(std::move(record)); };
    if (auto error = forEachCsvRecord(text, options, onRecord))
        return *error;
    const auto kernels = reader.finish();
    if (!kernels.ok())
        return kernels.error();
    const bool details = reader.details();

    // Metrics the file must offer at all; a kernel without one of them is skipped, a file without is an error.
    bool anyTime = false;
    bool anyFlops = false;
    bool anyBytes = false;
    int tensorCounted = 0;
    for (const NcuKernel& kernel : kernels.value()) {
        for (auto it = kernel.metrics.cbegin(); it != kernel.metrics.cend(); ++it) {
            anyTime = anyTime || it.key() == kTime || it.key() == kTimeLabel;
            anyFlops = anyFlops || isFlopMetric(it.key()) || it.key() == kTensor;
            anyBytes = anyBytes || it.key() == kDram || it.key() == kDramRead || it.key() == kDramWrite ||
                       it.key() == kL2 || it.key() == kL1;
        }
    }
    const int headerLine = reader.headerLine();
    if (!anyTime)
        return errorAt(headerLine, 1,
                       u"no gpu__time_duration.sum metric; profile with --metrics "
                       "gpu__time_duration.sum,dram__bytes.sum,sm__sass_thread_inst_executed_op_*"_s);
    if (!anyFlops)
        return errorAt(headerLine, 1,
                       u"no FLOP metric (sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}"
                       "_pred_on.sum); they are needed to place kernels on a roofline"_s);
    if (!anyBytes)
        return errorAt(headerLine, 1,
                       u"no memory traffic metric (dram__bytes.sum, lts__t_bytes.sum or "
                       "l1tex__t_bytes.sum)"_s);

    // ncu reports the same metrics for every kernel: one that lacks some was cut short (a truncated file),
    // and reading it would silently undercount its FLOPs or bytes.
    QStringList used;
    for (const NcuKernel& kernel : kernels.value())
        for (auto it = kernel.metrics.cbegin(); it != kernel.metrics.cend(); ++it)
            if (isUsedMetric(it.key()) && !used.contains(it.key()))
                used.append(it.key());
    used.sort();
    for (const NcuKernel& kernel : kernels.value()) {
        for (const QString& metric : used) {
            if (!kernel.metrics.contains(metric))
                return errorAt(kernel.line, kernel.nameColumn,
                               u"kernel ID "_s + kernel.id + u" has no "_s + metric +
                                   u" row while other kernels have one (a truncated file?)"_s);
        }
    }

    const QString sourceName = importSource(fileName, u"ncu"_s);
    for (const NcuKernel& kernel : kernels.value()) {
        const auto evaluated = evaluate(kernel, sourceName);
        if (!evaluated.ok())
            return evaluated.error();
        if (!evaluated.value().kernel) {
            result.skipped.push_back(SkippedRow{
                kernel.line, shortKernelName(kernel.name) + u" (ID "_s + kernel.id + u')', evaluated.value().reason});
            continue;
        }
        tensorCounted += evaluated.value().kernel->tensorFlopsCounted ? 1 : 0;
        result.kernels.push_back(*evaluated.value().kernel);
    }
    result.notes.append(details ? u"Nsight Compute details CSV (one row per metric)"_s
                                : u"Nsight Compute raw CSV (one column per metric, units in row 2)"_s);
    if (tensorCounted > 0)
        result.notes.append(u"tensor FLOPs counted (512 per sm__inst_executed_pipe_tensor.sum instruction) for "_s +
                            QString::number(tensorCounted) + u" of "_s + QString::number(result.kernels.size()) +
                            u" kernels"_s);
    else
        result.notes.append(u"no tensor-pipe metric: tensor-core FLOPs are not counted"_s);
    return result;
}

}  // namespace ridgeline
