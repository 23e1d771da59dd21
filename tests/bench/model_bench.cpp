// How long the analytical LLM model takes per evaluation: the panel re-evaluates on every slider step.
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/links.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/llm_model.h"

#include <benchmark/benchmark.h>

using namespace ridgeline;

namespace {

InferenceConfig heavyConfig()
{
    // The most expensive report there is: MoE + MLA, tensor parallel, prefill and end-to-end terms.
    InferenceConfig c;
    c.model = findModel(QStringLiteral("deepseek-v3")).value();
    c.gpu = findGpu(QStringLiteral("h200")).value();
    c.batch = 256;
    c.context = 32768;
    c.prompt = 30000;
    c.output = 2768;
    c.tensorParallel = 8;
    c.link = findLink(QStringLiteral("nvlink4")).value();
    return c;
}

void BM_EvaluateInferenceReport(benchmark::State& state)
{
    InferenceConfig c = heavyConfig();
    std::int64_t batch = 1;
    for (auto _ : state) {
        c.batch = batch;
        batch = batch % 4096 + 1;
        benchmark::DoNotOptimize(evaluateInference(c));
    }
}
BENCHMARK(BM_EvaluateInferenceReport);

}  // namespace
