#include "core/import/text/csv_reader.h"

#include "core/import/text/import_text.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

int CsvRecord::columnOf(qsizetype index) const
{
    if (index >= 0 && index < size())
        return fields[static_cast<std::size_t>(index)].column;
    if (fields.empty())
        return 1;
    const CsvField& last = fields.back();
    return last.column + static_cast<int>(last.text.size());
}

namespace {

// Walks the text once, character by character, keeping line and column of the current position.
class CsvScanner {
public:
    CsvScanner(const QString& text, const CsvOptions& options) : m_text(text), m_options(options) {}

    std::optional<Error> run(const CsvRecordHandler& handle)
    {
        while (m_pos < m_text.size()) {
            if (m_options.skipLine && m_options.skipLine(currentLine(), m_line)) {
                skipToNextLine();
                continue;
            }
            CsvRecord record;
            record.line = m_line;
            if (auto error = readRecord(record))
                return error;
            if (record.isBlank())
                continue;
            if (auto error = handle(std::move(record)))
                return error;
        }
        return std::nullopt;
    }

private:
    // Where the line at m_pos ends: its CR, LF or the end of the text. Looking for LF alone would run to the end of
    // a file of CR line ends (classic Mac) from every line, which made reading one quadratic in its length.
    qsizetype lineEnd() const
    {
        qsizetype end = m_pos;
        while (end < m_text.size() && m_text.at(end) != u'\n' && m_text.at(end) != u'\r')
            ++end;
        return end;
    }

    QStringView currentLine() const { return QStringView(m_text).mid(m_pos, lineEnd() - m_pos); }

    // Past the line and its end: LF, CRLF or a lone CR.
    void skipToNextLine()
    {
        m_pos = lineEnd();
        if (m_pos < m_text.size() && m_text.at(m_pos) == u'\r')
            ++m_pos;
        if (m_pos < m_text.size() && m_text.at(m_pos) == u'\n')
            ++m_pos;
        ++m_line;
        m_column = 1;
    }

    Error errorAt(int line, int column, const QString& what) const
    {
        return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
    }

    // Reads fields up to and including the end of the record's line.
    std::optional<Error> readRecord(CsvRecord& record)
    {
        while (true) {
            if (static_cast<int>(record.fields.size()) >= m_options.maxFields)
                return errorAt(m_line, m_column,
                               u"more than "_s + QString::number(m_options.maxFields) + u" fields on one line"_s);
            CsvField field;
            field.line = m_line;
            field.column = m_column;
            if (auto error = readField(field))
                return error;
            record.fields.push_back(std::move(field));
            if (m_pos >= m_text.size())
                return std::nullopt;
            const QChar c = m_text.at(m_pos);
            if (c == m_options.delimiter) {
                advance();
                continue;
            }
            // End of record: LF, CRLF or a lone CR.
            if (c == u'\r')
                advance();
            if (m_pos < m_text.size() && m_text.at(m_pos) == u'\n')
                advance();
            return std::nullopt;
        }
    }

    std::optional<Error> readField(CsvField& field)
    {
        if (m_pos < m_text.size() && m_text.at(m_pos) == u'"')
            return readQuotedField(field);
        const qsizetype start = m_pos;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c == m_options.delimiter || c == u'\n' || c == u'\r')
                break;
            if (c == u'"')
                return errorAt(m_line, m_column,
                               u"a quote inside an unquoted field (quote the whole field and "
                               "double the quote)"_s);
            if (m_pos - start >= m_options.maxFieldChars)
                return tooLong(field);
            advance();
        }
        field.text = m_text.mid(start, m_pos - start);
        return std::nullopt;
    }

    std::optional<Error> readQuotedField(CsvField& field)
    {
        const int openLine = m_line;
        const int openColumn = m_column;
        advance();  // the opening quote
        QString text;
        while (true) {
            if (m_pos >= m_text.size())
                return errorAt(openLine, openColumn,
                               u"the quoted field starting here is never closed (truncated "
                               "file?)"_s);
            const QChar c = m_text.at(m_pos);
            if (c == u'"') {
                if (m_pos + 1 < m_text.size() && m_text.at(m_pos + 1) == u'"') {
                    text.append(u'"');
                    advance();
                    advance();
                    continue;
                }
                advance();  // the closing quote
                break;
            }
            if (text.size() >= m_options.maxFieldChars)
                return tooLong(field);
            if (c == u'\r' && m_pos + 1 < m_text.size() && m_text.at(m_pos + 1) == u'\n') {
                advance();  // CRLF inside a field reads as LF
                continue;
            }
            text.append(c);
            advance();
        }
        if (m_pos < m_text.size()) {
            const QChar next = m_text.at(m_pos);
            if (next != m_options.delimiter && next != u'\n' && next != u'\r')
                return errorAt(m_line, m_column, u"text after the closing quote of a field"_s);
        }
        field.text = text;
        return std::nullopt;
    }

    Error tooLong(const CsvField& field) const
    {
        return errorAt(field.line, field.column,
                       u"a field longer than "_s + QString::number(m_options.maxFieldChars) +
                           u" characters (a broken or hostile file?)"_s);
    }

    // LF, and a CR not followed by LF, end a line (a CRLF counts once, at its LF).
    void advance()
    {
        const QChar c = m_text.at(m_pos);
        const bool loneCr = c == u'\r' && (m_pos + 1 >= m_text.size() || m_text.at(m_pos + 1) != u'\n');
        if (c == u'\n' || loneCr) {
            ++m_line;
            m_column = 1;
        } else if (!c.isLowSurrogate()) {
            ++m_column;
        }
        ++m_pos;
    }

    const QString& m_text;
    const CsvOptions& m_options;
    qsizetype m_pos = 0;
    int m_line = 1;
    int m_column = 1;
};

}  // namespace

std::optional<Error> forEachCsvRecord(const QString& text, const CsvOptions& options, const CsvRecordHandler& handle)
{
    return CsvScanner(text, options).run(handle);
}

Result<std::vector<CsvRecord>> readCsv(const QString& text, const CsvOptions& options)
{
    std::vector<CsvRecord> records;
    const auto error = forEachCsvRecord(text, options, [&records](CsvRecord&& record) -> std::optional<Error> {
        records.push_back(std::move(record));
        return std::nullopt;
    });
    if (error)
        return *error;
    return records;
}

}  // namespace ridgeline
