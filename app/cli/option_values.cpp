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

// A number above 0 for option `name`, in `unit`; empty when the option is not given.
std::optional<QString> positiveNumberOption(const QCommandLineParser& parser, const char* name, const char* unit,
                                            std::optional<double>& value)
{
    const QString option = QLatin1String(name);
    if (!parser.isSet(option))
        return std::nullopt;
    bool ok = false;
    const QString text = parser.value(option);
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v <= 0)
        return QStringLiteral("--%1 must be a number above 0 (%2), got \"%3\"").arg(option, QLatin1String(unit), text);
    value = v;
    return std::nullopt;
}

// A whole number from `low` to `high` for option `name`.
std::optional<QString> wholeNumberOption(const QCommandLineParser& parser, const char* name, std::int64_t low,
                                         std::int64_t high, std::int64_t& value)
{
    const QString option = QLatin1String(name);
    if (!parser.isSet(option))
        return std::nullopt;
    bool ok = false;
    const QString text = parser.value(option);
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(low) || v > static_cast<double>(high))
        return QStringLiteral("--%1 must be a whole number from %2 to %3, got \"%4\"")
            .arg(option)
            .arg(low)
            .arg(high)
            .arg(text);
    value = static_cast<std::int64_t>(v);
    return std::nullopt;
}

void addOption(QCommandLineParser& parser, const char* name, const char* help, const char* valueName)
{
    parser.addOption(valueName ? QCommandLineOption(QLatin1String(name), QLatin1String(help), QLatin1String(valueName))
                               : QCommandLineOption(QLatin1String(name), QLatin1String(help)));
}

}  // namespace ridgeline::cli
