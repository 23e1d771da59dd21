#include "core/json/json_quantity.h"

#include "core/physical_limits.h"

#include <cmath>

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

}  // namespace ridgeline
