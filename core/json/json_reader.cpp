// The one JSON tokenizer and parser (json_reader.h): values with their line and column, in one pass.
#include "core/json/json_reader.h"

#include "core/message_text.h"
#include "core/utf8_text.h"

#include <QLocale>
#include <QSet>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <system_error>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString grouped(qsizetype value)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(value));
}

// An object with more members than this checks duplicates with a hash set instead of a linear scan.
constexpr std::size_t kLinearDuplicateCheck = 16;

}  // namespace

class JsonParser {
public:
    JsonParser(const QByteArray& bytes, const JsonReadOptions& options, JsonSplitArray* split)
        : m_begin(bytes.constData()), m_p(m_begin), m_end(m_begin + bytes.size()), m_options(options), m_split(split)
    {
        if (m_end - m_p >= 3 && static_cast<unsigned char>(m_p[0]) == 0xEF &&
            static_cast<unsigned char>(m_p[1]) == 0xBB && static_cast<unsigned char>(m_p[2]) == 0xBF)
            m_p += 3;  // a UTF-8 byte order mark is not a character of the first line
    }

    Result<std::vector<JsonNode>> run()
    {
        std::vector<JsonNode> values;
        for (;;) {
            skipWhitespace();
            if (m_p == m_end)
                break;
            if (!values.empty() && QByteArrayView("}],:").contains(*m_p)) {
                fail(u"unexpected "_s + here() + u" after the end of a JSON value"_s);
                return *m_error;
            }
            JsonNode node;
            if (!value(&node, nullptr))
                return *m_error;
            values.push_back(std::move(node));
        }
        if (values.empty())
            return makeError(Error::Code::Parse, u"line 1, column 1: the file holds no JSON value"_s);
        return values;
    }

private:
    bool fail(const QString& what) { return failAt(m_line, m_column, what); }
    bool failAt(int line, int column, const QString& what)
    {
        if (!m_error)
            m_error = makeError(Error::Code::Parse, u"line "_s + QString::number(line) + u", column "_s +
                                                        QString::number(column) + u": "_s + what);
        return false;
    }

    void advance()
    {
        const char c = *m_p++;
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++m_column;  // a UTF-8 continuation byte belongs to the character before it
        }
    }

    void skipWhitespace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            advance();
    }

    QString here() const
    {
        if (m_p == m_end)
            return u"the end of the file (truncated?)"_s;
        const auto c = static_cast<unsigned char>(*m_p);
        if (c >= 0x21 && c < 0x7f)
            return u"'"_s + QLatin1Char(static_cast<char>(c)) + u'\'';
        if (c < 0x80)
            return u"U+"_s + QString::number(c, 16).rightJustified(4, u'0');
        return u"a non-ASCII character"_s;
    }

    bool startsWith(const char* word) const
    {
        const auto length = static_cast<std::ptrdiff_t>(std::char_traits<char>::length(word));
        return m_end - m_p >= length &&
               std::char_traits<char>::compare(m_p, word, static_cast<std::size_t>(length)) == 0;
    }

    bool countStored()
    {
        if (++m_stored > m_options.maxValues)
            return fail(u"more than "_s + grouped(m_options.maxValues) +
                        u" JSON values besides the per-request lists; refused as too large for a benchmark result"_s);
        return true;
    }

    // Parses one value at m_p. out == nullptr: only check it. count: the items or members of a container.
    bool value(JsonNode* out, qsizetype* count)
    {
        skipWhitespace();
        if (m_p == m_end)
            return fail(u"the file ends where a value should be (truncated?)"_s);
        if (out) {
            out->m_line = m_line;
            out->m_column = m_column;
            if (!countStored())
                return false;
        }
        const char c = *m_p;
        if (c == '{')
            return object(out, count);
        if (c == '[')
            return array(out, count);
        if (c == '"') {
            QString text;
            if (!string(out ? &text : nullptr))
                return false;
            if (out) {
                out->m_type = JsonNode::Type::String;
                out->payload().text = std::move(text);
            }
            return true;
        }
        if ((c == '-' && !startsWith("-Infinity")) || (c >= '0' && c <= '9'))
            return number(out);
        return word(out);
    }

    bool word(JsonNode* out)
    {
        struct Word {
            const char* text;
            JsonNode::Type type;
            bool flag;
            double number;
        };
        static constexpr double kInf = std::numeric_limits<double>::infinity();
        static const Word words[] = {
            {"true", JsonNode::Type::Bool, true, 0},
            {"false", JsonNode::Type::Bool, false, 0},
            {"null", JsonNode::Type::Null, false, 0},
            {"NaN", JsonNode::Type::Number, false, std::numeric_limits<double>::quiet_NaN()},
            {"Infinity", JsonNode::Type::Number, false, kInf},
            {"-Infinity", JsonNode::Type::Number, false, -kInf},
        };
        for (const Word& w : words) {
            if (startsWith(w.text) && !isWordChar(std::char_traits<char>::length(w.text))) {
                if (w.type == JsonNode::Type::Number && !m_options.pythonNumbers)
                    return fail(QString::fromLatin1(w.text) +
                                u" is not a JSON number (Python writes NaN and Infinity; they are not allowed here)"_s);
                for (std::size_t i = 0; i < std::char_traits<char>::length(w.text); ++i)
                    advance();
                if (out) {
                    out->m_type = w.type;
                    out->m_flag = w.flag;
                    out->m_number = w.number;
                }
                return true;
            }
        }
        QString seen;
        for (const char* q = m_p; q != m_end && seen.size() < 20 && isAsciiWordChar(*q); ++q)
            seen += QLatin1Char(*q);
        if (seen.isEmpty())
            return fail(u"unexpected "_s + here() + u"; expected a value"_s);
        return fail(u"unknown word \""_s + seen + u"\"; expected a value (a number, a string, true, false, null)"_s);
    }

    static bool isAsciiWordChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    bool isWordChar(std::size_t offset) const
    {
        return m_end - m_p > static_cast<std::ptrdiff_t>(offset) && isAsciiWordChar(m_p[offset]);
    }

    bool number(JsonNode* out)
    {
        const int line = m_line;
        const int column = m_column;
        const char* start = m_p;
        if (*m_p == '-')
            advance();
        const auto digits = [this] {
            int n = 0;
            while (m_p != m_end && *m_p >= '0' && *m_p <= '9') {
                advance();
                ++n;
            }
            return n;
        };
        if (m_p == m_end || *m_p < '0' || *m_p > '9')
            return fail(u"a '-' that is not followed by digits"_s);
        const bool leadingZero = *m_p == '0';
        const int integerDigits = digits();
        if (leadingZero && integerDigits > 1)
            return failAt(line, column, u"a number with a leading zero (JSON does not allow them)"_s);
        bool integer = true;
        if (m_p != m_end && *m_p == '.') {
            advance();
            integer = false;
            if (digits() == 0)
                return fail(u"a '.' that is not followed by digits"_s);
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            advance();
            integer = false;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
                advance();
            if (digits() == 0)
                return fail(u"an exponent without digits"_s);
        }
        if (m_p != m_end && (isAsciiWordChar(*m_p) || *m_p == '.'))
            return fail(u"unexpected "_s + here() + u" right after a number"_s);
        double parsed = 0;
        const auto [end, code] = std::from_chars(start, m_p, parsed);
        if (code == std::errc::result_out_of_range || end != m_p) {
            const QString text = QString::fromLatin1(start, std::min<qsizetype>(m_p - start, 40));
            return failAt(line, column, u"the number "_s + text + u" is out of the range of a double"_s);
        }
        if (out) {
            out->m_type = JsonNode::Type::Number;
            out->m_number = parsed;
            out->m_flag = integer;
        }
        return true;
    }

    static int hexDigit(char h)
    {
        if (h >= '0' && h <= '9')
            return h - '0';
        const char lower = static_cast<char>(h | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    // Reads the escape after a backslash (the character after it is at m_p) into one UTF-16 unit. line, column:
    // where the string began, for a file that ends inside a unicode escape.
    bool escape(char16_t& unit, int line, int column)
    {
        const char c = *m_p;
        advance();
        static constexpr std::pair<char, char16_t> kSimple[] = {{'"', u'"'},  {'\\', u'\\'}, {'/', u'/'},
                                                                {'b', u'\b'}, {'f', u'\f'},  {'n', u'\n'},
                                                                {'r', u'\r'}, {'t', u'\t'}};
        for (const auto& [written, meant] : kSimple) {
            if (c == written) {
                unit = meant;
                return true;
            }
        }
        if (c != 'u')
            return fail(u"an unknown escape \\"_s + QLatin1Char(c >= 0x21 && c < 0x7f ? c : '?') + u" in a string"_s);
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            if (m_p == m_end)
                return failAt(line, column, u"a string that is never closed"_s);
            const int digit = hexDigit(*m_p);
            if (digit < 0)
                return fail(u"\\u needs four hexadecimal digits"_s);
            value = value * 16 + static_cast<unsigned>(digit);
            advance();
        }
        unit = static_cast<char16_t>(value);
        return true;
    }

    // Reads a string at m_p (an opening quote); text == nullptr: only check it.
    bool string(QString* text)
    {
        const int line = m_line;
        const int column = m_column;
        advance();  // the opening quote
        const char* segment = m_p;
        const auto flush = [&] {
            if (text && m_p > segment)
                text->append(QString::fromUtf8(segment, m_p - segment));
        };
        char16_t pendingHigh = 0;  // a high surrogate waiting for its low half
        const auto flushSurrogate = [&] {
            if (pendingHigh != 0 && text)
                text->append(QChar(0xFFFD));  // a lone surrogate (Python writes them) is not text: replaced
            pendingHigh = 0;
        };
        while (m_p != m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                flush();
                flushSurrogate();
                advance();
                return true;
            }
            if (c < 0x20)
                return fail(u"a raw control character (U+"_s + QString::number(c, 16).rightJustified(4, u'0') +
                            u") inside a string; JSON writes it escaped"_s);
            if (c != '\\') {
                if (pendingHigh != 0) {
                    flushSurrogate();
                    segment = m_p;
                }
                const int length = c < 0x80 ? 1 : utf8SequenceLength(QByteArrayView(m_begin, m_end), m_p - m_begin);
                if (length == 0)
                    return fail(u"the byte 0x"_s + QString::number(c, 16) +
                                u" is not UTF-8 text (a binary file, or another encoding?)"_s);
                for (int i = 0; i < length; ++i)
                    advance();
                continue;
            }
            flush();
            advance();  // the backslash
            if (m_p == m_end)
                break;
            char16_t unit = 0;
            if (!escape(unit, line, column))
                return false;
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                flushSurrogate();
                pendingHigh = unit;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                if (pendingHigh != 0) {
                    if (text) {
                        text->append(QChar(pendingHigh));
                        text->append(QChar(unit));
                    }
                    pendingHigh = 0;
                } else if (text) {
                    text->append(QChar(0xFFFD));
                }
            } else {
                flushSurrogate();
                if (text)
                    text->append(QChar(unit));
            }
            segment = m_p;
        }
        return failAt(line, column, u"a string that is never closed (truncated file?)"_s);
    }

    bool enter()
    {
        if (++m_depth > m_options.maxDepth)
            return fail(u"lists and objects nested deeper than "_s + QString::number(m_options.maxDepth) +
                        u" levels"_s);
        m_path.push_back({});
        return true;
    }
    void leave()
    {
        --m_depth;
        m_path.pop_back();
    }

    // "kernels[1].gflops": the containers around the current one, then key.
    QString pathTo(const QString& key) const
    {
        QString path;
        for (std::size_t i = 0; i + 1 < m_path.size(); ++i) {
            if (m_path[i].key)
                path += (path.isEmpty() ? QString() : u"."_s) + oneLine(m_path[i].key->left(40));
            else
                path += u'[' + QString::number(m_path[i].index) + u']';
        }
        return (path.isEmpty() ? QString() : path + u'.') + oneLine(key.left(40));
    }

    // split: record where each item lies (out is then nullptr).
    bool array(JsonNode* out, qsizetype* count, JsonSplitArray* split = nullptr)
    {
        const int line = m_line;
        const int column = m_column;
        if (!enter())
            return false;
        advance();  // [
        if (out)
            out->m_type = JsonNode::Type::Array;
        qsizetype n = 0;
        skipWhitespace();
        if (m_p != m_end && *m_p == ']') {
            advance();
        } else {
            for (;;) {
                m_path.back().index = n;
                skipWhitespace();
                const qsizetype begin = m_p - m_begin;
                if (split && (m_p == m_end || *m_p != '{'))
                    split->allObjects = false;
                if (out) {
                    JsonNode item;
                    if (!value(&item, nullptr))
                        return false;
                    out->payload().items.push_back(std::move(item));
                } else if (!value(nullptr, nullptr)) {
                    return false;
                }
                if (split)
                    split->entries.push_back({begin, m_p - m_begin});
                ++n;
                skipWhitespace();
                if (m_p == m_end)
                    return failAt(line, column, u"a list that is never closed (truncated file?)"_s);
                if (*m_p == ',') {
                    advance();
                    skipWhitespace();
                    if (m_p != m_end && *m_p == ']')
                        return fail(u"a ',' before ']' (a trailing comma; JSON does not allow it)"_s);
                    continue;
                }
                if (*m_p == ']') {
                    advance();
                    break;
                }
                return fail(u"expected ',' or ']' in a list, found "_s + here());
            }
        }
        leave();
        if (count)
            *count = n;
        return true;
    }

    bool object(JsonNode* out, qsizetype* count)
    {
        const int line = m_line;
        const int column = m_column;
        if (!enter())
            return false;
        advance();  // {
        if (out)
            out->m_type = JsonNode::Type::Object;
        qsizetype n = 0;
        QSet<QString> keys;  // used once an object outgrows the linear check
        std::vector<QString> keyList;
        skipWhitespace();
        if (m_p != m_end && *m_p == '}') {
            advance();
        } else {
            for (;;) {
                skipWhitespace();
                if (m_p == m_end)
                    return failAt(line, column, u"an object that is never closed (truncated file?)"_s);
                if (*m_p != '"')
                    return fail(u"expected a key in quotes, found "_s + here());
                const int keyLine = m_line;
                const int keyColumn = m_column;
                QString key;
                if (!string(&key))
                    return false;
                if (!checkDuplicate(key, keys, keyList, keyLine, keyColumn))
                    return false;
                m_path.back().key = &key;
                skipWhitespace();
                if (m_p == m_end || *m_p != ':')
                    return fail(u"expected ':' after the key \""_s + oneLine(key.left(40)) + u"\", found "_s + here());
                advance();
                const bool skip = m_options.skipKeys.contains(key);
                skipWhitespace();
                const bool split = m_split && m_depth == 1 && m_p != m_end && *m_p == '[' && key == m_split->key;
                if (out && (skip || split)) {
                    JsonNode node;
                    node.m_line = m_line;
                    node.m_column = m_column;
                    node.m_skipped = true;
                    node.m_type = typeOfNextValue();
                    qsizetype children = 0;
                    if (split)
                        m_split->found = true;
                    if (!countStored() || !(split ? array(nullptr, &children, m_split) : value(nullptr, &children)))
                        return false;
                    node.payload().skippedCount = children;
                    out->payload().members.emplace_back(std::move(key), std::move(node));
                } else if (out) {
                    JsonNode member;
                    if (!value(&member, nullptr))
                        return false;
                    out->payload().members.emplace_back(std::move(key), std::move(member));
                } else if (!value(nullptr, nullptr)) {
                    return false;
                }
                ++n;
                skipWhitespace();
                if (m_p == m_end)
                    return failAt(line, column, u"an object that is never closed (truncated file?)"_s);
                if (*m_p == ',') {
                    advance();
                    skipWhitespace();
                    if (m_p != m_end && *m_p == '}')
                        return fail(u"a ',' before '}' (a trailing comma; JSON does not allow it)"_s);
                    continue;
                }
                if (*m_p == '}') {
                    advance();
                    break;
                }
                return fail(u"expected ',' or '}' in an object, found "_s + here());
            }
        }
        leave();
        if (count)
            *count = n;
        return true;
    }

    // The type of the value about to be read, from its first character (checked when it is read).
    JsonNode::Type typeOfNextValue() const
    {
        if (m_p == m_end)
            return JsonNode::Type::Null;
        switch (*m_p) {
            case '{':
                return JsonNode::Type::Object;
            case '[':
                return JsonNode::Type::Array;
            case '"':
                return JsonNode::Type::String;
            case 't':
            case 'f':
                return JsonNode::Type::Bool;
            case 'n':
                return JsonNode::Type::Null;
            default:
                return JsonNode::Type::Number;
        }
    }

    bool checkDuplicate(const QString& key, QSet<QString>& keys, std::vector<QString>& keyList, int line, int column)
    {
        bool duplicate = false;
        if (keyList.size() < kLinearDuplicateCheck) {
            duplicate = std::find(keyList.cbegin(), keyList.cend(), key) != keyList.cend();
            keyList.push_back(key);
            if (keyList.size() == kLinearDuplicateCheck)
                keys = QSet<QString>(keyList.cbegin(), keyList.cend());
        } else {
            duplicate = keys.contains(key);
            keys.insert(key);
        }
        if (duplicate)
            return failAt(line, column, u"duplicate key "_s + pathTo(key));
        return true;
    }

    struct Step {
        const QString* key = nullptr;  // in an object: the member being read
        qsizetype index = 0;           // in a list: the item being read
    };

    const char* m_begin;
    const char* m_p;
    const char* m_end;
    const JsonReadOptions& m_options;
    JsonSplitArray* m_split;
    std::vector<Step> m_path;
    int m_line = 1;
    int m_column = 1;
    int m_depth = 0;
    qsizetype m_stored = 0;
    std::optional<Error> m_error;
};

Result<std::vector<JsonNode>> readJsonValues(const QByteArray& utf8, const JsonReadOptions& options,
                                             JsonSplitArray* split)
{
    return JsonParser(utf8, options, split).run();
}

}  // namespace ridgeline
