#include "core/bench/formats/bench_result.h"

#include <array>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

struct FormatNames {
    BenchFormat format;
    QStringView name;
    QStringView description;
};

constexpr std::array<FormatNames, 7> kFormats = {{
    {BenchFormat::Auto, u"auto", u"auto"},
    {BenchFormat::VllmServe, u"vllm-serve", u"vLLM serving result"},
    {BenchFormat::VllmLatency, u"vllm-latency", u"vLLM latency result"},
    {BenchFormat::SglangServe, u"sglang", u"SGLang bench_serving JSONL"},
    {BenchFormat::GuideLlm, u"guidellm", u"GuideLLM report"},
    {BenchFormat::LlamaBenchJson, u"llama-bench-json", u"llama-bench JSON"},
    {BenchFormat::LlamaBenchCsv, u"llama-bench-csv", u"llama-bench CSV"},
}};

}  // namespace

QString benchFormatName(BenchFormat format)
{
    for (const FormatNames& entry : kFormats) {
        if (entry.format == format)
            return entry.name.toString();
    }
    return {};
}

QString describeBenchFormat(BenchFormat format)
{
    for (const FormatNames& entry : kFormats) {
        if (entry.format == format)
            return entry.description.toString();
    }
    return {};
}

std::optional<BenchFormat> benchFormatFromName(QStringView name)
{
    for (const FormatNames& entry : kFormats) {
        if (entry.name.compare(name, Qt::CaseInsensitive) == 0)
            return entry.format;
    }
    return std::nullopt;
}

}  // namespace ridgeline
