#pragma once
// The bounds, checks and array writing every part of a session's JSON shares (session_json.cpp and the session_*_json
// files it calls): past these a number is not a measurement but a corrupt or hostile file.

#include "core/json/strict_reader.h"
#include "core/physical_limits.h"
#include "core/session/session.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdint>
#include <vector>

namespace ridgeline::session_json {

// Bounds past which a number is not a measurement but a corrupt or hostile file.
inline constexpr qsizetype kMaxEntries = 1'000'000;
inline constexpr qsizetype kMaxCaches = 1024;
inline constexpr qsizetype kMaxIsaFlags = 4096;
inline constexpr qsizetype kMaxLevels = 16;  // memory levels of one imported kernel
inline constexpr std::int64_t kMaxCpus = 65536;
inline constexpr std::int64_t kMaxCacheLevel = 16;
inline constexpr std::int64_t kMaxKernelBatch = std::int64_t{1}
                                                << 20;  // a measured kernel's batch (the model's is kMaxBatch)
inline constexpr std::int64_t kMaxRepetitions = 1'000'000'000;
inline constexpr std::int64_t kTiB = std::int64_t{1} << 40;
inline constexpr std::int64_t kPiB = std::int64_t{1} << 50;
inline constexpr double kMaxGflops = 1e9;           // 1e18 FLOP/s
inline constexpr double kMaxGbps = 1e9;             // 1e18 B/s
inline constexpr double kMaxOperationCount = 1e21;  // FLOPs or bytes of one kernel run
inline constexpr double kMaxSeconds = 1e7;          // about four months
inline constexpr double kMaxClockGhz = 1000.0;
inline constexpr double kMaxIntensity = 1e12;  // FLOP per byte
inline constexpr double kMaxTokensPerSecond = 1e12;
inline constexpr double kMaxSpeedup = 1e9;
inline constexpr double kMaxDifference = 1e300;   // only NaN and infinity are refused
inline constexpr double kMaxFlopsPerCycle = 1e6;  // per core; AMX does about 2048
inline constexpr std::int64_t kMaxCpuFamily = 0xFFFF;
inline constexpr std::int64_t kMaxCpuModel = 0xFFFF;
inline constexpr qsizetype kMaxFindings = 10'000;
inline constexpr qsizetype kMaxCalibrations = 1000;
inline constexpr qsizetype kMaxCalibrationPoints = 100'000;
inline constexpr double kMaxMeasuredValue = 1e12;  // seconds or tokens per second of one benchmark figure
inline constexpr double kMaxRelativeError = 1e6;  // a prediction a million times off is still a number a fit can report

// The first schema with each group of fields; a file of an older schema that has them is refused as unknown.
inline constexpr int kFirstSchemaWithChecks = 2;  // clock, core, last-level cache, FLOP/cycle, findings, skipped

// min, median and max are flattened into an entry; all three or none, and in that order.
Spread readSpread(ObjectReader& in, double max);
void insertSpread(QJsonObject& object, const Spread& spread);

// A ceiling of 0 or a kernel that took 0 s has no place on a log-log chart (and divides by zero): the file is
// refused naming the field, rather than drawn without it. Mirrored by exclusiveMinimum in session.schema.json.
void requireAboveZero(ObjectReader& in, QLatin1StringView key, double value, const QString& why);

// Rates, bandwidths, intensities and times keep to the one physical rule (core/physical_limits.h), so that a
// ridge or an axis built from them stays finite; Zero::NotMeasured allows 0 for fields where it means "not measured".
enum class Zero { Refused, NotMeasured };
void requirePhysical(ObjectReader& in, QLatin1StringView key, double value, PhysicalQuantity quantity,
                     Zero zero = Zero::Refused);

// Each entry as write(entry) makes it, in order: the writing side of readEntries().
template <typename T, typename Write>
QJsonArray toJsonArray(const std::vector<T>& entries, Write write)
{
    QJsonArray array;
    for (const T& entry : entries)
        array.append(write(entry));
    return array;
}

}  // namespace ridgeline::session_json
