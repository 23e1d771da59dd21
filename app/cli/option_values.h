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

}  // namespace ridgeline::cli
