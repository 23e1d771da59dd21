#include "core/import/csv_import.h"

#include "core/import/csv_reader.h"
#include "core/import/import_text.h"
#include "core/import/imported_kernel.h"

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

}  // namespace

Result<ImportResult> importPlainCsv(const QString& text, const QString& fileName)
{
    CsvOptions options;
    options.skipLine = [](QStringView line, int) { return line.trimmed().startsWith(u'#'); };
    const auto records = readCsv(text, options);
    if (!records.ok())
        return records.error();
    const std::vector<CsvRecord>& rows = records.value();
    if (rows.empty())
        return errorAt(1, 1, u"no header: the file has only comments or blank lines"_s);

    // Header: known names only, each once, the four required ones present.
    const CsvRecord& header = rows.front();
    if (header.size() == 1 && header.value(0).count(u';') >= 3)
        return errorAt(header.line, header.columnOf(0) + static_cast<int>(header.value(0).indexOf(u';')),
                       u"semicolon-separated (a spreadsheet saved with a European locale?); save it comma-separated "
                       "with '.' as the decimal point"_s);
    std::array<qsizetype, ColumnCount> index;
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
    const auto at = [&index](Column column) { return index[static_cast<std::size_t>(column)]; };

    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::PlainCsv;
    const QString source = importSource(fileName, u"csv"_s);
    std::vector<Row> kernels;
    QHash<QString, std::size_t> byNameAndGroup;  // kernels with a level, for joining their other levels

    for (std::size_t r = 1; r < rows.size(); ++r) {
        const CsvRecord& record = rows[r];
        if (record.size() != header.size()) {
            const bool fewer = record.size() < header.size();
            return errorAt(record.line, record.columnOf(fewer ? record.size() : header.size()),
                           QString::number(record.size()) + u" fields where the header has "_s +
                               QString::number(header.size()) +
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
        kernel.name = record.value(at(Name)).trimmed();
        if (kernel.name.isEmpty())
            return errorAt(record.line, record.columnOf(at(Name)), u"an empty kernel name"_s);
        double* targets[] = {&kernel.flops, &kernel.bytes, &kernel.seconds};
        const Column numberColumns[] = {Flops, Bytes, Seconds};
        for (std::size_t k = 0; k < 3; ++k) {
            const qsizetype column = at(numberColumns[k]);
            const Result<double> number = parseNumber(record.value(column), Thousands::Refuse);
            if (!number.ok())
                return errorAt(
                    record.line, record.columnOf(column),
                    kColumnNames[static_cast<std::size_t>(numberColumns[k])] + u": "_s + number.error().message);
            *targets[k] = number.value();
        }
        kernel.level = record.value(at(Level)).trimmed();
        kernel.precision = record.value(at(Precision)).trimmed();
        kernel.group = record.value(at(Group)).trimmed();
        const QString what = kernel.name + (kernel.level.isEmpty() ? QString() : u" ("_s + kernel.level + u')');
        if (kernel.flops == 0.0 || kernel.bytes == 0.0 || kernel.seconds == 0.0) {
            result.skipped.push_back(SkippedRow{record.line, what,
                                                kernel.flops == 0.0   ? u"0 FLOPs"_s
                                                : kernel.bytes == 0.0 ? u"0 bytes"_s
                                                                      : u"a time of 0 seconds"_s});
            continue;
        }
        if (kernel.level.isEmpty()) {
            kernels.push_back(std::move(row));
            continue;
        }
        const QString key = kernel.name + u'\x1f' + kernel.group;
        const auto found = byNameAndGroup.constFind(key);
        if (found == byNameAndGroup.constEnd()) {
            byNameAndGroup.insert(key, kernels.size());
            kernels.push_back(std::move(row));
            continue;
        }
        // Another level of a kernel already read: same FLOPs and time, other bytes.
        KernelResult& first = kernels[*found].kernel;
        const int firstLine = kernels[*found].line;
        if (!sameValue(first.flops, kernel.flops) || !sameValue(first.seconds, kernel.seconds))
            return errorAt(record.line, record.columnOf(sameValue(first.flops, kernel.flops) ? at(Seconds) : at(Flops)),
                           u"\""_s + kernel.name + u"\" at level "_s + kernel.level +
                               u" has other flops or seconds than on line "_s + QString::number(firstLine) +
                               u"; the levels of one kernel share them"_s);
        bool duplicate = first.level == kernel.level;
        for (const LevelPoint& point : first.levels)
            duplicate = duplicate || point.level == kernel.level;
        if (duplicate)
            return errorAt(record.line, record.columnOf(at(Level)),
                           u"\""_s + kernel.name + u"\" has level "_s + kernel.level + u" twice"_s);
        if (kernel.level.compare(u"DRAM"_s, Qt::CaseInsensitive) == 0) {
            // DRAM is the primary point; the first row's level joins the others.
            first.levels.insert(first.levels.begin(), LevelPoint{first.level, first.bytes, 0.0, 0.0});
            first.level = kernel.level;
            first.bytes = kernel.bytes;
        } else {
            first.levels.push_back(LevelPoint{kernel.level, kernel.bytes, 0.0, 0.0});
        }
    }
    for (Row& row : kernels) {
        if (const auto problem = completeImportedKernel(row.kernel))
            return errorAt(row.line, 1, u"\""_s + row.kernel.name + u"\": "_s + *problem);
        result.kernels.push_back(std::move(row.kernel));
    }
    if (rows.size() == 1)
        result.notes.append(u"the file has a header and no rows"_s);
    return result;
}

}  // namespace ridgeline
