#pragma once
// Numbers read from command-line options, one rule for every command: whole numbers may be written in scientific
// notation ("8192", "1e6"); NaN, infinities, fractions and values beyond 1e15 are refused with a message naming the
// option.

#include <QCommandLineParser>
#include <QString>

#include <cstdint>
#include <optional>

namespace ridgeline::cli {

// The option's whole number, or `fallback` when it is not given; on a bad value nothing and `error` says why.
std::optional<std::int64_t> integerOption(const QCommandLineParser& parser, const QString& name, std::int64_t fallback,
                                          QString& error);
// The option's finite number; on a bad value nothing and `error` says why.
std::optional<double> numberOption(const QCommandLineParser& parser, const QString& name, QString& error);

// A number above 0 for option `name`, in `unit`, into `value`; nothing when the option is not given or reads, else
// the message naming the option.
std::optional<QString> positiveNumberOption(const QCommandLineParser& parser, const char* name, const char* unit,
                                            std::optional<double>& value);
// A whole number from `low` to `high` for option `name`, into `value`; nothing when it is not given or reads, else
// the message naming the option.
std::optional<QString> wholeNumberOption(const QCommandLineParser& parser, const char* name, std::int64_t low,
                                         std::int64_t high, std::int64_t& value);

// Adds an option taking a value named `valueName`, or a flag when it is null.
void addOption(QCommandLineParser& parser, const char* name, const char* help, const char* valueName = nullptr);

}  // namespace ridgeline::cli
