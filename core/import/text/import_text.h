#pragma once
// Shared by the importers: reading a file with a size limit, checking that it is UTF-8 text, strict number
// parsing (thousands separators, decimal commas refused by name), unit scaling, and "line L, column C".

#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <cstdint>
#include <optional>

namespace ridgeline {

// A profile export is a few MB at most; anything above this is refused before a byte is parsed.
inline constexpr std::int64_t kMaxImportFileBytes = std::int64_t{100} * 1000 * 1000;

// Reads the file (refusing folders, devices, missing and oversized files); messages start with the path.
Result<QByteArray> readImportFile(const QString& path);

// UTF-8 (an optional BOM is dropped) to text; refuses empty files, NUL bytes, UTF-16 and invalid UTF-8,
// naming the line and column of the first bad byte. Messages do not start with a file name.
Result<QString> decodeImportText(const QByteArray& bytes);

QString lineColumn(int line, int column);

enum class Thousands { Refuse, Comma };  // Comma: "1,234,567.5" is 1234567.5 (Nsight Compute, en locale)

// A finite, non-negative number such as "12", "1.5e3", "1,234.5" (with Thousands::Comma). On failure the
// Error's message says why without a location ("decimal comma: \"1.234,5\" ..."), the caller adds it.
Result<double> parseNumber(QStringView text, Thousands thousands);

// Multiplier of a profiler unit into its base unit (bytes, seconds, instructions, cycles...), e.g.
// "Kbyte" -> 1e3, "usecond" -> 1e-6, "KiB" -> 1024. nullopt for a unit it does not know.
std::optional<double> unitScale(QStringView unit, QStringView baseUnit);

}  // namespace ridgeline
