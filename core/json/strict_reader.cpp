#include "core/json/strict_reader.h"

#include <QLocale>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// QJsonDocument keeps the last of two equal keys without a word, so duplicates are found here, on the
// raw text, after Qt has accepted it as valid JSON. Returns the path of the first duplicate.
class DuplicateKeyScanner {
public:
    explicit DuplicateKeyScanner(const QByteArray& json) : m_json(json) {}

    std::optional<std::pair<QString, qsizetype>> firstDuplicate()
    {
        for (qsizetype i = 0; i < m_json.size(); ++i) {
            switch (m_json.at(i)) {
                case '{':
                    m_frames.emplace_back().isObject = true;
                    break;
                case '[':
                    m_frames.emplace_back().isObject = false;
                    break;
                case '}':
                case ']':
                    m_frames.pop_back();
                    break;
                case ',':
                    if (!m_frames.empty()) {
                        Frame& frame = m_frames.back();
                        if (frame.isObject)
                            frame.expectKey = true;
                        else
                            ++frame.index;
                    }
                    break;
                case '"': {
                    const qsizetype start = i;
                    i = endOfString(i);
                    if (m_frames.empty() || !m_frames.back().isObject || !m_frames.back().expectKey)
                        break;
                    Frame& frame = m_frames.back();
                    frame.expectKey = false;
                    frame.key = decodedKey(m_json.mid(start + 1, i - start - 1));
                    if (frame.keys.contains(frame.key))
                        return std::make_pair(path(), start);
                    frame.keys.insert(frame.key);
                    break;
                }
                default:
                    break;
            }
        }
        return std::nullopt;
    }

private:
    struct Frame {
        bool isObject = false;
        bool expectKey = true;
        qsizetype index = 0;
        QString key;
        QSet<QString> keys;
    };

    // Index of the closing quote of the string opening at i.
    qsizetype endOfString(qsizetype i) const
    {
        for (++i; i < m_json.size() && m_json.at(i) != '"'; ++i) {
            if (m_json.at(i) == '\\')
                ++i;
        }
        return i;
    }

    // "\u0061" and "a" are the same key; let Qt decode the rare escaped one.
    static QString decodedKey(const QByteArray& raw)
    {
        if (!raw.contains('\\'))
            return QString::fromUtf8(raw);
        QByteArray wrapped;
        wrapped.append("[\"").append(raw).append("\"]");
        return QJsonDocument::fromJson(wrapped).array().at(0).toString();
    }

    QString path() const
    {
        QString result;
        for (const Frame& frame : m_frames) {
            if (!frame.isObject)
                result = indexedPath(result, frame.index);
            else
                result = result.isEmpty() ? shortKey(frame.key) : result + u'.' + shortKey(frame.key);
        }
        return result;
    }

    const QByteArray& m_json;
    std::vector<Frame> m_frames;
};

QString lineAndColumn(const QByteArray& bytes, qsizetype offset)
{
    const QByteArray before = bytes.left(offset);
    const qsizetype line = before.count('\n') + 1;
    const qsizetype column = offset - (before.lastIndexOf('\n') + 1) + 1;
    return u"line "_s + QString::number(line) + u", column "_s + QString::number(column);
}

}  // namespace

QString formatExactNumber(double value)
{
    if (std::isfinite(value) && std::trunc(value) == value && std::abs(value) < 1e15)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString describeJson(const QJsonValue& value)
{
    switch (value.type()) {
        case QJsonValue::Null:
            return u"null"_s;
        case QJsonValue::Bool:
            return value.toBool() ? u"true"_s : u"false"_s;
        case QJsonValue::Double:
            return formatExactNumber(value.toDouble());
        case QJsonValue::String: {
            const QString text = value.toString();
            return u"the string \""_s + (text.size() > 40 ? text.left(40) + u"..."_s : text) + u'"';
        }
        case QJsonValue::Array:
            return u"an array"_s;
        case QJsonValue::Object:
            return u"an object"_s;
        case QJsonValue::Undefined:
            break;
    }
    return u"nothing"_s;
}

QString indexedPath(const QString& path, qsizetype index)
{
    return path + u'[' + QString::number(index) + u']';
}

QString shortKey(const QString& key)
{
    return key.size() > 40 ? key.left(40) + u"..."_s : key;
}

Result<QJsonDocument> parseStrictJson(const QByteArray& bytes)
{
    // Qt would call UTF-16 "illegal value at offset 1"; say what it is instead.
    if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF") || bytes.contains('\0'))
        return Error{Error::Code::Parse, u"not UTF-8 text: it contains NUL bytes (UTF-16 or a binary file?)"_s};
    QJsonParseError parseError;
    QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        QString detail = u"truncated or invalid JSON at offset "_s + QString::number(parseError.offset) + u" ("_s +
                         lineAndColumn(bytes, parseError.offset) + u"): "_s + parseError.errorString();
        if (parseError.error == QJsonParseError::IllegalUTF8String)
            detail += u" (the file is not UTF-8 text)"_s;
        else if (parseError.error == QJsonParseError::IllegalNumber)
            detail += u" (NaN, Infinity and numbers beyond double range, like 1e999, are not allowed)"_s;
        return Error{Error::Code::Parse, detail};
    }
    if (const auto duplicate = DuplicateKeyScanner(bytes).firstDuplicate())
        return Error{Error::Code::Parse, u"duplicate key "_s + oneLine(duplicate->first) + u" at offset "_s +
                                             QString::number(duplicate->second) + u" ("_s +
                                             lineAndColumn(bytes, duplicate->second) + u')'};
    return document;
}

Result<QJsonObject> parseStrictObject(const QByteArray& bytes)
{
    const Result<QJsonDocument> document = parseStrictJson(bytes);
    if (!document)
        return document.error();
    if (!document.value().isObject())
        return Error{Error::Code::Schema, u"the top level must be a JSON object, got "_s +
                                              (document.value().isArray() ? u"an array"_s : u"a single value"_s)};
    return document.value().object();
}

ObjectReader::ObjectReader(QJsonObject object, QString path, Problem& problem)
    : m_object(std::move(object)), m_path(std::move(path)), m_problem(problem)
{
}

QString ObjectReader::where(const QString& key) const
{
    return m_path.isEmpty() ? key : m_path + u'.' + key;
}

std::optional<QJsonValue> ObjectReader::take(QLatin1StringView key, Need need)
{
    m_known.append(key);
    if (m_problem.found())
        return std::nullopt;
    const auto it = m_object.constFind(key);
    if (it == m_object.constEnd()) {
        if (need == Need::Required)
            m_problem.report(Error::Code::Schema, u"missing required field "_s + where(key));
        return std::nullopt;
    }
    return QJsonValue(it.value());
}

QString ObjectReader::text(QLatin1StringView key, Need need)
{
    const auto value = take(key, need);
    return value ? checkedText(*value, where(key), m_problem) : QString();
}

bool ObjectReader::boolean(QLatin1StringView key, bool fallback)
{
    const auto value = take(key, Need::Optional);
    if (!value)
        return fallback;
    if (!value->isBool()) {
        m_problem.report(Error::Code::Schema, where(key) + u" must be true or false, got "_s + describeJson(*value));
        return fallback;
    }
    return value->toBool();
}

double ObjectReader::number(QLatin1StringView key, double max, Need need)
{
    const auto value = take(key, need);
    return value ? checkedNumber(*value, where(key), max, m_problem) : 0.0;
}

std::int64_t ObjectReader::integer(QLatin1StringView key, std::int64_t min, std::int64_t max, std::int64_t fallback,
                                   Need need)
{
    const auto value = take(key, need);
    if (!value)
        return fallback;
    const double asDouble = value->toDouble(std::nan(""));
    const bool whole = value->isDouble() && std::isfinite(asDouble) && std::trunc(asDouble) == asDouble;
    if (!whole || asDouble < static_cast<double>(min) || asDouble > static_cast<double>(max)) {
        m_problem.report(whole ? Error::Code::Range : Error::Code::Schema,
                         where(key) + u" must be an integer in "_s + QString::number(min) + u".."_s +
                             QString::number(max) + u", got "_s + describeJson(*value));
        return fallback;
    }
    return value->toInteger();
}

int ObjectReader::smallInteger(QLatin1StringView key, int min, std::int64_t max, int fallback, Need need)
{
    return static_cast<int>(integer(key, min, max, fallback, need));
}

std::optional<QJsonObject> ObjectReader::object(QLatin1StringView key, Need need)
{
    const auto value = take(key, need);
    if (!value)
        return std::nullopt;
    if (!value->isObject()) {
        m_problem.report(Error::Code::Schema, where(key) + u" must be an object, got "_s + describeJson(*value));
        return std::nullopt;
    }
    return value->toObject();
}

std::optional<QJsonArray> ObjectReader::array(QLatin1StringView key, qsizetype maxEntries, Need need)
{
    const auto value = take(key, need);
    if (!value)
        return std::nullopt;
    if (!value->isArray()) {
        m_problem.report(Error::Code::Schema, where(key) + u" must be an array, got "_s + describeJson(*value));
        return std::nullopt;
    }
    QJsonArray entries = value->toArray();
    if (entries.size() > maxEntries) {
        m_problem.report(Error::Code::Range, where(key) + u" has "_s + QString::number(entries.size()) +
                                                 u" entries; at most "_s + QString::number(maxEntries) +
                                                 u" are allowed"_s);
        return std::nullopt;
    }
    return entries;
}

QDateTime ObjectReader::dateTime(QLatin1StringView key)
{
    const auto value = take(key, Need::Optional);
    if (!value)
        return {};
    // RFC 3339, as Ridgeline writes it and resources/schema/session.schema.json says: Qt alone would also
    // take "2026-12-02", "2026-12-02 16", "t", "z" and "+0200", which no schema could follow.
    static const QRegularExpression rfc3339(
        QStringLiteral("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
                       "(\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"));
    QDateTime parsed;
    if (value->isString() && rfc3339.match(value->toString()).hasMatch())
        parsed = QDateTime::fromString(value->toString(), Qt::ISODateWithMs);
    if (!parsed.isValid())
        m_problem.report(Error::Code::Schema, where(key) +
                                                  u" must be an ISO 8601 date and time such as "
                                                  "\"2026-12-02T16:44:16Z\", got "_s +
                                                  describeJson(*value));
    return parsed;
}

void ObjectReader::rejectUnknownKeys()
{
    if (m_problem.found())
        return;
    for (const QString& key : m_object.keys()) {
        const bool known = std::any_of(m_known.cbegin(), m_known.cend(),
                                       [&key](QLatin1StringView knownKey) { return key == knownKey; });
        if (!known) {
            m_problem.report(Error::Code::Schema, u"unknown field "_s + where(shortKey(key)));
            return;
        }
    }
}

QString ObjectReader::checkedText(const QJsonValue& value, const QString& where, Problem& problem)
{
    if (!value.isString()) {
        problem.report(Error::Code::Schema, where + u" must be a string, got "_s + describeJson(value));
        return {};
    }
    QString text = value.toString();
    if (text.size() > kMaxTextChars) {
        problem.report(Error::Code::Range, where + u" is "_s + QString::number(text.size()) +
                                               u" characters long; at most "_s + QString::number(kMaxTextChars) +
                                               u" are allowed"_s);
        return {};
    }
    return text;
}

double ObjectReader::checkedNumber(const QJsonValue& value, const QString& where, double max, Problem& problem)
{
    if (!value.isDouble()) {
        problem.report(Error::Code::Schema, where + u" must be a finite number >= 0, got "_s + describeJson(value));
        return 0.0;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || number < 0.0) {
        problem.report(Error::Code::Range, where + u" must be a finite number >= 0, got "_s + describeJson(value));
        return 0.0;
    }
    if (number > max) {
        problem.report(Error::Code::Range,
                       where + u" must be at most "_s + formatExactNumber(max) + u", got "_s + describeJson(value));
        return 0.0;
    }
    return number;
}

QStringList textListFromJson(ObjectReader& in, QLatin1StringView key, qsizetype maxItems)
{
    QStringList texts;
    const auto array = in.array(key, maxItems, Need::Optional);
    if (!array)
        return texts;
    for (qsizetype i = 0; i < array->size() && !in.problem().found(); ++i)
        texts.append(ObjectReader::checkedText(array->at(i), indexedPath(in.where(key), i), in.problem()));
    return texts;
}

int readHeader(ObjectReader& in, const QString& format, const QString& kind, int newestSchema)
{
    Problem& problem = in.problem();
    const QString notOurs = u"not a Ridgeline "_s + kind + u": "_s;
    const auto given = in.take("format"_L1, Need::Optional);
    if (!given) {
        problem.report(Error::Code::Schema, notOurs + u"no \"format\": \""_s + format + u"\" field"_s);
        return 0;
    }
    if (given->toString() != format) {
        problem.report(Error::Code::Schema,
                       notOurs + u"format is "_s + describeJson(*given) + u", expected \""_s + format + u'"');
        return 0;
    }
    const auto version = in.take("schema_version"_L1, Need::Optional);
    if (!version) {
        problem.report(Error::Code::Schema, u"missing required field schema_version"_s);
        return 0;
    }
    const double number = version->toDouble(std::nan(""));
    if (!version->isDouble() || std::trunc(number) != number) {
        problem.report(Error::Code::Schema, u"schema_version must be an integer, got "_s + describeJson(*version));
        return 0;
    }
    const QString supported = newestSchema == 1 ? u"schema 1"_s : u"schemas 1 to "_s + QString::number(newestSchema);
    if (number > newestSchema) {
        problem.report(Error::Code::Unsupported, u"written by a newer Ridgeline (schema "_s + describeJson(*version) +
                                                     u"); this build reads up to "_s + QString::number(newestSchema));
    } else if (number < 1) {
        problem.report(Error::Code::Schema, u"schema_version "_s + describeJson(*version) + u" is not a Ridgeline "_s +
                                                kind + u" schema; this build reads "_s + supported);
    }
    return problem.found() ? 0 : static_cast<int>(number);
}

}  // namespace ridgeline
