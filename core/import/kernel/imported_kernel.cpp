#include "core/import/kernel/imported_kernel.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// The same bounds the session reader enforces (core/session/session_json.cpp), so every import saves.
constexpr double kMaxOperationCount = 1e21;
constexpr double kMaxSeconds = 1e7;
constexpr double kMaxRate = 1e9;  // GFLOP/s or GB/s
constexpr double kMaxIntensity = 1e12;

QString tooLarge(const QString& what, double value, double max)
{
    return what + u" "_s + QString::number(value, 'g', 6) + u" is beyond "_s + QString::number(max, 'g', 6) +
           u", more than any machine does"_s;
}

// What a session holds per string (core/session/session_json.cpp); CUTLASS names can be longer.
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
    if (kernel.seconds > kMaxSeconds)
        return tooLarge(u"the time in seconds"_s, kernel.seconds, kMaxSeconds);
    kernel.gflops = kernel.flops / kernel.seconds / 1e9;
    kernel.gbps = kernel.bytes / kernel.seconds / 1e9;
    kernel.intensity = kernel.flops / kernel.bytes;
    if (kernel.gflops > kMaxRate)
        return tooLarge(u"GFLOP/s"_s, kernel.gflops, kMaxRate);
    if (kernel.gbps > kMaxRate)
        return tooLarge(u"GB/s"_s, kernel.gbps, kMaxRate);
    if (kernel.intensity > kMaxIntensity)
        return tooLarge(u"FLOP per byte"_s, kernel.intensity, kMaxIntensity);
    for (LevelPoint& point : kernel.levels) {
        if (point.bytes > kMaxOperationCount)
            return tooLarge(point.level + u" bytes"_s, point.bytes, kMaxOperationCount);
        point.gbps = point.bytes / kernel.seconds / 1e9;
        point.intensity = kernel.flops / point.bytes;
        if (point.gbps > kMaxRate)
            return tooLarge(point.level + u" GB/s"_s, point.gbps, kMaxRate);
        if (point.intensity > kMaxIntensity)
            return tooLarge(point.level + u" FLOP per byte"_s, point.intensity, kMaxIntensity);
    }
    return std::nullopt;
}

QString importSource(const QString& fileName, const QString& formatName)
{
    return fileName + u" ("_s + formatName + u')';
}

}  // namespace ridgeline
