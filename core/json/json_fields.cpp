#include "core/json/json_fields.h"

#include "core/message_text.h"
#include "core/physical_limits.h"

#include <cmath>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// Bounds past which a value is a corrupt or hostile file, not a benchmark.
constexpr double kMaxSeconds = 1e7;  // about four months
constexpr double kMaxTokensPerSecond = 1e12;
constexpr double kMaxRequestsPerSecond = 1e9;
constexpr double kMaxTokens = 1e15;
constexpr double kMaxRatio = 1e9;

double scale(Quantity quantity)
{
    switch (quantity) {
        case Quantity::Milliseconds:
            return 1e-3;
        case Quantity::Nanoseconds:
            return 1e-9;
        default:
            return 1.0;
    }
}

double bound(Quantity quantity)
{
    switch (quantity) {
        case Quantity::Seconds:
        case Quantity::Milliseconds:
        case Quantity::Nanoseconds:
            return kMaxSeconds;
        case Quantity::TokensPerSecond:
            return kMaxTokensPerSecond;
        case Quantity::RequestsPerSecond:
            return kMaxRequestsPerSecond;
        case Quantity::Tokens:
            return kMaxTokens;
        case Quantity::Ratio:
            return kMaxRatio;
    }
    return 0;
}

// Times and rates keep to the physical rule as well (0 stays "nothing measured"): a latency of 5e-324 s would make
// every relative error of a fit infinite. Shown in the file's own unit.
std::optional<QString> unphysical(double value, Quantity quantity)
{
    switch (quantity) {
        case Quantity::Seconds:
            return physicalProblem(PhysicalQuantity::DurationSeconds, value, 1.0, u"s");
        case Quantity::Milliseconds:
            return physicalProblem(PhysicalQuantity::DurationSeconds, value, 1e-3, u"ms");
        case Quantity::Nanoseconds:
            return physicalProblem(PhysicalQuantity::DurationSeconds, value, 1e-9, u"ns");
        case Quantity::TokensPerSecond:
            return physicalProblem(PhysicalQuantity::PerSecond, value, 1.0, u"tokens/s");
        case Quantity::RequestsPerSecond:
            return physicalProblem(PhysicalQuantity::PerSecond, value, 1.0, u"requests/s");
        case Quantity::Tokens:
        case Quantity::Ratio:
            break;
    }
    return std::nullopt;
}

}  // namespace

QString nodeLocation(const JsonNode& node)
{
    return u"line "_s + QString::number(node.line()) + u", column "_s + QString::number(node.column()) + u": "_s;
}

QString quantityName(Quantity quantity)
{
    switch (quantity) {
        case Quantity::Seconds:
            return u"seconds"_s;
        case Quantity::Milliseconds:
            return u"milliseconds"_s;
        case Quantity::Nanoseconds:
            return u"nanoseconds"_s;
        case Quantity::TokensPerSecond:
            return u"tokens per second"_s;
        case Quantity::RequestsPerSecond:
            return u"requests per second"_s;
        case Quantity::Tokens:
            return u"tokens"_s;
        case Quantity::Ratio:
            return u"a ratio"_s;
    }
    return {};
}

Result<double> checkQuantity(double value, Quantity quantity)
{
    if (std::isnan(value))
        return makeError(Error::Code::Range, u"is NaN"_s);
    if (std::isinf(value))
        return makeError(Error::Code::Range, value > 0 ? u"is Infinity"_s : u"is -Infinity"_s);
    if (value < 0)
        return makeError(Error::Code::Range, u"is negative ("_s + QString::number(value) + u')');
    const double converted = value * scale(quantity);
    if (converted > bound(quantity))
        return makeError(Error::Code::Range, u"is "_s + QString::number(value) + u", beyond any real "_s +
                                                 quantityName(quantity) + u" (at most "_s +
                                                 QString::number(bound(quantity) / scale(quantity)) + u')');
    if (value != 0.0)
        if (const std::optional<QString> bad = unphysical(value, quantity))
            return makeError(Error::Code::Range, *bad);
    return converted;
}

JsonFields::JsonFields(const JsonNode& object, QString path) : m_object(object), m_path(std::move(path)) {}

bool JsonFields::has(QStringView key) const
{
    const JsonNode* node = get(key);
    return node && !node->isNull();
}

QString JsonFields::pathOf(QStringView key) const
{
    const QString name = oneLine(key.toString());
    return m_path.isEmpty() ? name : m_path + u'.' + name;
}

void JsonFields::fail(const JsonNode& at, const QString& what)
{
    if (!m_error)
        m_error = makeError(Error::Code::Schema, nodeLocation(at) + what);
}

void JsonFields::failKey(QStringView key, const QString& what)
{
    const JsonNode* node = get(key);
    fail(node ? *node : m_object, what);
}

void JsonFields::failMissing(QStringView key, const QString& why)
{
    if (!m_error)
        m_error =
            makeError(Error::Code::Schema, nodeLocation(m_object) + u"the object"_s +
                                               (m_path.isEmpty() ? QString() : u" "_s + m_path) + u" has no \""_s +
                                               oneLine(key.toString()) + u"\" ("_s + why + u')');
}

void JsonFields::adopt(const JsonFields& nested)
{
    if (!m_error && nested.m_error)
        m_error = nested.m_error;
    m_nanKeys << nested.m_nanKeys;
}

std::optional<double> JsonFields::number(QStringView key, Quantity quantity)
{
    const JsonNode* node = get(key);
    if (!fine() || !node || node->isNull())
        return std::nullopt;
    if (!node->isNumber()) {
        fail(*node, u"\""_s + pathOf(key) + u"\" is "_s + node->describe() + u"; expected "_s + quantityName(quantity) +
                        u" (a number)"_s);
        return std::nullopt;
    }
    if (std::isnan(node->number())) {
        m_nanKeys << pathOf(key);
        return std::nullopt;
    }
    const Result<double> checked = checkQuantity(node->number(), quantity);
    if (!checked) {
        fail(*node,
             u"\""_s + pathOf(key) + u"\" "_s + checked.error().message + u"; expected "_s + quantityName(quantity));
        return std::nullopt;
    }
    return checked.value();
}

std::optional<std::int64_t> JsonFields::count(QStringView key, std::int64_t max)
{
    const JsonNode* node = get(key);
    if (!fine() || !node || node->isNull())
        return std::nullopt;
    const double value = node->isNumber() ? node->number() : 0;
    if (!node->isNumber() || !std::isfinite(value) || value < 0 || value != std::floor(value) ||
        value > static_cast<double>(max)) {
        fail(*node, u"\""_s + pathOf(key) + u"\" is "_s + node->describe() + u"; expected a whole number from 0 to "_s +
                        QString::number(max));
        return std::nullopt;
    }
    return static_cast<std::int64_t>(value);
}

std::optional<bool> JsonFields::flag(QStringView key)
{
    const JsonNode* node = get(key);
    if (!fine() || !node || node->isNull())
        return std::nullopt;
    if (node->isBool())
        return node->boolean();
    if (node->isNumber() && (node->number() == 0 || node->number() == 1))
        return node->number() == 1;
    fail(*node, u"\""_s + pathOf(key) + u"\" is "_s + node->describe() + u"; expected true or false"_s);
    return std::nullopt;
}

const JsonNode* JsonFields::typed(QStringView key, JsonNode::Type type, const QString& expected)
{
    const JsonNode* node = get(key);
    if (!fine() || !node || node->isNull())
        return nullptr;
    if (node->type() != type) {
        fail(*node, u"\""_s + pathOf(key) + u"\" is "_s + node->describe() + u"; expected "_s + expected);
        return nullptr;
    }
    return node;
}

QString JsonFields::text(QStringView key)
{
    const JsonNode* node = typed(key, JsonNode::Type::String, u"a string"_s);
    return node ? node->string() : QString();
}

const JsonNode* JsonFields::child(QStringView key)
{
    return typed(key, JsonNode::Type::Object, u"an object"_s);
}

const JsonNode* JsonFields::list(QStringView key)
{
    return typed(key, JsonNode::Type::Array, u"a list"_s);
}

}  // namespace ridgeline
