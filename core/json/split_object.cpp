#include "core/json/split_object.h"

#include <QJsonDocument>

#include <optional>
#include <utility>

namespace ridgeline {

namespace {

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Finds where values begin and end without checking them: Qt checks every piece afterwards, so a scan fooled by a
// broken file only sends that file down the whole-document path.
class Scanner {
public:
    explicit Scanner(const QByteArray& bytes) : m_data(bytes.constData()), m_size(bytes.size()) {}

    qsizetype pos() const { return m_pos; }
    bool atEnd()
    {
        skipSpace();
        return m_pos == m_size;
    }
    bool next(char c)
    {
        skipSpace();
        if (m_pos < m_size && m_data[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    bool sees(char c)
    {
        skipSpace();
        return m_pos < m_size && m_data[m_pos] == c;
    }
    // The raw text of a string at the cursor (escapes left as written), or nullopt.
    std::optional<QByteArray> string()
    {
        if (!sees('"'))
            return std::nullopt;
        const qsizetype start = m_pos;
        if (!skipString())
            return std::nullopt;
        return QByteArray(m_data + start + 1, m_pos - start - 2);
    }
    bool skipValue()
    {
        skipSpace();
        if (m_pos == m_size)
            return false;
        const char first = m_data[m_pos];
        if (first == '"')
            return skipString();
        if (first == '{' || first == '[')
            return skipContainer();
        const qsizetype start = m_pos;
        while (m_pos < m_size && !isJsonSpace(m_data[m_pos]) && m_data[m_pos] != ',' && m_data[m_pos] != ']' &&
               m_data[m_pos] != '}')
            ++m_pos;
        return m_pos > start;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_size && isJsonSpace(m_data[m_pos]))
            ++m_pos;
    }
    bool skipString()
    {
        for (++m_pos; m_pos < m_size; ++m_pos) {
            if (m_data[m_pos] == '\\')
                ++m_pos;
            else if (m_data[m_pos] == '"') {
                ++m_pos;
                return true;
            }
        }
        return false;
    }
    bool skipContainer()
    {
        qsizetype depth = 0;
        while (m_pos < m_size) {
            const char c = m_data[m_pos];
            if (c == '"') {
                if (!skipString())
                    return false;
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0) {
                ++m_pos;
                return true;
            }
            ++m_pos;
        }
        return false;
    }

    const char* m_data;
    qsizetype m_size;
    qsizetype m_pos = 0;
};

struct Layout {
    qsizetype arrayBegin = -1;  // the '[' of the split array; -1 when the file has none to split
    qsizetype arrayEnd = -1;    // one past its ']'
    std::vector<std::pair<qsizetype, qsizetype>> entries;
};

// The array's entries, each an object; the cursor is on its '['.
bool scanEntries(Scanner& in, Layout& layout)
{
    in.next('[');
    if (in.next(']'))
        return true;
    do {
        if (!in.sees('{'))
            return false;
        const qsizetype begin = in.pos();
        if (!in.skipValue())
            return false;
        layout.entries.emplace_back(begin, in.pos());
    } while (in.next(','));
    return in.next(']');
}

// Where the top-level member `key` holds its array; nullopt when the file is not a plain object of members.
std::optional<Layout> scanLayout(const QByteArray& bytes, QLatin1StringView key)
{
    Scanner in(bytes);
    Layout layout;
    if (!in.next('{'))
        return std::nullopt;
    if (in.next('}'))
        return in.atEnd() ? std::optional(layout) : std::nullopt;
    do {
        const std::optional<QByteArray> name = in.string();
        if (!name || !in.next(':'))
            return std::nullopt;
        if (layout.arrayBegin < 0 && in.sees('[') && *name == QByteArrayView(key.data(), key.size())) {
            layout.arrayBegin = in.pos();
            if (!scanEntries(in, layout))
                return std::nullopt;
            layout.arrayEnd = in.pos();
        } else if (!in.skipValue()) {
            return std::nullopt;
        }
    } while (in.next(','));
    if (!in.next('}') || !in.atEnd())
        return std::nullopt;
    return layout;
}

}  // namespace

SplitObject SplitObject::whole(QJsonObject root)
{
    SplitObject file;
    file.m_root = std::move(root);
    return file;
}

QJsonObject SplitObject::entry(qsizetype i) const
{
    const Range& range = m_entries[static_cast<std::size_t>(i)];
    return QJsonDocument::fromJson(QByteArray::fromRawData(m_bytes.constData() + range.begin, range.end - range.begin))
        .object();
}

Result<SplitObject> parseStrictObjectSplit(QByteArray bytes, QLatin1StringView arrayKey)
{
    auto whole = [&bytes]() -> Result<SplitObject> {
        Result<QJsonObject> root = parseStrictObject(bytes);
        if (!root)
            return root.error();
        return SplitObject::whole(std::move(root.value()));
    };

    const std::optional<Layout> layout = scanLayout(bytes, arrayKey);
    if (!layout || layout->arrayBegin < 0)
        return whole();
    const QByteArray rest = bytes.left(layout->arrayBegin) + "[]" + bytes.mid(layout->arrayEnd);
    Result<QJsonObject> root = parseStrictObject(rest);
    if (!root)
        return whole();
    SplitObject file;
    file.m_entries.reserve(layout->entries.size());
    for (const auto& [begin, end] : layout->entries) {
        // Each entry as strictly as the whole would be: syntax, UTF-8, NUL bytes, a key twice.
        if (!parseStrictJson(QByteArray::fromRawData(bytes.constData() + begin, end - begin)))
            return whole();
        file.m_entries.push_back({begin, end});
    }
    file.m_root = std::move(root.value());
    file.m_bytes = std::move(bytes);
    file.m_split = true;
    return file;
}

}  // namespace ridgeline
