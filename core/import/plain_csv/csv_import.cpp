#include "core/import/plain_csv/csv_import.h"

#include "core/import/kernel/imported_kernel.h"
#include "core/import/text/csv_reader.h"
#include "core/import/text/import_text.h"

#include <QHash>

#include <array>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

enum Column { Name, Flops, Bytes, Seconds, Level, Precision, Group, ColumnCount };
const std::array<QString, ColumnCount> kColumnNames = {u"name"_s,  u"flops"_s,     u"bytes"_s, u"seconds"_s,
                                                       u"level"_s, u"precision"_s, u"group"_s};
constexpr int kMaxTextChars = 4096;  // what a session holds per string

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

bool sameValue(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

struct Row {
    KernelResult kernel;
    int line = 0;
};

// Where each column is in the file (-1: absent).
using ColumnIndex = std::array<qsizetype, ColumnCount>;

qsizetype columnAt(const ColumnIndex& index, Column column)
{
    return index[static_cast<std::size_t>(column)];
}

// Header: known names only, each once, the four required ones present.
Result<ColumnIndex> readHeader(const CsvRecord& header)
{
    if (header.size() == 1 && header.value(0).count(u';') >= 3)
        return errorAt(header.line, header.columnOf(0) + static_cast<int>(header.value(0).indexOf(u';')),
                       u"semicolon-separated (a spreadsheet saved with a European locale?); save it comma-separated "
                       "with '.' as the decimal point"_s);
    ColumnIndex index;
    index.fill(-1);
    for (qsizetype i = 0; i < header.size(); ++i) {
        const QString name = header.value(i).trimmed().toLower();
        const auto known = std::find(kColumnNames.cbegin(), kColumnNames.cend(), name);
        if (known == kColumnNames.cend())
            return errorAt(header.line, header.columnOf(i),
                           u"unknown column \""_s + header.value(i).trimmed().left(40) +
                               u"\"; the columns are name, flops, bytes, seconds and optionally level, precision, "
                               "group"_s);
        const auto column = static_cast<std::size_t>(known - kColumnNames.cbegin());
        if (index[column] >= 0)
            return errorAt(header.line, header.columnOf(i),
                           u"the column \""_s + name + u"\" appears twice (also column "_s +
                               QString::number(header.columnOf(index[column])) + u')');
        index[column] = i;
    }
    for (int column : {Name, Flops, Bytes, Seconds}) {
        if (index[static_cast<std::size_t>(column)] < 0)
            return errorAt(header.line, header.columnOf(header.size()),
                           u"the header has no \""_s + kColumnNames[static_cast<std::size_t>(column)] +
                               u"\" column (needed: name, flops, bytes, seconds)"_s);
    }
    return index;
}

// One data row into a kernel: as many fields as the header, none too long, a name and three numbers.
Result<Row> readRow(const CsvRecord& record, qsizetype headerSize, const ColumnIndex& index, const QString& source)
{
    if (record.size() != headerSize) {
        const bool fewer = record.size() < headerSize;
        return errorAt(record.line, record.columnOf(fewer ? record.size() : headerSize),
                       QString::number(record.size()) + u" fields where the header has "_s +
                           QString::number(headerSize) +
                           (fewer ? u" (a truncated line?)"_s : u" (an unquoted comma, or a decimal comma?)"_s));
    }
    for (qsizetype i = 0; i < record.size(); ++i)
        if (record.value(i).size() > kMaxTextChars)
            return errorAt(record.line, record.columnOf(i), u"a field longer than 4096 characters"_s);
    Row row;
    row.line = record.line;
    KernelResult& kernel = row.kernel;
    kernel.kind = u"imported"_s;
    kernel.source = source;
    kernel.name = record.value(columnAt(index, Name)).trimmed();
    if (kernel.name.isEmpty())
        return errorAt(record.line, record.columnOf(columnAt(index, Name)), u"an empty kernel name"_s);
    double* targets[] = {&kernel.flops, &kernel.bytes, &kernel.seconds};
    const Column numberColumns[] = {Flops, Bytes, Seconds};
    for (std::size_t k = 0; k < 3; ++k) {
        const qsizetype column = columnAt(index, numberColumns[k]);
        const Result<double> number = parseNumber(record.value(column), Thousands::Refuse);
        if (!number.ok())
            return errorAt(record.line, record.columnOf(column),
                           kColumnNames[static_cast<std::size_t>(numberColumns[k])] + u": "_s + number.error().message);
        *targets[k] = number.value();
    }
    kernel.level = record.value(columnAt(index, Level)).trimmed();
    kernel.precision = record.value(columnAt(index, Precision)).trimmed();
    kernel.group = record.value(columnAt(index, Group)).trimmed();
    return row;
}

// Another level of a kernel already read: same FLOPs and time, other bytes. DRAM becomes the primary point.
std::optional<Error> joinLevel(KernelResult& joined, int joinedLine, const KernelResult& kernel,
                               const CsvRecord& record, const ColumnIndex& index)
{
    if (!sameValue(joined.flops, kernel.flops) || !sameValue(joined.seconds, kernel.seconds))
        return errorAt(
            record.line,
            record.columnOf(sameValue(joined.flops, kernel.flops) ? columnAt(index, Seconds) : columnAt(index, Flops)),
            u"\""_s + kernel.name + u"\" at level "_s + kernel.level + u" has other flops or seconds than on line "_s +
                QString::number(joinedLine) + u"; the levels of one kernel share them"_s);
    bool duplicate = joined.level == kernel.level;
    for (const LevelPoint& point : joined.levels)
        duplicate = duplicate || point.level == kernel.level;
    if (duplicate)
        return errorAt(record.line, record.columnOf(columnAt(index, Level)),
                       u"\""_s + kernel.name + u"\" has level "_s + kernel.level + u" twice"_s);
    if (kernel.level.compare(u"DRAM"_s, Qt::CaseInsensitive) == 0) {
        // DRAM is the primary point; the first row's level joins the others.
        joined.levels.insert(joined.levels.begin(), LevelPoint{joined.level, joined.bytes, 0.0, 0.0});
        joined.level = kernel.level;
        joined.bytes = kernel.bytes;
    } else {
        joined.levels.push_back(LevelPoint{kernel.level, kernel.bytes, 0.0, 0.0});
    }
    return std::nullopt;
}

// Lines in `text`, whatever its line ends (LF, CRLF or a classic Mac's CR).
qsizetype lineCount(QStringView text)
{
    qsizetype lines = 1;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const bool lone = text[i] == u'\r' && (i + 1 == text.size() || text[i + 1] != u'\n');
        if (text[i] == u'\n' || lone)
            ++lines;
    }
    return lines;
}

// Why a kernel cannot be a point (a zero FLOPs, bytes or time), or nothing.
std::optional<QString> zeroReason(const KernelResult& kernel)
{
    if (kernel.flops == 0.0)
        return u"0 FLOPs"_s;
    if (kernel.bytes == 0.0)
        return u"0 bytes"_s;
    if (kernel.seconds == 0.0)
        return u"a time of 0 seconds"_s;
    return std::nullopt;
}

}  // namespace

namespace {

// The file's rows, read one record at a time: no table of all records is ever held, so memory follows the kernels
// kept, not the file's rows. Each kernel is made in its place in the result, room for all of them taken at once:
// a growing table of kernels would hold one and a half of it while it moves.
class PlainCsvRows {
public:
    PlainCsvRows(ImportResult& result, const QString& fileName, std::size_t expectedRows)
        : m_result(result), m_source(importSource(fileName, u"csv"_s))
    {
        m_result.kernels.reserve(std::min(expectedRows, kMaxImportedKernels));
        m_lines.reserve(m_result.kernels.capacity());
    }

    std::optional<Error> onRecord(CsvRecord&& record)
    {
        if (!m_index) {
            Result<ColumnIndex> index = readHeader(record);
            if (!index)
                return index.error();
            m_index = index.value();
            m_headerSize = record.size();
            return std::nullopt;
        }
        ++m_rows;
        Result<Row> row = readRow(record, m_headerSize, *m_index, m_source);
        if (!row)
            return row.error();
        const KernelResult& kernel = row.value().kernel;
        if (const std::optional<QString> zero = zeroReason(kernel)) {
            const QString what = kernel.name + (kernel.level.isEmpty() ? QString() : u" ("_s + kernel.level + u')');
            m_result.skipped.push_back(SkippedRow{record.line, what, *zero});
            return std::nullopt;
        }
        if (!kernel.level.isEmpty()) {
            const QString key = kernel.name + u'\x1f' + kernel.group;
            const auto found = m_byNameAndGroup.constFind(key);
            if (found != m_byNameAndGroup.constEnd())
                return joinLevel(m_result.kernels[*found], m_lines[*found], kernel, record, *m_index);
            m_byNameAndGroup.insert(key, m_result.kernels.size());
        }
        if (m_result.kernels.size() == kMaxImportedKernels)
            return errorAt(record.line, 1, tooManyKernels());
        m_result.kernels.push_back(std::move(row.value().kernel));
        m_lines.push_back(record.line);
        return std::nullopt;
    }

    std::optional<Error> finish()
    {
        if (!m_index)
            return errorAt(1, 1, u"no header: the file has only comments or blank lines"_s);
        for (std::size_t i = 0; i < m_result.kernels.size(); ++i) {
            KernelResult& kernel = m_result.kernels[i];
            if (const auto problem = completeImportedKernel(kernel))
                return errorAt(m_lines[i], 1, u"\""_s + kernel.name + u"\": "_s + *problem);
        }
        if (m_rows == 0)
            m_result.notes.append(u"the file has a header and no rows"_s);
        return std::nullopt;
    }

private:
    ImportResult& m_result;
    const QString m_source;
    std::optional<ColumnIndex> m_index;
    qsizetype m_headerSize = 0;
    qsizetype m_rows = 0;
    std::vector<int> m_lines;                      // each kernel's line in the file
    QHash<QString, std::size_t> m_byNameAndGroup;  // kernels with a level, for joining their other levels
};

}  // namespace

Result<ImportResult> importPlainCsv(const QString& text, const QString& fileName)
{
    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::PlainCsv;
    // Every line but the header may be a kernel; comments and other levels of a kernel leave room unused.
    PlainCsvRows rows(result, fileName, static_cast<std::size_t>(lineCount(text)));
    CsvOptions options;
    options.skipLine = [](QStringView line, int) { return line.trimmed().startsWith(u'#'); };
    if (auto error =
            forEachCsvRecord(text, options, [&rows](CsvRecord&& record) { return rows.onRecord(std::move(record)); }))
        return *error;
    if (auto error = rows.finish())
        return *error;
    return result;
}

}  // namespace ridgeline
