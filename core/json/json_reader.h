#pragma once
// The one JSON tokenizer: Ridgeline's own files (through strict_reader.h) and other programs' (benchmark results)
// are read by it. Python's json module writes NaN, Infinity and -Infinity as bare tokens (SGLang's request_rate of
// inf, a mean over no requests); JsonReadOptions::pythonNumbers reads them as numbers, and the strict reader of
// Ridgeline's own files refuses them. Everything else JSON forbids is refused with its line and column: invalid
// UTF-8, raw control characters in strings, numbers out of double range, a key twice in one object (named by its
// path, "kernels[1].gflops"), nesting deeper than 256. Every value keeps its line and column, so readers can say
// where a bad field is.
//
// Large per-request lists (vLLM's itls, GuideLLM's requests) are checked but not stored when their key is in
// JsonReadOptions::skipKeys: a detailed result file of 100 MB then costs a few MB of memory, and a hostile file
// cannot make the reader allocate gigabytes (at most maxValues values are stored).

#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ridgeline {

class JsonNode {
public:
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
    using Member = std::pair<QString, JsonNode>;

    JsonNode() = default;
    JsonNode(JsonNode&&) noexcept = default;
    JsonNode& operator=(JsonNode&&) noexcept = default;

    Type type() const { return m_type; }
    int line() const { return m_line; }      // 1-based
    int column() const { return m_column; }  // 1-based, in characters
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }
    // A value under one of the skip keys: its syntax was checked, its contents were not kept (size() still counts
    // the items of an array or the members of an object).
    bool isSkipped() const { return m_skipped; }

    bool boolean() const { return m_flag; }
    double number() const { return m_number; }                           // may be NaN or +-infinity (Python's tokens)
    bool isInteger() const { return m_type == Type::Number && m_flag; }  // written without fraction or exponent
    const QString& string() const;

    qsizetype size() const;                       // items of an array, members of an object, else 0
    const std::vector<JsonNode>& items() const;   // empty unless a stored array
    const std::vector<Member>& members() const;   // empty unless a stored object, in file order
    const JsonNode* find(QStringView key) const;  // a member, or nullptr

    // "a number", "the string \"inf\"", "an object", ... for "must be X, got Y" messages (strings cut to 40).
    QString describe() const;
    // "line L, column C: ", the start of a message about this value.
    QString location() const;

private:
    friend class JsonParser;
    struct Payload {
        QString text;
        std::vector<JsonNode> items;
        std::vector<Member> members;
        qsizetype skippedCount = 0;
    };
    Payload& payload();

    Type m_type = Type::Null;
    bool m_flag = false;  // Bool: the value; Number: written as an integer
    bool m_skipped = false;
    int m_line = 0;
    int m_column = 0;
    double m_number = 0;
    std::unique_ptr<Payload> m_payload;  // strings and containers only
};

struct JsonReadOptions {
    QStringList skipKeys;  // members (at any depth) whose values are checked but not stored
    int maxDepth = 256;
    qsizetype maxValues = 2'000'000;  // stored values; past it the file is refused
    bool pythonNumbers = true;        // NaN, Infinity and -Infinity are numbers; false: refused
};

// A top-level member whose array is checked but not stored: only where each entry lies in the bytes is kept, so
// a session's kernels can be read one at a time (split_object.h). The member reads as a skipped array: its size, no
// items.
struct JsonSplitArray {
    struct Range {
        qsizetype begin = 0;
        qsizetype end = 0;  // one past the entry's last byte
    };
    QString key;
    bool found = false;      // the member was there and held an array
    bool allObjects = true;  // every entry is an object
    std::vector<Range> entries;
};

// The top-level values of `utf8` in order: one for a JSON document, several for JSON Lines or for values
// simply written one after another (vLLM's --append-result). Whitespace between them is free; anything else is
// an error. Messages start with "line L, column C: " and never name the file (the caller does).
Result<std::vector<JsonNode>> readJsonValues(const QByteArray& utf8, const JsonReadOptions& options = {},
                                             JsonSplitArray* split = nullptr);

}  // namespace ridgeline
