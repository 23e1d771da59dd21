#pragma once
// A small RFC 4180 CSV reader: quoted fields with "" escapes and embedded newlines, LF, CRLF or CR (classic Mac)
// line ends, all read in one pass, any delimiter. Every field keeps the line and column where it starts, for error
// messages.

#include "core/result.h"

#include <QString>
#include <QStringView>

#include <functional>
#include <optional>
#include <vector>

namespace ridgeline {

struct CsvField {
    QString text;
    int line = 0;    // 1-based
    int column = 0;  // 1-based, in characters, of the field's first character (or its quote)
};

struct CsvRecord {
    int line = 0;  // line of the record's first field
    std::vector<CsvField> fields;

    qsizetype size() const { return static_cast<qsizetype>(fields.size()); }
    QString value(qsizetype index) const
    {
        return index >= 0 && index < size() ? fields[static_cast<std::size_t>(index)].text : QString();
    }
    // The field at index or, past the end, the position just after the last field's text (for "missing" errors).
    int columnOf(qsizetype index) const;
    bool isBlank() const { return fields.empty() || (fields.size() == 1 && fields.front().text.trimmed().isEmpty()); }
};

struct CsvOptions {
    QChar delimiter = QLatin1Char(',');
    // Lines for which this returns true (tested on the raw line and its 1-based number, at the start of a
    // record) are not CSV, e.g. Nsight Compute's "==PROF==" log lines; they are dropped.
    std::function<bool(QStringView line, int number)> skipLine;
    int maxFieldChars = 1 << 16;  // a field longer than this is a hostile or broken file
    int maxFields = 1 << 16;      // per record
};

// Called with each non-blank record in order; returning an Error stops the reading with that error.
using CsvRecordHandler = std::function<std::optional<Error>(CsvRecord&& record)>;

// Streams the records to handle(), so a large file is never held as a table; or an Error naming the line
// and column (an unterminated quote, text after a closing quote, an oversized field), or handle()'s.
std::optional<Error> forEachCsvRecord(const QString& text, const CsvOptions& options, const CsvRecordHandler& handle);

// All records, blank lines dropped; or the first Error, as above.
Result<std::vector<CsvRecord>> readCsv(const QString& text, const CsvOptions& options = {});

}  // namespace ridgeline
