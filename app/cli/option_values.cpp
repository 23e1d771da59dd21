#include "app/cli/option_values.h"

#include <cmath>

namespace ridgeline::cli {

std::optional<std::int64_t> integerOption(const QCommandLineParser& parser, const QString& name, std::int64_t fallback,
                                          QString& error)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value != std::floor(value) || std::fabs(value) > 1e15) {
        error = QStringLiteral("--%1 must be a whole number, got \"%2\"").arg(name, text);
        return std::nullopt;
    }
    return static_cast<std::int64_t>(value);
}

std::optional<double> numberOption(const QCommandLineParser& parser, const QString& name, QString& error)
{
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value)) {
        error = QStringLiteral("--%1 must be a number, got \"%2\"").arg(name, text);
        return std::nullopt;
    }
    return value;
}

}  // namespace ridgeline::cli
