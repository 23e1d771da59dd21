#pragma once
// The body shared by the benchmark-result fuzz targets: any bytes given to one importer give a
// BenchImport or a one-line Error naming the file, never a crash, a leak or a sanitizer report. What imports holds
// at least one point, and every number in it is finite and non-negative (a NaN or an infinity would reach a chart
// or a fit); the texts meant for display (labels, notes, skip reasons) are one line each.
#include "core/bench/bench_importer.h"
#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace ridgeline::fuzz {

inline void checkNumber(const char* target, const char* what, std::optional<double> value)
{
    if (value && (!std::isfinite(*value) || *value < 0))
        fail(target, what, QString::number(*value));
}

inline void checkCount(const char* target, const char* what, std::optional<std::int64_t> value)
{
    if (value && *value < 0)
        fail(target, what, QString::number(*value));
}

inline void checkStat(const char* target, const char* what, const LatencyStat& stat)
{
    checkNumber(target, what, stat.mean);
    checkNumber(target, what, stat.median);
    checkNumber(target, what, stat.p99);
}

inline void checkOneLine(const char* target, const char* what, const QString& text)
{
    if (text.contains(u'\n') || text.contains(u'\r'))
        fail(target, what, text);
}

inline int importBenchInput(const char* target, const std::uint8_t* data, std::size_t size, BenchFormat format,
                            const QString& fileName)
{
    const QByteArray bytes = inputBytes(data, size);
    const Result<BenchImport> imported = importBenchBytes(bytes, fileName, format);
    if (!imported.ok()) {
        // "run.json: the file is empty" or "run.json (vLLM serving result): line 3, column 2: ...".
        const QString& message = imported.error().message;
        if (!message.startsWith(fileName + QStringLiteral(": ")) &&
            !message.startsWith(fileName + QStringLiteral(" (")))
            fail(target, "an error message does not name the file", message);
        if (message.size() <= fileName.size() + 3)
            fail(target, "an error message says nothing", message);
        if (message.contains(u'\n') || message.contains(u'\r'))
            fail(target, "an error message is more than one line", message);
        return 0;
    }
    const BenchImport& result = imported.value();
    if (result.points.empty())
        fail(target, "an import without points was not refused", result.fileName);
    if (result.format != format)
        fail(target, "the import names another format", benchFormatName(result.format));
    for (const BenchPoint& point : result.points) {
        checkOneLine(target, "a label is more than one line", point.label);
        for (const QString& note : point.notes)
            checkOneLine(target, "a note is more than one line", note);
        if (!point.hasMeasurement())
            fail(target, "a point without a measurement", point.label);
        checkCount(target, "a negative batch", point.batch);
        checkCount(target, "a negative concurrency", point.concurrency);
        checkCount(target, "a negative context depth", point.contextDepth);
        checkCount(target, "a negative request count", point.requests);
        checkNumber(target, "a bad request rate", point.requestRate);
        checkNumber(target, "a bad achieved concurrency", point.achievedConcurrency);
        checkNumber(target, "a bad input length", point.inputTokens);
        checkNumber(target, "a bad output length", point.outputTokens);
        checkNumber(target, "a bad output throughput", point.outputTokensPerSecond);
        checkNumber(target, "a bad prefill throughput", point.prefillTokensPerSecond);
        checkNumber(target, "a bad accept length", point.acceptLength);
        checkStat(target, "a bad TTFT", point.ttft);
        checkStat(target, "a bad TPOT", point.tpot);
        checkStat(target, "a bad ITL", point.itl);
        checkStat(target, "a bad latency", point.latency);
        checkStat(target, "a bad prefill time", point.prefill);
        if (point.tensorParallel && *point.tensorParallel < 1)
            fail(target, "a tensor parallel size below 1", QString::number(*point.tensorParallel));
    }
    for (const BenchSkip& skip : result.skipped) {
        checkOneLine(target, "a skip is more than one line", skip.what + skip.reason);
    }
    for (const QString& note : result.notes)
        checkOneLine(target, "a file note is more than one line", note);
    return 0;
}

}  // namespace ridgeline::fuzz
