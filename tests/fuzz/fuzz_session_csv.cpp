// libFuzzer target for the CSV writer (`ridgeline export --csv`, the window's Export CSV…): every session that loads
// is written as its four tables, and itself compared with itself as comparison.csv. Each table must read back with
// the project's own CSV reader as a header and one record per row, every record as wide as the header, and no cell
// may say nan or inf unless the file itself has that text; a kernel's FLOP, bytes and seconds read back exactly
// (numbers are written as short as round-trips).
#include "core/import/text/csv_reader.h"
#include "core/session/format/session_json.h"
#include "core/session/session_compare.h"
#include "core/session/session_csv.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

namespace {

constexpr const char* kTarget = "fuzz_session_csv";

const QRegularExpression& nonFinite()
{
    static const QRegularExpression pattern(QStringLiteral("^[+-]?(nan|inf|infinity)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

// The table's records; each as wide as the header, and no number in it that is not finite.
std::vector<CsvRecord> checkTable(const CsvTable& table, const QByteArray& fileBytes)
{
    const QString text = QString::fromUtf8(table.text);
    if (text.toUtf8() != table.text)
        fuzz::fail(kTarget, "a table is not UTF-8", table.fileName);
    const Result<std::vector<CsvRecord>> records = readCsv(text);
    if (!records.ok())
        fuzz::fail(kTarget, "a written table does not read back", table.fileName + u": " + records.error().message);
    const std::vector<CsvRecord>& read = records.value();
    if (read.size() != static_cast<std::size_t>(table.rows) + 1)
        fuzz::fail(kTarget, "a table does not read back one record per row", table.fileName);
    for (const CsvRecord& record : read) {
        if (record.size() != read.front().size())
            fuzz::fail(kTarget, "a row is not as wide as its header", table.fileName);
        for (const CsvField& field : record.fields)
            if (nonFinite().match(field.text).hasMatch() && !fileBytes.contains(field.text.toUtf8()))
                fuzz::fail(kTarget, "a table holds a non-finite number", table.fileName + u": " + field.text);
    }
    return read;
}

qsizetype columnOf(const CsvRecord& header, const QString& name)
{
    for (qsizetype column = 0; column < header.size(); ++column)
        if (header.value(column) == name)
            return column;
    fuzz::fail(kTarget, "a table lacks a column", name);
}

// What the table says of a number the session holds: the same double, or empty where the session has none.
void checkNumber(const CsvRecord& row, qsizetype column, double value, const QString& what)
{
    const QString cell = row.value(column);
    if (!std::isfinite(value)) {
        if (!cell.isEmpty())
            fuzz::fail(kTarget, "a non-finite number was written", what + u": " + cell);
        return;
    }
    bool ok = false;
    const double read = cell.toDouble(&ok);
    if (!ok || read != value)
        fuzz::fail(kTarget, "a number does not read back the same", what + u": " + cell);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::inputBytes(data, size);
    const Result<Session> loaded =
        fuzz::readOrCheckRefusal(kTarget, bytes, QStringLiteral("fuzz.json"), sessionFromJson);
    if (!loaded.ok())
        return 0;
    const Session& session = loaded.value();

    for (const CsvTable& table : sessionCsvTables(session)) {
        const std::vector<CsvRecord> records = checkTable(table, bytes);
        if (table.fileName != QStringLiteral("kernels.csv"))
            continue;
        if (records.size() != session.kernels.size() + 1)
            fuzz::fail(kTarget, "kernels.csv does not hold one row per kernel", table.fileName);
        const CsvRecord& header = records.front();
        const qsizetype flops = columnOf(header, QStringLiteral("FLOP"));
        const qsizetype bytesColumn = columnOf(header, QStringLiteral("bytes"));
        const qsizetype seconds = columnOf(header, QStringLiteral("seconds"));
        for (std::size_t k = 0; k < session.kernels.size(); ++k) {
            const KernelResult& kernel = session.kernels[k];
            checkNumber(records[k + 1], flops, kernel.flops, kernel.name + u" FLOP");
            checkNumber(records[k + 1], bytesColumn, kernel.bytes, kernel.name + u" bytes");
            checkNumber(records[k + 1], seconds, kernel.seconds, kernel.name + u" seconds");
        }
    }
    checkTable(comparisonCsvTable(compareSessions(session, session, 5.0)), bytes);
    return 0;
}
