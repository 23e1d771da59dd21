#include "core/json/strict_reader.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

QString formatExactNumber(double value)
{
    if (std::isfinite(value) && std::trunc(value) == value && std::abs(value) < 1e15)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString describeJson(const JsonNode& value)
{
    switch (value.type()) {
        case JsonNode::Type::Null:
            return u"null"_s;
        case JsonNode::Type::Bool:
            return value.boolean() ? u"true"_s : u"false"_s;
        case JsonNode::Type::Number:
            return formatExactNumber(value.number());
        case JsonNode::Type::String:
            return describeText(value.string());
        case JsonNode::Type::Array:
            return u"an array"_s;
        case JsonNode::Type::Object:
            return u"an object"_s;
    }
    return u"nothing"_s;
}

QString describeText(const QString& text)
{
    return u"the string \""_s + (text.size() > 40 ? text.left(40) + u"..."_s : text) + u'"';
}

QString indexedPath(const QString& path, qsizetype index)
{
    return path + u'[' + QString::number(index) + u']';
}

QString shortKey(const QString& key)
{
    return key.size() > 40 ? key.left(40) + u"..."_s : key;
}

Result<JsonNode> readOneJsonValue(const QByteArray& bytes, const JsonReadOptions& options, JsonSplitArray* split)
{
    Result<std::vector<JsonNode>> values = readJsonValues(bytes, options, split);
    if (!values)
        return values.error();
    std::vector<JsonNode>& nodes = values.value();
    if (nodes.size() > 1)
        return Error{Error::Code::Parse, u"line "_s + QString::number(nodes[1].line()) + u", column "_s +
                                             QString::number(nodes[1].column()) +
                                             u": a second JSON value after the end of the document"_s};
    return std::move(nodes.front());
}

Result<JsonNode> parseStrictJson(const QByteArray& bytes, JsonSplitArray* split)
{
    // The tokenizer would name the first NUL byte; say what such a file is instead.
    if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF") || bytes.contains('\0'))
        return Error{Error::Code::Parse, u"not UTF-8 text: it contains NUL bytes (UTF-16 or a binary file?)"_s};
    JsonReadOptions options;
    options.maxValues = std::numeric_limits<qsizetype>::max();
    options.maxDepth = 1024;  // as deep as Qt's parser read Ridgeline's files, so that what loaded still loads
    options.pythonNumbers = false;
    Result<JsonNode> value = readOneJsonValue(bytes, options, split);
    if (!value)
        return value.error();
    if (!value.value().isObject() && !value.value().isArray())
        return Error{Error::Code::Schema, u"the top level must be a JSON object or list, got a single value"_s};
    return value;
}

Result<JsonNode> parseStrictObject(const QByteArray& bytes, JsonSplitArray* split)
{
    Result<JsonNode> document = parseStrictJson(bytes, split);
    if (!document)
        return document.error();
    if (!document.value().isObject())
        return Error{Error::Code::Schema, u"the top level must be a JSON object, got "_s +
                                              (document.value().isArray() ? u"an array"_s : u"a single value"_s)};
    return document;
}

ObjectReader::ObjectReader(const JsonNode& object, QString path, Problem& problem, ReadMode mode)
    : m_object(&object), m_path(std::move(path)), m_problem(problem), m_mode(mode)
{
}

ObjectReader ObjectReader::nested(const JsonNode& object, QAnyStringView key) const
{
    return ObjectReader(object, where(key), m_problem, m_mode);
}

const JsonNode* ObjectReader::get(QAnyStringView key) const
{
    for (const JsonNode::Member& member : m_object->members())
        if (QAnyStringView::equal(member.first, key))
            return &member.second;
    return nullptr;
}

bool ObjectReader::has(QAnyStringView key) const
{
    const JsonNode* value = get(key);
    return value && !(m_mode != ReadMode::Strict && value->isNull());
}

QString ObjectReader::where(QAnyStringView key) const
{
    return m_path.isEmpty() ? key.toString() : m_path + u'.' + key.toString();
}

void ObjectReader::refuse(const JsonNode& at, const QString& detail)
{
    m_problem.report(Error::Code::Schema, at.location() + detail);
}

void ObjectReader::refuseKey(QAnyStringView key, const QString& detail)
{
    const JsonNode* value = get(key);
    refuse(value ? *value : *m_object, detail);
}

void ObjectReader::refuseMissing(QAnyStringView key, const QString& why)
{
    refuse(*m_object, u"the object"_s + (m_path.isEmpty() ? QString() : u" "_s + m_path) + u" has no \""_s +
                          key.toString() + u"\" ("_s + why + u')');
}

void ObjectReader::refuseType(const JsonNode& value, QAnyStringView key, const QString& expected)
{
    if (m_mode == ReadMode::Located)
        refuse(value, u"\""_s + where(key) + u"\" is "_s + value.describe() + u"; expected "_s + expected);
    else
        refuse(where(key) + u" must be "_s + expected + u", got "_s + describeJson(value));
}

const JsonNode* ObjectReader::take(QAnyStringView key, Need need)
{
    // Only Ridgeline's own files refuse keys nobody asked for.
    if (m_mode == ReadMode::Strict)
        m_known.append(key.toString());
    if (m_problem.found())
        return nullptr;
    if (!has(key)) {
        if (need == Need::Required)
            m_problem.report(Error::Code::Schema, u"missing required field "_s + where(key));
        return nullptr;
    }
    return get(key);
}

QString ObjectReader::text(QAnyStringView key, Need need)
{
    const JsonNode* value = take(key, need);
    if (value && m_mode == ReadMode::Located) {
        if (value->isString())
            return value->string();
        refuseType(*value, key, u"a string"_s);
        return {};
    }
    return value ? checkedText(*value, where(key), m_problem) : QString();
}

bool ObjectReader::boolean(QAnyStringView key, bool fallback)
{
    const JsonNode* value = take(key, Need::Optional);
    if (!value)
        return fallback;
    if (!value->isBool()) {
        refuseType(*value, key, u"true or false"_s);
        return fallback;
    }
    return value->boolean();
}

double ObjectReader::number(QAnyStringView key, double max, Need need)
{
    const JsonNode* value = take(key, need);
    return value ? checkedNumber(*value, where(key), max, m_problem) : 0.0;
}

std::int64_t ObjectReader::integer(QAnyStringView key, std::int64_t min, std::int64_t max, std::int64_t fallback,
                                   Need need)
{
    const JsonNode* value = take(key, need);
    if (!value)
        return fallback;
    const double asDouble = value->number();
    const bool whole = value->isNumber() && std::isfinite(asDouble) && std::trunc(asDouble) == asDouble;
    if (!whole || asDouble < static_cast<double>(min) || asDouble > static_cast<double>(max)) {
        m_problem.report(whole ? Error::Code::Range : Error::Code::Schema,
                         where(key) + u" must be a whole number from "_s + QString::number(min) + u" to "_s +
                             QString::number(max) + u", got "_s + describeJson(*value));
        return fallback;
    }
    return static_cast<std::int64_t>(asDouble);
}

int ObjectReader::smallInteger(QAnyStringView key, int min, std::int64_t max, int fallback, Need need)
{
    return static_cast<int>(integer(key, min, max, fallback, need));
}

const JsonNode* ObjectReader::object(QAnyStringView key, Need need)
{
    const JsonNode* value = take(key, need);
    if (!value)
        return nullptr;
    if (!value->isObject()) {
        refuseType(*value, key, u"an object"_s);
        return nullptr;
    }
    return value;
}

const JsonNode* ObjectReader::array(QAnyStringView key, qsizetype maxEntries, Need need)
{
    const JsonNode* value = take(key, need);
    if (!value)
        return nullptr;
    if (!value->isArray()) {
        refuseType(*value, key, m_mode == ReadMode::Located ? u"a list"_s : u"an array"_s);
        return nullptr;
    }
    if (value->size() > maxEntries) {
        m_problem.report(Error::Code::Range, where(key) + u" has "_s + QString::number(value->size()) +
                                                 u" entries; at most "_s + QString::number(maxEntries) +
                                                 u" are allowed"_s);
        return nullptr;
    }
    return value;
}

QDateTime ObjectReader::dateTime(QAnyStringView key)
{
    const JsonNode* value = take(key, Need::Optional);
    if (!value)
        return {};
    // RFC 3339, as Ridgeline writes it and resources/schema/session.schema.json says: Qt alone would also
    // take "2026-12-02", "2026-12-02 16", "t", "z" and "+0200", which no schema could follow.
    static const QRegularExpression rfc3339(
        QStringLiteral("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
                       "(\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"));
    QDateTime parsed;
    if (value->isString() && rfc3339.match(value->string()).hasMatch())
        parsed = QDateTime::fromString(value->string(), Qt::ISODateWithMs);
    if (!parsed.isValid())
        m_problem.report(Error::Code::Schema, where(key) +
                                                  u" must be an ISO 8601 date and time such as "
                                                  "\"2026-12-02T16:44:16Z\", got "_s +
                                                  describeJson(*value));
    return parsed;
}

std::optional<double> ObjectReader::quantity(QAnyStringView key, Quantity quantity)
{
    const JsonNode* value = take(key, Need::Optional);
    if (!value)
        return std::nullopt;
    if (!value->isNumber()) {
        refuseType(*value, key, quantityName(quantity) + u" (a number)"_s);
        return std::nullopt;
    }
    if (std::isnan(value->number())) {
        m_problem.noteNan(where(key));
        return std::nullopt;
    }
    const Result<double> checked = checkQuantity(value->number(), quantity);
    if (!checked) {
        refuse(*value,
               u"\""_s + where(key) + u"\" "_s + checked.error().message + u"; expected "_s + quantityName(quantity));
        return std::nullopt;
    }
    return checked.value();
}

std::optional<std::int64_t> ObjectReader::count(QAnyStringView key, std::int64_t max)
{
    const JsonNode* value = take(key, Need::Optional);
    if (!value)
        return std::nullopt;
    const double number = value->isNumber() ? value->number() : 0;
    if (!value->isNumber() || !std::isfinite(number) || number < 0 || number != std::floor(number) ||
        number > static_cast<double>(max)) {
        refuseType(*value, key, u"a whole number from 0 to "_s + QString::number(max));
        return std::nullopt;
    }
    return static_cast<std::int64_t>(number);
}

std::optional<bool> ObjectReader::flag(QAnyStringView key)
{
    const JsonNode* value = take(key, Need::Optional);
    if (!value)
        return std::nullopt;
    if (value->isBool())
        return value->boolean();
    if (value->isNumber() && (value->number() == 0 || value->number() == 1))
        return value->number() == 1;
    refuseType(*value, key, u"true or false"_s);
    return std::nullopt;
}

void ObjectReader::rejectUnknownKeys()
{
    if (m_problem.found() || m_mode != ReadMode::Strict)
        return;
    // The first unknown key in sorted order, so that the message does not depend on how the file was laid out.
    const QString* unknown = nullptr;
    for (const JsonNode::Member& member : m_object->members()) {
        const QString& key = member.first;
        const bool known = m_known.contains(key);
        if (!known && (!unknown || key < *unknown))
            unknown = &key;
    }
    if (unknown)
        m_problem.report(Error::Code::Schema, u"unknown field "_s + where(shortKey(*unknown)));
}

QString ObjectReader::checkedText(const JsonNode& value, const QString& where, Problem& problem)
{
    if (!value.isString()) {
        problem.report(Error::Code::Schema, where + u" must be a string, got "_s + describeJson(value));
        return {};
    }
    const QString& text = value.string();
    if (text.size() > kMaxTextChars) {
        problem.report(Error::Code::Range, where + u" is "_s + QString::number(text.size()) +
                                               u" characters long; at most "_s + QString::number(kMaxTextChars) +
                                               u" are allowed"_s);
        return {};
    }
    return text;
}

double ObjectReader::checkedNumber(const JsonNode& value, const QString& where, double max, Problem& problem)
{
    if (!value.isNumber()) {
        problem.report(Error::Code::Schema, where + u" must be a finite number >= 0, got "_s + describeJson(value));
        return 0.0;
    }
    const double number = value.number();
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

QStringList textListFromJson(ObjectReader& in, QAnyStringView key, qsizetype maxItems)
{
    QStringList texts;
    const JsonNode* array = in.array(key, maxItems, Need::Optional);
    if (!array)
        return texts;
    for (std::size_t i = 0; i < array->items().size() && !in.problem().found(); ++i)
        texts.append(ObjectReader::checkedText(array->items()[i], indexedPath(in.where(key), static_cast<qsizetype>(i)),
                                               in.problem()));
    return texts;
}

int readHeader(ObjectReader& in, const QString& format, const QString& kind, int newestSchema)
{
    Problem& problem = in.problem();
    const QString notOurs = u"not a Ridgeline "_s + kind + u": "_s;
    const JsonNode* given = in.take("format"_L1, Need::Optional);
    if (!given) {
        problem.report(Error::Code::Schema, notOurs + u"no \"format\": \""_s + format + u"\" field"_s);
        return 0;
    }
    if (given->string() != format) {
        problem.report(Error::Code::Schema,
                       notOurs + u"format is "_s + describeJson(*given) + u", expected \""_s + format + u'"');
        return 0;
    }
    const JsonNode* version = in.take("schema_version"_L1, Need::Optional);
    if (!version) {
        problem.report(Error::Code::Schema, u"missing required field schema_version"_s);
        return 0;
    }
    const double number = version->isNumber() ? version->number() : std::nan("");
    if (!version->isNumber() || std::trunc(number) != number) {
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
