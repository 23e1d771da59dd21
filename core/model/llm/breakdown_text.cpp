#include "core/model/llm/breakdown_text.h"

#include "core/model/units.h"

#include <QStringList>

namespace ridgeline {

QString breakdownPartName(BreakdownPart part)
{
    switch (part) {
        case BreakdownPart::Weights:
            return QStringLiteral("weights");
        case BreakdownPart::Kv:
            return QStringLiteral("KV");
        case BreakdownPart::Compute:
            return QStringLiteral("compute");
        case BreakdownPart::Communication:
            return QStringLiteral("communication");
        case BreakdownPart::Overhead:
            return QStringLiteral("overhead");
    }
    return QString();
}

QString breakdownPartKey(BreakdownPart part)
{
    return breakdownPartName(part).toLower() + QStringLiteral("_s");
}

double breakdownSeconds(const StepBreakdown& breakdown, BreakdownPart part)
{
    switch (part) {
        case BreakdownPart::Weights:
            return breakdown.weights;
        case BreakdownPart::Kv:
            return breakdown.kv;
        case BreakdownPart::Compute:
            return breakdown.compute;
        case BreakdownPart::Communication:
            return breakdown.communication;
        case BreakdownPart::Overhead:
            return breakdown.overhead;
    }
    return 0.0;
}

QString breakdownShareText(const StepBreakdown& breakdown, BreakdownPart part)
{
    const double total = breakdown.total();
    const double seconds = breakdownSeconds(breakdown, part);
    return QStringLiteral("%1 (%2 %)")
        .arg(formatSeconds(seconds))
        .arg(total > 0 ? 100.0 * seconds / total : 0.0, 0, 'f', 0);
}

QString breakdownText(const StepBreakdown& breakdown)
{
    QStringList parts;
    for (const BreakdownPart part : kBreakdownParts)
        if (breakdownSeconds(breakdown, part) > 0)
            parts << breakdownPartName(part) + QLatin1Char(' ') + breakdownShareText(breakdown, part);
    return parts.join(QStringLiteral(", "));
}

}  // namespace ridgeline
