#pragma once
// The one typed reader of JSON objects. parseStrictJson() reads with the one tokenizer (json_reader.h), Python's
// NaN tokens refused; ObjectReader then reads typed, range-checked fields of one object of the tokenizer's tree and
// names the first problem by its path ("kernels[3].gflops"). In Ridgeline's own files (sessions, talk decks,
// catalogs) it refuses keys nobody asked for, so a misspelt field is an error rather than a silent default; a
// Hugging Face config.json is read leniently (ReadMode). Other programs' results, whose messages give each value's
// line and column, are read by the same reader in its Located mode.

#include "core/json/json_quantity.h"
#include "core/json/json_reader.h"
#include "core/message_text.h"
#include "core/result.h"

#include <QAnyStringView>
#include <QDateTime>
#include <QLatin1StringView>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace ridgeline {

// No string in a Ridgeline file is longer: a longer one is a corrupt or hostile file.
inline constexpr int kMaxTextChars = 4096;

// The one JSON value in `bytes`: a second one after it is refused, naming where it starts.
Result<JsonNode> readOneJsonValue(const QByteArray& bytes, const JsonReadOptions& options,
                                  JsonSplitArray* split = nullptr);
// Syntax only: one valid UTF-8 JSON value (NaN, Infinity and numbers beyond double range refused), no NUL bytes, no
// key twice in one object. The message says where ("line 16, column 55: ...", "duplicate key kernels[1].gflops").
// split: a top-level array kept as places in the bytes only (split_object.h).
// The top level is an object or an array.
Result<JsonNode> parseStrictJson(const QByteArray& bytes, JsonSplitArray* split = nullptr);
// The same, for a file whose top level must be an object (every Ridgeline file).
Result<JsonNode> parseStrictObject(const QByteArray& bytes, JsonSplitArray* split = nullptr);

// Whole numbers print exactly (a cache size of 2199023255552, not 2.199e+12); others as short as round-trips.
QString formatExactNumber(double value);
// What a value is, for "must be X, got Y" messages; long strings are cut so the message stays one line.
QString describeJson(const JsonNode& value);
// The same for a string already read ("the string \"abc\"").
QString describeText(const QString& text);
// "kernels" and 3 -> "kernels[3]".
QString indexedPath(const QString& path, qsizetype index);
// A key from the file as quoted in a message: a 100 MB key must not make a 100 MB message.
QString shortKey(const QString& key);

// The first problem met while reading; later ones would only be echoes of it. Beside it, the keys whose value was
// Python's NaN (a statistic over no requests), read as absent, so that an importer can say what it left out.
class Problem {
public:
    bool found() const { return m_error.has_value(); }
    // Messages quote keys and values from the file, whose strings may hold escaped control characters:
    // every message is made one line here, so that no reader of these files can forget it.
    void report(Error::Code code, const QString& detail)
    {
        if (!m_error)
            m_error = Error{code, oneLine(detail)};
    }
    const Error& error() const { return *m_error; }
    void noteNan(const QString& path) { m_nanKeys << oneLine(path); }
    const QStringList& nanKeys() const { return m_nanKeys; }

private:
    std::optional<Error> m_error;
    QStringList m_nanKeys;
};

enum class Need { Optional, Required };
// Strict: Ridgeline's own files. Lenient: another program's, where null stands for absent (Python writes None as
// null) and the keys Ridgeline does not read are that program's business. Located: another program's results
// (serving benchmarks, ERT), read as Lenient, whose messages give the value's line and column and what was expected:
// "line 3, column 17: \"mean_ttft_ms\" is the string \"abc\"; expected milliseconds (a number)".
enum class ReadMode { Strict, Lenient, Located };

// Any number of entries.
inline constexpr qsizetype kAnySize = std::numeric_limits<qsizetype>::max();

// Reads typed, range-checked fields of one JSON object, remembering which keys it was asked for so that anything
// else in the object can be reported as unknown. "where" is the path used in messages. The reader refers to the
// object's node, which must outlive it. Absent keys (and in Lenient and Located modes null ones) read as nothing.
class ObjectReader {
public:
    ObjectReader(const JsonNode& object, QString path, Problem& problem, ReadMode mode = ReadMode::Strict);
    ObjectReader(JsonNode&&, QString, Problem&, ReadMode = ReadMode::Strict) = delete;
    // The object at `key` read by a reader of its own, with the same problem and mode.
    ObjectReader nested(const JsonNode& object, QAnyStringView key) const;

    const JsonNode& node() const { return *m_object; }
    QString where(QAnyStringView key) const;
    Problem& problem() const { return m_problem; }
    ReadMode mode() const { return m_mode; }
    // The member at key as it is (null included), without marking it known.
    const JsonNode* get(QAnyStringView key) const;
    bool has(QAnyStringView key) const;
    // A problem that no typed read finds (a value that contradicts another, a name used twice).
    void refuse(const QString& detail) { m_problem.report(Error::Code::Schema, detail); }
    // The same at a value's line and column ("line 3, column 17: detail"); at the member `key` (or the object).
    void refuse(const JsonNode& at, const QString& detail);
    void refuseKey(QAnyStringView key, const QString& detail);
    // A missing member: "line 1, column 1: the object metrics has no \"duration\" (why)".
    void refuseMissing(QAnyStringView key, const QString& why);
    bool failed() const { return m_problem.found(); }
    const Error& error() const { return m_problem.error(); }

    // Marks key as known and returns its value, if present and no problem has been found yet.
    const JsonNode* take(QAnyStringView key, Need need);

    // A string; outside Located mode at most kMaxTextChars long (the importers cut what they keep themselves).
    QString text(QAnyStringView key, Need need = Need::Optional);
    bool boolean(QAnyStringView key, bool fallback);
    // A finite number in 0..max.
    double number(QAnyStringView key, double max, Need need = Need::Optional);
    std::int64_t integer(QAnyStringView key, std::int64_t min, std::int64_t max, std::int64_t fallback,
                         Need need = Need::Optional);
    int smallInteger(QAnyStringView key, int min, std::int64_t max, int fallback, Need need = Need::Optional);
    const JsonNode* object(QAnyStringView key, Need need = Need::Optional);
    // The size is checked before any entry is looked at, so a huge array costs nothing more to refuse.
    const JsonNode* array(QAnyStringView key, qsizetype maxEntries = kAnySize, Need need = Need::Optional);
    // An ISO 8601 date and time such as "2026-12-02T16:44:16Z".
    QDateTime dateTime(QAnyStringView key);

    // Another program's figures (Located mode): a number in the quantity's bound, converted to its base unit; NaN
    // reads as nothing and is noted in the problem's nanKeys().
    std::optional<double> quantity(QAnyStringView key, Quantity quantity);
    // A whole, non-negative number (token counts, concurrency, tensor parallel size).
    std::optional<std::int64_t> count(QAnyStringView key, std::int64_t max = std::int64_t{1} << 50);
    // true/false, or 0/1 (older llama-bench wrote bools as ints).
    std::optional<bool> flag(QAnyStringView key);

    // Call once every known key has been taken: a misspelt field should not silently read as absent (lenient: none).
    void rejectUnknownKeys();

    // The checks of text() and number() for a value found some other way (an array entry, an object's free keys).
    static QString checkedText(const JsonNode& value, const QString& where, Problem& problem);
    static double checkedNumber(const JsonNode& value, const QString& where, double max, Problem& problem);

private:
    // Refuses `value` at key for not being `expected` ("a string"), in the mode's style of message.
    void refuseType(const JsonNode& value, QAnyStringView key, const QString& expected);

    const JsonNode* m_object;
    QString m_path;
    Problem& m_problem;
    ReadMode m_mode;
    QStringList m_known;
};

// Calls read(ObjectReader&) on the object at key when it is there (a problem when it is required and absent, or
// not an object), then refuses the object's unknown keys. True when the object was there.
template <typename Read>
bool readObject(ObjectReader& parent, QAnyStringView key, Need need, Read read)
{
    const JsonNode* object = parent.object(key, need);
    if (!object)
        return false;
    ObjectReader reader = parent.nested(*object, key);
    read(reader);
    reader.rejectUnknownKeys();
    return true;
}
template <typename Read>
bool readObject(ObjectReader& parent, QAnyStringView key, Read read)
{
    return readObject(parent, key, Need::Optional, read);
}

// Calls readEntry(ObjectReader&) for each entry of an array of objects, stopping at the first problem; each entry's
// unknown keys are refused.
template <typename T, typename ReadEntry>
std::vector<T> readEntries(ObjectReader& parent, QAnyStringView key, qsizetype maxEntries, Need need,
                           ReadEntry readEntry)
{
    std::vector<T> entries;
    const JsonNode* array = parent.array(key, maxEntries, need);
    if (!array)
        return entries;
    entries.reserve(array->items().size());
    Problem& problem = parent.problem();
    for (std::size_t i = 0; i < array->items().size() && !problem.found(); ++i) {
        const JsonNode& value = array->items()[i];
        const QString path = indexedPath(parent.where(key), static_cast<qsizetype>(i));
        if (!value.isObject()) {
            problem.report(Error::Code::Schema,
                           path + QStringLiteral(" must be an object, got ") + describeJson(value));
            break;
        }
        ObjectReader reader(value, path, problem, parent.mode());
        T entry = readEntry(reader);
        reader.rejectUnknownKeys();
        entries.push_back(std::move(entry));
    }
    return entries;
}

// An optional array of at most maxItems strings, e.g. a session's ISA flags or a scene's highlighted kernels.
QStringList textListFromJson(ObjectReader& in, QAnyStringView key, qsizetype maxItems);

// The first two fields of every Ridgeline file. A file from another program or a newer Ridgeline is named as such
// ("not a Ridgeline deck: ...", "written by a newer Ridgeline (schema 3); this build reads up to 2"), rather than
// reported as a list of odd fields. `kind` is "session", "deck" ... Returns the file's schema version, 0 after a
// problem.
int readHeader(ObjectReader& in, const QString& format, const QString& kind, int newestSchema);

}  // namespace ridgeline
