#include "core/session/format/session_json_rules.h"

namespace ridgeline::session_json {

using namespace Qt::Literals::StringLiterals;

Spread readSpread(ObjectReader& in, double max)
{
    const bool any = in.has("min"_L1) || in.has("median"_L1) || in.has("max"_L1);
    const Need need = any ? Need::Required : Need::Optional;
    Spread spread;
    spread.min = in.number("min"_L1, max, need);
    spread.median = in.number("median"_L1, max, need);
    spread.max = in.number("max"_L1, max, need);
    Problem& problem = in.problem();
    if (problem.found())
        return spread;
    if (spread.min > spread.median)
        problem.report(Error::Code::Range, in.where("min"_L1) + u" ("_s + formatExactNumber(spread.min) +
                                               u") must not exceed the median ("_s + formatExactNumber(spread.median) +
                                               u')');
    else if (spread.median > spread.max)
        problem.report(Error::Code::Range, in.where("median"_L1) + u" ("_s + formatExactNumber(spread.median) +
                                               u") must not exceed the max ("_s + formatExactNumber(spread.max) + u')');
    return spread;
}

void requireAboveZero(ObjectReader& in, QLatin1StringView key, double value, const QString& why)
{
    if (!in.problem().found() && value <= 0.0)
        in.problem().report(Error::Code::Range,
                            in.where(key) + u" must be above 0 ("_s + why + u"), got "_s + formatExactNumber(value));
}

void requirePhysical(ObjectReader& in, QLatin1StringView key, double value, PhysicalQuantity quantity, Zero zero)
{
    if (in.problem().found() || (zero == Zero::NotMeasured && value == 0.0))
        return;
    if (const std::optional<QString> problem = physicalProblem(quantity, value))
        in.problem().report(Error::Code::Range, in.where(key) + u' ' + *problem);
}

void insertSpread(QJsonObject& object, const Spread& spread)
{
    object.insert("min"_L1, spread.min);
    object.insert("median"_L1, spread.median);
    object.insert("max"_L1, spread.max);
}

}  // namespace ridgeline::session_json
