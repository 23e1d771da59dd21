#pragma once
// What one imported benchmark-result file gives: plain measured points (what was run, what was measured), what
// the file could not tell, and what was read but skipped, each with its reason. Units are fixed by the field
// names: seconds, tokens, tokens per second, requests per second. Nothing here depends on the model.

#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

enum class BenchFormat {
    Auto,
    VllmServe,    // vllm bench serve / benchmarks/benchmark_serving.py --save-result (JSON; JSON Lines when appended)
    VllmLatency,  // benchmarks/benchmark_latency.py --output-json, vllm bench latency
    SglangServe,  // python -m sglang.bench_serving --output-file (JSON Lines, one run per line)
    GuideLlm,     // guidellm benchmark --output-path benchmarks.json
    LlamaBenchJson,  // llama-bench -o json (or -o jsonl)
    LlamaBenchCsv,   // llama-bench -o csv
};

// One latency over the requests of a run, in seconds; each statistic only when the file has it.
struct LatencyStat {
    std::optional<double> mean;
    std::optional<double> median;
    std::optional<double> p99;

    bool empty() const { return !mean && !median && !p99; }
    // The median when the file has one, else the mean: what a table shows and what a fit uses.
    std::optional<double> typical() const { return median ? median : mean; }
};

// How the requests were offered to the engine.
enum class BenchLoad {
    StaticBatch,  // one batch of `batch` sequences, all started together (benchmark_latency, llama-bench)
    Concurrency,  // at most `concurrency` requests in flight (max_concurrency, GuideLLM concurrent / synchronous)
    RequestRate,  // requests arrive at `requestRate` per second (Poisson or constant), no cap
    AllAtOnce,    // every request sent at time 0 (request rate inf, GuideLLM throughput): the engine's cap decides
    Trace,        // replayed from a trace's timestamps
};

struct BenchPoint {
    int record = 0;  // 1-based: the run within the file (a JSON Lines line, a GuideLLM benchmark, a CSV row)
    int line = 0;    // line in the file where the run starts
    QString label;   // short, for tables: "concurrency 16", "tg128 @ d4096", "rate 4 req/s"

    // What was run, as the file records it ("" / nullopt = not recorded; see `unknown`)
    QString model;    // "meta-llama/Llama-3.1-8B-Instruct", "llama 8B Q4_K - Medium"
    QString gpu;      // "NVIDIA H100 80GB HBM3" (llama-bench gpu_info; --metadata gpu=...)
    QString backend;  // "vllm", "sglang", "openai", "CUDA", "Metal", ...
    BenchLoad load = BenchLoad::Concurrency;
    std::optional<std::int64_t> batch;          // StaticBatch: sequences decoded together
    std::optional<std::int64_t> concurrency;    // Concurrency: the cap on requests in flight
    std::optional<double> requestRate;          // RequestRate: requests per second (a cap may be set too)
    std::optional<double> achievedConcurrency;  // mean requests in flight, measured (SGLang, GuideLLM) or Little's law
    std::optional<double> inputTokens;          // mean prompt tokens per request
    std::optional<double> outputTokens;         // mean generated tokens per request
    std::optional<std::int64_t> contextDepth;   // llama-bench -d: tokens already in the KV cache before the test
    std::optional<int> tensorParallel;
    QString weightFormat;                     // as written: "bfloat16", "fp8", "Q4_K - Medium", "auto"
    QString kvFormat;                         // as written: "f16", "q8_0", "fp8_e4m3", "auto"
    std::optional<std::int64_t> weightBytes;  // llama-bench model_size
    std::optional<std::int64_t> params;       // llama-bench model_n_params
    std::optional<std::int64_t> requests;     // completed requests (or llama-bench repetitions)
    std::optional<std::int64_t> failedRequests;

    // What was measured
    std::optional<double> outputTokensPerSecond;   // generated tokens per second over the run, all requests
    std::optional<double> prefillTokensPerSecond;  // llama-bench pp: prompt tokens per second
    LatencyStat ttft;                              // time to first token
    LatencyStat tpot;                              // time per output token after the first, per request
    LatencyStat itl;                               // inter-token latency: gaps between streamed tokens
    LatencyStat latency;                 // end-to-end latency of a request (of the whole batch for StaticBatch)
    LatencyStat prefill;                 // llama-bench pp: time to process the prompt
    std::optional<double> acceptLength;  // speculative decoding: mean tokens accepted per step

    // What the file does not say and a model needs: "batch size", "input length", "GPU", ... in this order.
    QStringList unknown;
    QStringList notes;  // facts about this point worth printing ("lengths are means: random_range_ratio 0.5")

    bool hasMeasurement() const
    {
        return outputTokensPerSecond || prefillTokensPerSecond || !ttft.empty() || !tpot.empty() || !itl.empty() ||
               !latency.empty() || !prefill.empty();
    }
};

// A run that was read but gives no point, with the reason (all requests failed, a pooling benchmark, ...).
struct BenchSkip {
    int record = 0;
    int line = 0;
    QString what;  // "run 3", "benchmark 2 (synchronous)", "row 5 (pp512)"
    QString reason;
};

struct BenchImport {
    QString fileName;                        // without its folder
    BenchFormat format = BenchFormat::Auto;  // the format that was read (never Auto)
    QString engine;                          // "vLLM", "SGLang", "GuideLLM", "llama.cpp"
    QStringList versions;  // what the keys say about the writer: "benchmark_serving.py, v0.6-v0.8 ..."
    std::vector<BenchPoint> points;
    std::vector<BenchSkip> skipped;
    QStringList notes;  // file-level facts ("read tp = 8 from the --metadata key \"tp\"")
};

// "vllm-serve", "vllm-latency", "sglang", "guidellm", "llama-bench-json", "llama-bench-csv" (and "auto").
QString benchFormatName(BenchFormat format);
// "vLLM serve JSON", ... for messages.
QString describeBenchFormat(BenchFormat format);
std::optional<BenchFormat> benchFormatFromName(QStringView name);

}  // namespace ridgeline
