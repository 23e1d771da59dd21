#pragma once
// Typed members of one JSON object of another program's results (serving benchmarks, ERT), read on the tokenizer's
// tree so that errors say where and what:
// "line 3, column 17: \"mean_ttft_ms\" is the string \"abc\"; expected milliseconds (a number)".
// The first error sticks (later reads return nothing), so an importer reads all it needs and checks once.
//
// Absent and null members read as nothing. NaN (Python's mean over no requests) reads as nothing too and is
// listed in nanKeys() so that the importer can say so; Infinity, negative values and values past the quantity's
// bound are errors, because no benchmark writes them.

#include "core/json/json_reader.h"
#include "core/result.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstdint>
#include <optional>

namespace ridgeline {

enum class Quantity {
    Seconds,
    Milliseconds,  // read in ms, returned in seconds
    Nanoseconds,   // read in ns, returned in seconds
    TokensPerSecond,
    RequestsPerSecond,
    Tokens,  // a count or a mean of tokens (fractions allowed)
    Ratio,   // a plain non-negative number (random_range_ratio, accept length)
};

class JsonFields {
public:
    // path names the object in messages: "" for a top-level object, "benchmarks[2].metrics" inside.
    JsonFields(const JsonNode& object, QString path);

    const JsonNode& object() const { return m_object; }
    const JsonNode* get(QStringView key) const { return m_object.find(key); }
    bool has(QStringView key) const;  // present and not null
    QString pathOf(QStringView key) const;

    std::optional<double> number(QStringView key, Quantity quantity);
    // A whole, non-negative number (token counts, concurrency, tensor parallel size).
    std::optional<std::int64_t> count(QStringView key, std::int64_t max = std::int64_t{1} << 50);
    std::optional<bool> flag(QStringView key);  // true/false, or 0/1 (older llama-bench wrote bools as ints)
    QString text(QStringView key);              // a string; absent or null: ""
    const JsonNode* child(QStringView key);     // an object; absent or null: nullptr
    const JsonNode* list(QStringView key);      // an array; absent or null: nullptr

    // Records an error at `at` (the first one sticks); failKey at the member `key` (or the object).
    void fail(const JsonNode& at, const QString& what);
    void failKey(QStringView key, const QString& what);
    void failMissing(QStringView key, const QString& why);
    // Takes over the first error of a nested object's reader (and its NaN keys).
    void adopt(const JsonFields& nested);
    bool ok() const { return !m_error.has_value(); }
    const Error& error() const { return *m_error; }
    const QStringList& nanKeys() const { return m_nanKeys; }

private:
    bool fine() const { return !m_error; }
    // The member at key when it is of `type`; nothing when absent or null, or after an error ("expected WHAT").
    const JsonNode* typed(QStringView key, JsonNode::Type type, const QString& expected);

    const JsonNode& m_object;
    QString m_path;
    std::optional<Error> m_error;
    QStringList m_nanKeys;
};

// "line L, column C: " of a node.
QString nodeLocation(const JsonNode& node);
// A finite number within the quantity's bound, converted to the base unit; or why not ("is negative").
Result<double> checkQuantity(double value, Quantity quantity);
QString quantityName(Quantity quantity);  // "milliseconds", "tokens per second", ...

}  // namespace ridgeline
