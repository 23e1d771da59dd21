#include "core/import/kernel/imported_kernel.h"

#include "core/physical_limits.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// The same bounds the session reader enforces (core/session/format/session_json.cpp; the rates, times and intensities
// through physical_limits.h), so every kernel an import accepts also saves.
constexpr double kMaxOperationCount = 1e21;

QString tooLarge(const QString& what, double value, double max)
{
    return what + u" "_s + QString::number(value, 'g', 6) + u" is beyond "_s + QString::number(max, 'g', 6) +
           u", more than any machine does"_s;
}

// What a session holds per string (core/session/format/session_json.cpp); CUTLASS names can be longer.
constexpr qsizetype kMaxTextChars = 4096;

void fitText(QString& text)
{
    if (text.size() > kMaxTextChars)
        text = text.left(kMaxTextChars - 4) + u" ..."_s;
}

}  // namespace

std::optional<QString> completeImportedKernel(KernelResult& kernel)
{
    for (QString* text : {&kernel.name, &kernel.fullName, &kernel.size, &kernel.precision, &kernel.level, &kernel.group,
                          &kernel.source})
        fitText(*text);
    for (LevelPoint& point : kernel.levels)
        fitText(point.level);
    if (kernel.flops > kMaxOperationCount)
        return tooLarge(u"the FLOP count"_s, kernel.flops, kMaxOperationCount);
    if (kernel.bytes > kMaxOperationCount)
        return tooLarge(u"the byte count"_s, kernel.bytes, kMaxOperationCount);
    // Each derived figure against the one rule, named by what it is made of so that the file's own columns say
    // what to fix: "GFLOP/s (1000 FLOPs in 1000 s) must be between 1e-06 and 1e+09 GFLOP/s, got 1e-09".
    const auto outside = [](PhysicalQuantity quantity, double value, const QString& what) -> std::optional<QString> {
        if (const std::optional<QString> problem = physicalProblem(quantity, value))
            return what + u" "_s + *problem;
        return std::nullopt;
    };
    const auto number = [](double value) { return QString::number(value, 'g', 6); };
    if (auto problem = outside(PhysicalQuantity::DurationSeconds, kernel.seconds, u"the time"_s))
        return problem;
    kernel.gflops = kernel.flops / kernel.seconds / 1e9;
    kernel.gbps = kernel.bytes / kernel.seconds / 1e9;
    kernel.intensity = kernel.flops / kernel.bytes;
    const QString inTime = u" in "_s + number(kernel.seconds) + u" s)"_s;
    if (auto problem = outside(PhysicalQuantity::ComputeGflops, kernel.gflops,
                               u"GFLOP/s ("_s + number(kernel.flops) + u" FLOPs"_s + inTime))
        return problem;
    if (auto problem = outside(PhysicalQuantity::BandwidthGbps, kernel.gbps,
                               u"GB/s ("_s + number(kernel.bytes) + u" bytes"_s + inTime))
        return problem;
    if (auto problem = outside(PhysicalQuantity::IntensityFlopPerByte, kernel.intensity, u"FLOP per byte"_s))
        return problem;
    for (LevelPoint& point : kernel.levels) {
        if (point.bytes > kMaxOperationCount)
            return tooLarge(point.level + u" bytes"_s, point.bytes, kMaxOperationCount);
        point.gbps = point.bytes / kernel.seconds / 1e9;
        point.intensity = kernel.flops / point.bytes;
        if (auto problem = outside(PhysicalQuantity::BandwidthGbps, point.gbps,
                                   point.level + u" GB/s ("_s + number(point.bytes) + u" bytes"_s + inTime))
            return problem;
        if (auto problem =
                outside(PhysicalQuantity::IntensityFlopPerByte, point.intensity, point.level + u" FLOP per byte"_s))
            return problem;
    }
    return std::nullopt;
}

QString importSource(const QString& fileName, const QString& formatName)
{
    return fileName + u" ("_s + formatName + u')';
}

}  // namespace ridgeline
