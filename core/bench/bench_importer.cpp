#include "core/bench/bench_importer.h"

#include "core/bench/formats/guidellm_import.h"
#include "core/bench/formats/llama_bench_import.h"
#include "core/bench/formats/sglang_import.h"
#include "core/bench/formats/vllm_latency_import.h"
#include "core/bench/formats/vllm_serve_import.h"
#include "core/import/text/import_text.h"
#include "core/message_text.h"
#include "core/read_file.h"

#include <QFile>
#include <QFileInfo>

#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr qsizetype kDetectionScanBytes = 4 * 1000 * 1000;

struct FirstValue {
    char opener = 0;   // '{', '[' or the first other character
    QStringList keys;  // keys of the first object: the top-level one, or the first item of a top-level list
    bool listOfObjects = false;
};

// The keys of the first JSON object at the top (or first in a top-level list), without parsing the whole file:
// strings are skipped with their escapes, brackets counted. Keys are kept as written (these formats' keys are ASCII).
FirstValue scanFirstValue(const QByteArray& bytes)
{
    FirstValue shape;
    const char* p = bytes.constData();
    const char* end = p + std::min(bytes.size(), kDetectionScanBytes);
    if (end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xEF)
        p += 3;
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (p != end && isSpace(*p))
        ++p;
    if (p == end)
        return shape;
    shape.opener = *p;
    int keyDepth = 0;
    if (*p == '{') {
        keyDepth = 1;
    } else if (*p == '[') {
        const char* q = p + 1;
        while (q != end && isSpace(*q))
            ++q;
        if (q == end || *q != '{')
            return shape;
        shape.listOfObjects = true;
        keyDepth = 2;
    } else {
        return shape;
    }
    int depth = 0;
    while (p != end) {
        const char c = *p;
        if (c == '"') {
            const char* start = ++p;
            while (p != end && *p != '"') {
                if (*p == '\\' && p + 1 != end)
                    ++p;
                ++p;
            }
            if (p == end)
                break;
            const char* close = p++;
            if (depth == keyDepth) {
                const char* q = p;
                while (q != end && isSpace(*q))
                    ++q;
                if (q != end && *q == ':')
                    shape.keys << QString::fromUtf8(start, close - start);
            }
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
            if (depth < keyDepth)
                break;  // the first object is over
        }
        ++p;
    }
    return shape;
}

bool anyOf(const QStringList& keys, std::initializer_list<QStringView> wanted)
{
    for (QStringView key : wanted) {
        if (keys.contains(key))
            return true;
    }
    return false;
}

Result<BenchImport> parse(const QByteArray& bytes, const QString& text, BenchFormat format)
{
    switch (format) {
        case BenchFormat::VllmServe:
            return parseVllmServe(bytes);
        case BenchFormat::VllmLatency:
            return parseVllmLatency(bytes);
        case BenchFormat::SglangServe:
            return parseSglang(bytes);
        case BenchFormat::GuideLlm:
            return parseGuideLlm(bytes);
        case BenchFormat::LlamaBenchJson:
            return parseLlamaBenchJson(bytes);
        case BenchFormat::LlamaBenchCsv:
            return parseLlamaBenchCsv(text);
        case BenchFormat::Auto:
            break;
    }
    return makeError(Error::Code::InvalidArgument, u"no format given"_s);
}

// Why a file gave no point: the skipped runs' reasons, or that it held no run at all.
QString nothingImported(const BenchImport& result)
{
    if (result.skipped.empty())
        return u"the file holds no benchmark run"_s +
               (result.notes.isEmpty() ? QString() : u" ("_s + result.notes.join(u"; "_s) + u')');
    QStringList reasons;
    for (const BenchSkip& skip : result.skipped) {
        if (reasons.size() == 3) {
            reasons << u"and "_s + QString::number(result.skipped.size() - 3) + u" more"_s;
            break;
        }
        reasons << skip.what + u": "_s + skip.reason;
    }
    return u"no measured point: "_s + reasons.join(u"; "_s);
}

Result<BenchImport> importChecked(const QByteArray& bytes, const QString& fileName, BenchFormat format)
{
    if (bytes.size() > kMaxImportFileBytes)
        return makeError(Error::Code::Range, fileName + u": larger than 100 MB; refused"_s);
    const auto text = decodeImportText(bytes);  // empty, binary, UTF-16 or invalid UTF-8: said before anything else
    if (!text)
        return makeError(text.error().code, fileName + u": "_s + text.error().message);
    if (format == BenchFormat::Auto) {
        const auto detected = detectBenchFormat(bytes);
        if (!detected)
            return makeError(detected.error().code, fileName + u": "_s + detected.error().message);
        format = detected.value();
    }
    const QString prefix = fileName + u" ("_s + describeBenchFormat(format) + u"): "_s;
    auto result = parse(bytes, text.value(), format);
    if (!result)
        return makeError(result.error().code, prefix + result.error().message);
    BenchImport imported = std::move(result).value();
    imported.fileName = fileName;
    if (imported.points.empty())
        return makeError(Error::Code::Schema, prefix + nothingImported(imported));
    return imported;
}

}  // namespace

Result<BenchFormat> detectBenchFormat(const QByteArray& bytes)
{
    const FirstValue first = scanFirstValue(bytes);
    const QStringList& keys = first.keys;
    if (first.opener == '{' || first.listOfObjects) {
        if (first.listOfObjects && anyOf(keys, {u"benchmark", u"metric"}))
            return makeError(Error::Code::Unsupported,
                             u"a vLLM \"PyTorch benchmark format\" file (*.pytorch.json); import the result JSON "
                             "written next to it instead"_s);
        if (anyOf(keys, {u"avg_ts", u"n_prompt"}))
            return BenchFormat::LlamaBenchJson;
        if (first.listOfObjects)
            return makeError(Error::Code::Unsupported,
                             u"a JSON list of objects that are not llama-bench tests (no n_prompt, avg_ts)"_s);
        if (keys.contains(u"benchmarks"_s))
            return BenchFormat::GuideLlm;
        if (keys.contains(u"avg_latency"_s))
            return BenchFormat::VllmLatency;
        if (anyOf(keys, {u"elapsed_time", u"tokens_per_second"}) && keys.contains(u"num_requests"_s))
            return makeError(Error::Code::Unsupported,
                             u"a vLLM benchmark_throughput.py result: its tokens_per_second counts prompt and "
                             "output tokens together and it records no lengths, so it gives no output throughput; "
                             "import a benchmark_serving.py or benchmark_latency.py result instead"_s);
        if (anyOf(keys, {u"total_output_tokens_retokenized", u"random_input_len", u"server_info", u"accept_length",
                         u"dataset_name"}))
            return BenchFormat::SglangServe;
        if (anyOf(keys, {u"model_id", u"request_inthroughput", u"request_goodput:", u"request_goodput", u"num_prompts",
                         u"endpoint_type", u"date"}))
            return BenchFormat::VllmServe;
        if (anyOf(keys, {u"completed", u"output_throughput"}))
            return makeError(Error::Code::Unsupported,
                             u"a serving benchmark result, but its keys do not say whether vLLM or SGLang wrote it; "
                             "give the format (--format vllm-serve or --format sglang)"_s);
        return makeError(Error::Code::Unsupported,
                         u"a JSON file of none of the benchmark formats (its first object has none of the keys of "
                         "vLLM, SGLang, GuideLLM or llama-bench results)"_s);
    }
    if (first.opener == '[')
        return makeError(Error::Code::Unsupported, u"a JSON list that does not hold llama-bench tests"_s);
    const qsizetype newline = bytes.indexOf('\n');
    const QByteArray header = bytes.left(newline < 0 ? bytes.size() : newline);
    if (header.contains("n_prompt") && header.contains("avg_ts"))
        return BenchFormat::LlamaBenchCsv;
    return makeError(Error::Code::Unsupported,
                     u"neither JSON nor a llama-bench CSV (whose header names n_prompt, n_gen and avg_ts); the "
                     "formats are vllm-serve, vllm-latency, sglang, guidellm, llama-bench-json and llama-bench-csv"_s);
}

Result<BenchImport> importBenchBytes(const QByteArray& bytes, const QString& fileName, BenchFormat format)
{
    auto result = importChecked(bytes, fileName, format);
    if (!result)
        return Error{result.error().code, oneLine(result.error().message)};
    return result;
}

std::optional<BenchFormat> benchFormatOfFile(const QString& path)
{
    // Never opened unless a regular file: this runs after an import refused the path, and a FIFO would block here.
    if (checkReadableFile(path, u"benchmark result"_s))
        return std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const Result<BenchFormat> format = detectBenchFormat(file.read(kDetectionScanBytes));
    return format ? std::optional<BenchFormat>(format.value()) : std::nullopt;
}

Result<BenchImport> importBenchFile(const QString& path, BenchFormat format)
{
    const auto bytes = readFileUpTo(path, u"file to import"_s, kMaxImportFileBytes,
                                    u"benchmark results over 100 MB are refused (save them without per-request "
                                    "details)"_s);
    if (!bytes)
        return bytes.error();
    return importBenchBytes(bytes.value(), QFileInfo(path).fileName(), format);
}

}  // namespace ridgeline
