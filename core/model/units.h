#pragma once
// Human-readable numbers with their units spelled out: GB (1e9 bytes) and GiB (2^30 bytes) are different.

#include <QString>

#include <cstdint>

namespace ridgeline {

inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1073741824.0;

QString formatGB(double bytes, int decimals = 2);   // "13.48 GB"
QString formatGiB(double bytes, int decimals = 2);  // "12.55 GiB"
QString formatBinaryBytes(double bytes);            // picks B, KiB, MiB, GiB, TiB: "512 KiB"
QString formatSeconds(double seconds);              // "6.74 ms", "1.20 s", "35.0 us"
QString formatCount(double value);                  // "6.74e+09" style for big counts, plain otherwise

}  // namespace ridgeline
