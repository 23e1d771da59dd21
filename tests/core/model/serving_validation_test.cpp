// The serving model (core/model/serving/serving_latency.h) against published serving runs
// (tests/data/llm/serving_validation.csv; sources, reading rules and split in tests/data/README.md, "Serving
// validation set"): every row run at its concurrency with its engine's profile, and the median |error| of the time
// to first token, the inter-token latency and the output tokens/s per GPU printed and asserted per split.
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/inference_request.h"
#include "core/model/llm/llm_model.h"
#include "core/model/serving/scheduler_choice.h"
#include "core/model/serving/serving_latency.h"

#include "tests/support/data_rows.h"

#include <QFile>
#include <QStringList>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <vector>

using namespace ridgeline;

namespace {

using test::DataRow;
using test::readDataRows;

struct ServingRow {
    QString id, source, split, engine;
    InferenceRequest request;
    std::int64_t concurrency = 0;
    bool chunkedPrefill = true;        // the engine prefills one prompt at a time in chunks, or whole prompts together
    std::array<double, 3> measured{};  // ttft_s, itl_s, tokens_per_s_per_gpu
};

enum Metric { Ttft, Itl, TokensPerGpu };
constexpr std::array<const char*, 3> kMetricNames{"TTFT", "ITL", "tok/s/GPU"};

std::vector<ServingRow> loadRows()
{
    std::vector<ServingRow> rows;
    for (const DataRow& at : readDataRows(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/llm/serving_validation.csv"))) {
        ServingRow row;
        row.id = at("id");
        row.source = at("source");
        row.split = at("split");
        row.engine = at("engine");
        row.concurrency = at("concurrency").toLongLong();
        row.chunkedPrefill = at("chunked_prefill") == QLatin1String("yes");
        EXPECT_TRUE(row.chunkedPrefill || at("chunked_prefill") == QLatin1String("no")) << row.id.toStdString();
        row.measured = {at("ttft_s").toDouble(), at("itl_s").toDouble(), at("tokens_per_s_per_gpu").toDouble()};
        InferenceRequest& r = row.request;
        r.modelId = at("model");
        r.gpuId = at("gpu");
        r.weights = parseNumberFormat(at("weights")).value_or(NumberFormat::Tf32);  // tf32: refused below
        r.kv = parseNumberFormat(at("kv")).value_or(NumberFormat::Tf32);
        r.gpus = at("tp").toInt();
        r.prompt = at("prompt").toLongLong();
        r.output = at("output").toLongLong();
        r.batch = 1;
        r.context = r.prompt + r.output;
        r.engine = row.engine;
        r.decodeAttention = DecodeAttention::Grouped;
        rows.push_back(row);
    }
    return rows;
}

struct RowResult {
    QString id;
    std::array<double, 3> measured{}, predicted{};
};

// The model's TTFT, ITL and output tokens/s per GPU for one row as `ridgeline model --engine E --batch C --prompt P
// --output O [--no-chunked-prefill]` computes them: the request resolved as the CLI resolves it (its batch the
// concurrency), the engine's scheduler chosen as every serving front end chooses it (chooseScheduler, with the row's
// chunked prefill given as --no-chunked-prefill gives it), closed loop at that concurrency; or another first-token
// lag, for the fit.
std::array<double, 3> predict(const ServingRow& row, std::optional<double> lagSteps = std::nullopt)
{
    InferenceRequest request = row.request;
    request.batch = row.concurrency;
    const Result<InferenceConfig> config = resolveInference(request);
    EXPECT_TRUE(config.ok()) << row.id.toStdString() << ": "
                             << (config.ok() ? "" : config.error().message.toStdString());
    if (!config)
        return {};
    const Result<LlmModel> model = LlmModel::create(config.value());
    EXPECT_TRUE(model.ok()) << row.id.toStdString();
    if (!model)
        return {};
    const Result<EngineSelection> engine = selectEngine(row.engine);
    EXPECT_TRUE(engine.ok()) << row.id.toStdString();
    if (!engine)
        return {};
    SchedulerOverrides given;
    if (!row.chunkedPrefill)
        given.chunkedPrefill = false;
    SchedulerChoice scheduler = chooseScheduler(*engine.value().profile, given);
    const std::optional<QString> conflict =
        schedulerConflict(scheduler, QStringLiteral("--max-running"), QStringLiteral("--token-budget"));
    EXPECT_FALSE(conflict.has_value()) << row.id.toStdString() << ": " << conflict.value_or(QString()).toStdString();
    if (lagSteps)
        scheduler.policy.firstTokenLagSteps = *lagSteps;
    const RequestMix mix{config.value().prompt, config.value().output, config.value().batch, 0.0};
    const Result<ServingLatency> r = servingLatency(model.value(), mix, scheduler.policy);
    EXPECT_TRUE(r.ok()) << row.id.toStdString() << ": " << (r.ok() ? "" : r.error().message.toStdString());
    if (!r)
        return {};
    return {r.value().ttftSeconds, r.value().itlSeconds,
            r.value().outputTokensPerSecond / static_cast<double>(config.value().tensorParallel)};
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct SplitSummary {
    int rows = 0;
    std::array<double, 3> medianAbs{};
};

std::map<QString, SplitSummary> summarizeSplits(const std::vector<ServingRow>& rows,
                                                const std::vector<RowResult>& results)
{
    std::map<QString, std::array<std::vector<double>, 3>> errors;
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (int m = 0; m < 3; ++m)
            errors[rows[i].split][m].push_back(std::fabs(results[i].predicted[m] / results[i].measured[m] - 1.0));
    std::map<QString, SplitSummary> out;
    for (const auto& [split, e] : errors) {
        SplitSummary& s = out[split];
        s.rows = static_cast<int>(e[0].size());
        for (int m = 0; m < 3; ++m)
            s.medianAbs[m] = median(e[m]);
    }
    return out;
}

}  // namespace

TEST(ServingValidation, EveryRowRunsAndHasThreeMeasuredFigures)
{
    const std::vector<ServingRow> rows = loadRows();
    ASSERT_EQ(rows.size(), 754u);
    int fit = 0, heldOut = 0;
    for (const ServingRow& row : rows) {
        SCOPED_TRACE(row.id.toStdString());
        fit += row.split == QLatin1String("fit");
        heldOut += row.split == QLatin1String("heldout");
        EXPECT_FALSE(row.source.isEmpty());
        EXPECT_GE(row.concurrency, 1);
        for (double v : row.measured)
            EXPECT_GT(v, 0.0);
        for (double v : predict(row))
            EXPECT_TRUE(std::isfinite(v) && v > 0.0);
    }
    EXPECT_EQ(fit, 39);
    EXPECT_EQ(heldOut, 715);
}

TEST(ServingValidation, MedianErrorsPerMetricAndSplit)
{
    const std::vector<ServingRow> rows = loadRows();
    std::vector<RowResult> results;
    std::printf("%-48s %9s %9s %7s %9s %9s %7s %9s %9s %7s\n", "row", "TTFT", "model", "err", "ITL", "model", "err",
                "tok/s/GPU", "model", "err");
    for (const ServingRow& row : rows) {
        RowResult r{row.id, row.measured, predict(row)};
        std::printf("%-48s", row.id.toLatin1().constData());
        for (int m = 0; m < 3; ++m)
            std::printf(" %9.4g %9.4g %+6.1f%%", r.measured[m], r.predicted[m],
                        100.0 * (r.predicted[m] / r.measured[m] - 1.0));
        std::printf("\n");
        results.push_back(r);
    }
    const std::map<QString, SplitSummary> splits = summarizeSplits(rows, results);
    std::printf("%-8s %5s %10s %10s %10s   (median |error|)\n", "split", "rows", kMetricNames[Ttft], kMetricNames[Itl],
                kMetricNames[TokensPerGpu]);
    for (const auto& [split, s] : splits)
        std::printf("%-8s %5d %9.1f%% %9.1f%% %9.1f%%\n", split.toLatin1().constData(), s.rows,
                    100.0 * s.medianAbs[Ttft], 100.0 * s.medianAbs[Itl], 100.0 * s.medianAbs[TokensPerGpu]);
    ASSERT_EQ(splits.size(), 2u);
    // The figures the model reaches, to half a point; the targets are 25 % (TTFT) and 15 % (ITL and tokens/s per GPU),
    // held out: all three met (TTFT by 0.03 points, with the first-token lag fitted by its mean log error). The
    // held-out rows are the 2024 engine, whose decode attention walks each context in one thread block per sequence and
    // head (TensorRT-LLM before 0.13: EngineProfile::decodeSplit); at small batches those blocks leave SMs idle. On the
    // fit part (NIM 1.8.0) the model is still slower than measured from 50 requests on.
    const SplitSummary& fit = splits.at(QStringLiteral("fit"));
    const SplitSummary& heldOut = splits.at(QStringLiteral("heldout"));
    EXPECT_NEAR(fit.medianAbs[Ttft], 0.154, 0.005);
    EXPECT_NEAR(fit.medianAbs[Itl], 0.171, 0.005);
    EXPECT_NEAR(fit.medianAbs[TokensPerGpu], 0.131, 0.005);
    EXPECT_NEAR(heldOut.medianAbs[Ttft], 0.250, 0.005);
    EXPECT_NEAR(heldOut.medianAbs[Itl], 0.127, 0.005);
    EXPECT_NEAR(heldOut.medianAbs[TokensPerGpu], 0.117, 0.005);
}

TEST(ServingValidation, FirstTokenLagIsTheFitOnTheFitPart)
{
    // TensorRT-LLM's first-token lag (engine_profile.cpp) is the value on a 0.25-step grid whose mean
    // |ln(model / measured)| of the time to first token over the fit part is least; the held-out part plays no role.
    std::vector<ServingRow> fit;
    for (const ServingRow& row : loadRows())
        if (row.split == QLatin1String("fit"))
            fit.push_back(row);
    ASSERT_EQ(fit.size(), 39u);
    double best = 0, bestError = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= 32; ++i) {
        const double lag = 0.25 * i;
        double sum = 0;
        for (const ServingRow& row : fit)
            sum += std::fabs(std::log(predict(row, lag)[Ttft] / row.measured[Ttft]));
        const double mean = sum / static_cast<double>(fit.size());
        if (mean < bestError) {
            best = lag;
            bestError = mean;
        }
    }
    std::printf("first-token lag: %.2f steps, fit part's mean |ln(model / measured)| of TTFT %.4f\n", best, bestError);
    const Result<EngineSelection> trtllm = selectEngine(QStringLiteral("tensorrt-llm"));
    ASSERT_TRUE(trtllm.ok());
    EXPECT_DOUBLE_EQ(trtllm.value().profile->firstTokenLagSteps, best);
}
