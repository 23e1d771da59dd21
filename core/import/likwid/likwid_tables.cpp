#include "core/import/likwid/likwid_tables.h"

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

// Lines likwid-perfctr itself prints around the tables: dashes, the CPU lines, INFO/WARN/ERROR notes.
bool isBannerLine(QStringView line)
{
    const QStringView text = line.trimmed();
    if (text.isEmpty() || text.startsWith(u"INFO:"_s) || text.startsWith(u"WARN:"_s) || text.startsWith(u"ERROR:"_s))
        return true;
    if (text.startsWith(u"CPU name:"_s) || text.startsWith(u"CPU type:"_s) || text.startsWith(u"CPU clock:"_s))
        return true;
    return text.size() >= 10 && text.count(u'-') == text.size();
}

QString cpuNameOf(QStringView line)
{
    return line.trimmed().mid(9).trimmed().toString();  // after "CPU name:" (a tab or a comma follows)
}

// "TABLE,Region triad,Group 1 Metric STAT,MEM_DP,12" or "TABLE,Group 1 Raw,MEM_DP,23".
struct TableLine {
    QString region;
    QString group;
    bool metric = false;
    bool stat = false;
    int rows = 0;
};

Result<TableLine> readTableLine(const CsvRecord& record)
{
    TableLine table;
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
    bool ok = false;
    table.rows = count.toInt(&ok);
    if (!ok || table.rows < 0 || table.rows > 100000)
        return errorAt(record.line, record.columnOf(i + 2),
                       u"a TABLE line whose row count \""_s + count.left(20) + u"\" is not a number"_s);
    return table;
}

// One metric once per table: which of two values would be meant?
std::optional<Error> checkNew(const LikwidTable& table, const LikwidRow& row)
{
    for (const LikwidRow& other : table.rows)
        if (other.name == row.name)
            return errorAt(row.line, 1,
                           u"the metric \""_s + row.name + u"\" appears twice in a table (also line "_s +
                               QString::number(other.line) + u')');
    return std::nullopt;
}

// The CSV form, read block by block: a STRUCT or TABLE line announces how many rows follow, and every other
// line outside such a block is banner or program output.
class CsvBlocks {
public:
    explicit CsvBlocks(LikwidFile& file) : m_file(file) {}

    bool skip(QStringView line, int number)
    {
        if (m_state != State::Outside)
            return false;
        if (line.startsWith(u"STRUCT,"_s) || line.startsWith(u"TABLE,"_s))
            return false;
        if (!isBannerLine(line)) {
            m_file.firstOtherLine = m_file.firstOtherLine == 0 ? number : m_file.firstOtherLine;
            ++m_file.otherLines;
        } else if (line.trimmed().startsWith(u"CPU name:"_s) && m_file.cpuName.isEmpty()) {
            m_file.cpuName = cpuNameOf(line);
        }
        return true;
    }

    std::optional<Error> onRecord(CsvRecord&& record)
    {
        switch (m_state) {
            case State::Outside:
                return startBlock(record);
            case State::Struct:
                if (record.value(0).trimmed() == u"CPU name:"_s && m_file.cpuName.isEmpty())
                    m_file.cpuName = record.value(1).trimmed();
                return nextRow();
            case State::BeforeHeader:
                return header(std::move(record));
            case State::Rows:
                if (m_metric)
                    if (auto error = metricRow(record))
                        return error;
                return nextRow();
        }
        return std::nullopt;
    }

    std::optional<Error> finish(int lastLine) const
    {
        if (m_state == State::Outside)
            return std::nullopt;
        return errorAt(lastLine + 1, 1, truncated());
    }

private:
    enum class State { Outside, Struct, BeforeHeader, Rows };

    QString truncated() const
    {
        return u"the table on line "_s + QString::number(m_blockLine) + u" announces "_s +
               QString::number(m_announced) + u" rows, only "_s + QString::number(m_announced - m_remaining) +
               u" follow (a truncated file?)"_s;
    }

    std::optional<Error> startBlock(const CsvRecord& record)
    {
        m_blockLine = record.line;
        if (record.value(0).trimmed() == u"STRUCT"_s) {
            m_announced = m_remaining = record.value(2).trimmed().toInt();
            m_state = m_remaining > 0 ? State::Struct : State::Outside;
            return std::nullopt;
        }
        const auto table = readTableLine(record);
        if (!table.ok())
            return table.error();
        m_metric = table.value().metric;
        m_announced = m_remaining = table.value().rows;
        m_state = State::BeforeHeader;
        if (m_metric) {
            m_file.tables.push_back(
                LikwidTable{table.value().region, table.value().group, table.value().stat, record.line, {}, {}});
        }
        return std::nullopt;
    }

    std::optional<Error> header(CsvRecord&& record)
    {
        const QString first = record.value(0).trimmed();
        if (first == u"STRUCT"_s || first == u"TABLE"_s)
            return errorAt(record.line, 1, truncated());
        if (!m_metric) {  // region info rows, then "Event,Counter,..."
            if (first == u"Event"_s)
                m_state = m_remaining > 0 ? State::Rows : State::Outside;
            return std::nullopt;
        }
        if (first != u"Metric"_s)
            return errorAt(record.line, record.columnOf(0), u"expected the table's \"Metric,...\" header row"_s);
        LikwidTable& table = m_file.tables.back();
        // Trailing empty fields pad likwid's rows; the header says how many values a row has.
        qsizetype width = record.size();
        while (width > 1 && record.value(width - 1).trimmed().isEmpty())
            --width;
        for (qsizetype i = 1; i < width; ++i)
            table.columns.append(record.value(i).trimmed());
        if (table.stat && !(table.columns.contains(u"Sum"_s) && table.columns.contains(u"Max"_s)))
            return errorAt(record.line, record.columnOf(1), u"a STAT table without Sum and Max columns"_s);
        m_state = m_remaining > 0 ? State::Rows : State::Outside;
        return std::nullopt;
    }

    std::optional<Error> metricRow(const CsvRecord& record)
    {
        const QString first = record.value(0).trimmed();
        if (first == u"STRUCT"_s || first == u"TABLE"_s)
            return errorAt(record.line, 1, truncated());
        LikwidTable& table = m_file.tables.back();
        const qsizetype width = table.columns.size() + 1;
        LikwidRow row;
        row.name = first;
        if (table.stat && row.name.endsWith(u" STAT"_s))
            row.name.chop(5);
        row.line = record.line;
        // A decimal comma splits "0,5" into two fields: refuse rows wider than the header.
        for (qsizetype i = width; i < record.size(); ++i) {
            if (!record.value(i).trimmed().isEmpty())
                return errorAt(record.line, record.columnOf(i),
                               row.name +
                                   u": more values than the table's header has columns (a decimal comma, "
                                   "e.g. \"0,5\"? export with LC_NUMERIC=C)"_s);
        }
        for (qsizetype i = 1; i < width; ++i) {
            if (i >= record.size())
                return errorAt(record.line, record.columnOf(record.size()),
                               QString::number(record.size()) + u" fields where the table's header has "_s +
                                   QString::number(width) + u" (a truncated line?)"_s);
            row.values.push_back(LikwidCell{record.value(i).trimmed(), record.line, record.columnOf(i)});
        }
        if (auto error = checkNew(table, row))
            return error;
        table.rows.push_back(std::move(row));
        return std::nullopt;
    }

    std::optional<Error> nextRow()
    {
        if (--m_remaining <= 0)
            m_state = State::Outside;
        return std::nullopt;
    }

    LikwidFile& m_file;
    State m_state = State::Outside;
    bool m_metric = false;
    int m_blockLine = 0;
    int m_announced = 0;
    int m_remaining = 0;
};

// "| Metric | HWThread 0 |" -> {"Metric", "HWThread 0"}, with the column of each cell.
std::vector<LikwidCell> asciiCells(const QString& line, int number)
{
    std::vector<LikwidCell> cells;
    qsizetype start = line.indexOf(u'|');
    while (start >= 0) {
        const qsizetype end = line.indexOf(u'|', start + 1);
        if (end < 0)
            break;
        const QString raw = line.mid(start + 1, end - start - 1);
        qsizetype lead = 0;
        while (lead < raw.size() && raw.at(lead).isSpace())
            ++lead;
        cells.push_back(LikwidCell{raw.trimmed(), number, static_cast<int>(start + 2 + lead)});
        start = end;
    }
    return cells;
}

bool isBorder(QStringView line)
{
    const QStringView text = line.trimmed();
    return text.startsWith(u"+-"_s) && text.endsWith(u'+');
}

// The ASCII form: a "Group N: GROUP" line (likwid-mpirun: "Region: R" and "Group: N", no group name), then
// bordered tables; only those headed "Metric" are kept.
Result<LikwidFile> readAscii(const QStringList& lines)
{
    static const QRegularExpression groupLine(u"^(?:Region (.+), )?Group (\\d+): (\\S+)\\s*$"_s);
    static const QRegularExpression mpirunRegion(u"^Region: (.+)$"_s);
    static const QRegularExpression mpirunGroup(u"^Group: (\\d+)$"_s);
    LikwidFile file;
    file.ascii = true;
    QString region;
    QString group;
    int groupLineNumber = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        const int number = static_cast<int>(i + 1);
        const auto match = groupLine.match(line.trimmed());
        if (match.hasMatch()) {
            region = match.captured(1);
            group = match.captured(3);
            groupLineNumber = number;
            continue;
        }
        if (const auto regionMatch = mpirunRegion.match(line.trimmed()); regionMatch.hasMatch()) {
            region = regionMatch.captured(1).trimmed();
            continue;
        }
        if (const auto groupMatch = mpirunGroup.match(line.trimmed()); groupMatch.hasMatch()) {
            group = u"group "_s + groupMatch.captured(1);
            groupLineNumber = number;
            continue;
        }
        if (!isBorder(line)) {
            if (line.trimmed().startsWith(u"CPU name:"_s) && file.cpuName.isEmpty())
                file.cpuName = cpuNameOf(line);
            else if (!isBannerLine(line)) {
                file.firstOtherLine = file.firstOtherLine == 0 ? number : file.firstOtherLine;
                ++file.otherLines;
            }
            continue;
        }
        // border, header, border, rows..., border
        if (i + 2 >= lines.size() || !isBorder(lines[i + 2]))
            continue;
        const std::vector<LikwidCell> head = asciiCells(lines[i + 1], number + 1);
        qsizetype end = i + 3;
        while (end < lines.size() && !isBorder(lines[end]) && lines[end].trimmed().startsWith(u'|'))
            ++end;
        if (end >= lines.size() || !isBorder(lines[end]))
            return errorAt(static_cast<int>(end + 1), 1,
                           u"the table that starts on line "_s + QString::number(number) +
                               u" is cut off (no closing +---+ line; a truncated file?)"_s);
        if (!head.empty() && head.front().text == u"Metric"_s && !group.isEmpty()) {
            LikwidTable table;
            table.region = region;
            table.group = group;
            table.line = groupLineNumber;
            for (std::size_t c = 1; c < head.size(); ++c)
                table.columns.append(head[c].text);
            table.stat = table.columns.contains(u"Sum"_s) && table.columns.contains(u"Max"_s);
            for (qsizetype r = i + 3; r < end; ++r) {
                std::vector<LikwidCell> cells = asciiCells(lines[r], static_cast<int>(r + 1));
                if (cells.size() != head.size())
                    return errorAt(static_cast<int>(r + 1), 1,
                                   QString::number(cells.size()) + u" cells where the table's header on line "_s +
                                       QString::number(number + 1) + u" has "_s + QString::number(head.size()));
                LikwidRow row{cells.front().text, {cells.begin() + 1, cells.end()}, static_cast<int>(r + 1)};
                if (table.stat && row.name.endsWith(u" STAT"_s))
                    row.name.chop(5);
                if (auto error = checkNew(table, row))
                    return *error;
                table.rows.push_back(std::move(row));
            }
            file.tables.push_back(std::move(table));
        }
        i = end;
    }
    return file;
}

}  // namespace

QString withoutColourCodes(const QString& text)
{
    static const QRegularExpression ansi(u"\\x1b\\[[0-9;]*[A-Za-z]"_s);
    if (!text.contains(QChar(0x1b)))
        return text;
    QString plain = text;
    return plain.remove(ansi);
}

bool looksLikeLikwid(const QString& raw)
{
    static const QRegularExpression csv(u"(^|\\n)(STRUCT,Info,|TABLE,(Region [^\\n]*,)?Group \\d+ )"_s);
    static const QRegularExpression ascii(u"(^|\\n)(Region [^\\n]+, )?Group \\d+: \\S+\\s*\\n\\+-"_s);
    static const QRegularExpression mpirun(u"(^|\\n)Group: \\d+\\s*\\n\\+-[-+]*\\+\\s*\\n\\|\\s*Event\\s*\\|"_s);
    const QString head = withoutColourCodes(raw);
    return csv.match(head).hasMatch() || ascii.match(head).hasMatch() || mpirun.match(head).hasMatch();
}

Result<LikwidFile> readLikwidTables(const QString& raw)
{
    static const QRegularExpression csvStart(u"(^|\\n)(STRUCT|TABLE),"_s);
    const QString text = withoutColourCodes(raw);
    if (!csvStart.match(text).hasMatch()) {
        auto ascii = readAscii(text.split(u'\n'));
        if (!ascii.ok())
            return ascii.error();
        if (ascii.value().tables.empty())
            return errorAt(1, 1,
                           u"no likwid-perfctr tables: neither its CSV (STRUCT and TABLE lines, written by -o FILE.csv "
                           "or -O) nor its tables under a \"Group N: GROUP\" line (likwid-mpirun: \"Group: N\") "
                           "with a Metric table"_s);
        return ascii;
    }
    LikwidFile file;
    CsvBlocks blocks(file);
    CsvOptions options;
    options.skipLine = [&blocks](QStringView line, int number) { return blocks.skip(line, number); };
    int lastLine = 0;
    const auto onRecord = [&blocks, &lastLine](CsvRecord&& record) {
        lastLine = record.line;
        return blocks.onRecord(std::move(record));
    };
    if (auto error = forEachCsvRecord(text, options, onRecord))
        return *error;
    if (auto error = blocks.finish(lastLine))
        return *error;
    if (file.tables.empty())
        return errorAt(lastLine, 1, u"no Metric table (only raw counters?); likwid-perfctr writes one per group"_s);
    return file;
}

}  // namespace ridgeline
