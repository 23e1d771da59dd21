// From imported benchmark runs to the fitter's points: facts from the file or the user, catalog matches, which
// figure of which run is fitted, and a sweep written in vLLM's format whose terms the fit recovers.
#include "core/bench/calibration/calibration_points.h"
#include "core/model/llm/inference_request.h"
#include "tests/core/bench/bench_test_support.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

using test::benchFixturePath;
using test::importFixtureFile;

RunFacts h100Bf16()
{
    RunFacts facts;
    facts.gpuId = QStringLiteral("h100-sxm");
    facts.tensorParallel = 1;
    facts.weights = NumberFormat::Bf16;
    return facts;
}

TEST(CalibrationPoints, AServingSweepGivesTpotAndThroughputPerRunAtItsCap)
{
    const auto points =
        calibrationPoints({importFixtureFile(QStringLiteral("vllm_bench_serve_2025_sweep.json"))}, h100Bf16());
    ASSERT_TRUE(points.ok()) << points.error().message.toStdString();
    const CalibrationPoints& p = points.value();
    ASSERT_EQ(p.points.size(), 6u);
    ASSERT_EQ(p.origins.size(), 6u);
    const std::int64_t caps[] = {1, 4, 16};
    for (int run = 0; run < 3; ++run) {
        const MeasuredPoint& tpot = p.points[static_cast<std::size_t>(2 * run)];
        const MeasuredPoint& rate = p.points[static_cast<std::size_t>(2 * run + 1)];
        EXPECT_EQ(tpot.quantity, MeasuredQuantity::ServingTpot);
        EXPECT_EQ(rate.quantity, MeasuredQuantity::ServingThroughput);
        EXPECT_EQ(tpot.config.batch, caps[run]);
        EXPECT_EQ(tpot.config.prompt, 1024);
        EXPECT_EQ(tpot.config.output, 128);
        EXPECT_EQ(tpot.config.model.id, QStringLiteral("llama-3.1-8b"));
        EXPECT_EQ(tpot.config.gpu.id, QStringLiteral("h100-sxm"));
        EXPECT_EQ(tpot.config.weights, NumberFormat::Bf16);
        EXPECT_EQ(p.origins[static_cast<std::size_t>(2 * run)].statistic, QStringLiteral("median TPOT"));
        EXPECT_EQ(p.origins[static_cast<std::size_t>(2 * run)].record, run + 1);
        EXPECT_EQ(tpot.id,
                  QStringLiteral("vllm_bench_serve_2025_sweep.json:%1 concurrency %2").arg(run + 1).arg(caps[run]));
    }
    EXPECT_TRUE(p.notes.contains(
        QStringLiteral("model \"meta-llama/Llama-3.1-8B-Instruct\" taken as the catalog's llama-3.1-8b")));
    EXPECT_TRUE(p.notes.contains(
        QStringLiteral("the KV cache format is not recorded; taken as bf16 (give --kv to change it)")));
}

TEST(CalibrationPoints, WhatTheFileDoesNotRecordIsAskedForByOption)
{
    const auto missing = calibrationPoints({importFixtureFile(QStringLiteral("vllm_bench_serve_2025_sweep.json"))}, {});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message,
              QStringLiteral("vllm_bench_serve_2025_sweep.json: the file does not record the GPU, the tensor parallel "
                             "size, the weight format; give --gpu ID, --tp N, --weights FORMAT"));
    const auto latency = calibrationPoints({importFixtureFile(QStringLiteral("vllm_latency_2025.json"))}, h100Bf16());
    ASSERT_FALSE(latency.ok());
    EXPECT_EQ(latency.error().message,
              QStringLiteral("vllm_latency_2025.json: the file does not record the model, the batch size, the input "
                             "length, the output length; give --model ID, --batch N, --input-len N, --output-len N"));
}

TEST(CalibrationPoints, AFactTheFileRecordsIsNeverOverridden)
{
    RunFacts facts = h100Bf16();
    facts.modelId = QStringLiteral("llama-3.1-70b");
    facts.tensorParallel = 2;
    const auto points =
        calibrationPoints({importFixtureFile(QStringLiteral("vllm_serve_2025_goodput_colon.json"))}, facts);
    ASSERT_FALSE(points.ok());
    EXPECT_EQ(
        points.error().message,
        QStringLiteral("vllm_serve_2025_goodput_colon.json: run 1: the file records tensor parallel size 4; --tp 2 "
                       "disagrees"));
}

TEST(CalibrationPoints, ALatencyRunIsAStaticBatchOnceItsShapeIsGiven)
{
    RunFacts facts = h100Bf16();
    facts.modelId = QStringLiteral("llama-3.1-8b");
    facts.batch = 8;
    facts.inputTokens = 32;
    facts.outputTokens = 128;
    const auto points = calibrationPoints({importFixtureFile(QStringLiteral("vllm_latency_2024.json"))}, facts);
    ASSERT_TRUE(points.ok()) << points.error().message.toStdString();
    ASSERT_EQ(points.value().points.size(), 1u);
    const MeasuredPoint& p = points.value().points.front();
    EXPECT_EQ(p.quantity, MeasuredQuantity::EndToEnd);
    EXPECT_EQ(p.config.batch, 8);
    EXPECT_EQ(p.config.prompt, 32);
    EXPECT_EQ(p.config.output, 128);
    EXPECT_EQ(points.value().origins.front().statistic, QStringLiteral("median latency"));
}

TEST(CalibrationPoints, LlamaBenchTestsArePrefillAndDecodePointsAndAFilledCachePrefillIsSaidUnused)
{
    RunFacts facts;
    facts.modelId = QStringLiteral("llama-3.1-8b");  // "llama 8B Q4_K - Medium" could be several catalog models
    const auto points = calibrationPoints({importFixtureFile(QStringLiteral("llama_bench_2025.json"))}, facts);
    ASSERT_TRUE(points.ok()) << points.error().message.toStdString();
    const CalibrationPoints& p = points.value();
    ASSERT_EQ(p.points.size(), 3u);  // pp512, tg128, tg128 @ d4096
    EXPECT_EQ(p.points[0].quantity, MeasuredQuantity::Ttft);
    EXPECT_EQ(p.points[0].config.prompt, 512);
    EXPECT_EQ(p.points[0].config.batch, 1);
    EXPECT_EQ(p.points[0].config.gpu.id, QStringLiteral("rtx-4090"));  // matched from gpu_info
    EXPECT_EQ(p.points[0].config.weights, NumberFormat::Int4);         // Q4_K - Medium
    EXPECT_EQ(p.points[0].config.kv, NumberFormat::Fp16);              // type_k f16
    EXPECT_EQ(p.points[1].quantity, MeasuredQuantity::StaticDecodeRate);
    EXPECT_EQ(p.points[1].config.output, 128);
    EXPECT_EQ(p.points[2].config.prompt, 4096);
    ASSERT_EQ(p.unused.size(), 1u);
    EXPECT_EQ(p.unused.front().what, QStringLiteral("llama_bench_2025.json run 3 (pp512 @ d4096)"));
    EXPECT_TRUE(p.unused.front().reason.contains(u"a prefill after 4096 tokens already in the cache"));
    EXPECT_TRUE(p.notes.contains(QStringLiteral("GPU \"NVIDIA GeForce RTX 4090\" taken as the catalog's rtx-4090")));
}

TEST(CalibrationPoints, NamesAndFormatsAreMatchedOnlyWhenUnambiguous)
{
    EXPECT_EQ(matchCatalogModel(QStringLiteral("meta-llama/Llama-3.1-8B-Instruct")), QStringLiteral("llama-3.1-8b"));
    EXPECT_EQ(matchCatalogModel(QStringLiteral("meta-llama/Llama-2-7b-chat-hf")), QStringLiteral("llama-2-7b"));
    EXPECT_EQ(matchCatalogModel(QStringLiteral("Qwen/Qwen2.5-32B-Instruct")), QString());
    EXPECT_EQ(matchCatalogModel(QStringLiteral("llama 8B Q4_K - Medium")), QString());
    EXPECT_EQ(matchCatalogModel(QString()), QString());
    EXPECT_EQ(matchCatalogGpu(QStringLiteral("NVIDIA GeForce RTX 4090")), QStringLiteral("rtx-4090"));
    EXPECT_EQ(matchCatalogGpu(QStringLiteral("H100-SXM5-80GB")), QStringLiteral("h100-sxm"));
    EXPECT_EQ(matchCatalogGpu(QStringLiteral("AMD Instinct MI300X")), QStringLiteral("mi300x"));
    EXPECT_EQ(matchCatalogGpu(QStringLiteral("NVIDIA H100")), QString());  // SXM or PCIe: the user says
    EXPECT_EQ(formatFromFileName(QStringLiteral("bfloat16")), NumberFormat::Bf16);
    EXPECT_EQ(formatFromFileName(QStringLiteral("F16")), NumberFormat::Fp16);
    EXPECT_EQ(formatFromFileName(QStringLiteral("fp8_e4m3")), NumberFormat::Fp8);
    EXPECT_EQ(formatFromFileName(QStringLiteral("Q8_0")), NumberFormat::Int8);
    EXPECT_EQ(formatFromFileName(QStringLiteral("Q4_K - Medium")), NumberFormat::Int4);
    EXPECT_EQ(formatFromFileName(QStringLiteral("IQ4_XS")), NumberFormat::Int4);
    EXPECT_EQ(formatFromFileName(QStringLiteral("Q5_K - Medium")), std::nullopt);
    EXPECT_EQ(formatFromFileName(QStringLiteral("auto")), std::nullopt);
}

// ---- a five-point sweep written as vLLM writes it, made with known terms: the fitted curve must bend through it.

EngineTerms truthTerms()
{
    EngineTerms truth = EngineTerms::measured();
    truth.layerSeconds = 61e-6;
    setTermValue(truth, EngineTerm{TermKind::WeightBandwidth, NumberFormat::Bf16}, 0.68);
    return truth;
}

QByteArray sweepInVllmFormat(const EngineTerms& truth)
{
    QByteArray lines;
    for (std::int64_t concurrency : {1, 2, 4, 8, 16}) {
        InferenceRequest request;
        request.modelId = QStringLiteral("llama-3.1-8b");
        request.gpuId = QStringLiteral("h100-sxm");
        request.batch = concurrency;
        request.prompt = 512;
        request.output = 256;
        request.context = 640;
        InferenceConfig config = resolveInference(request).value();
        config.efficiency = truth;
        const LlmModel model = LlmModel::create(config).value();
        const double tpot = predictQuantity(model, MeasuredQuantity::ServingTpot).value();
        const double rate = predictQuantity(model, MeasuredQuantity::ServingThroughput).value();
        const qint64 completed = 10 * concurrency;
        QJsonObject run{{QStringLiteral("date"), QStringLiteral("20251201-120000")},
                        {QStringLiteral("backend"), QStringLiteral("vllm")},
                        {QStringLiteral("model_id"), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct")},
                        {QStringLiteral("request_rate"), QStringLiteral("inf")},
                        {QStringLiteral("max_concurrency"), static_cast<qint64>(concurrency)},
                        {QStringLiteral("completed"), completed},
                        {QStringLiteral("duration"), static_cast<double>(completed * 256) / rate},
                        {QStringLiteral("total_input_tokens"), completed * 512},
                        {QStringLiteral("total_output_tokens"), completed * 256},
                        {QStringLiteral("output_throughput"), rate},
                        {QStringLiteral("mean_tpot_ms"), tpot * 1000},
                        {QStringLiteral("median_tpot_ms"), tpot * 1000}};
        lines += QJsonDocument(run).toJson(QJsonDocument::Compact) + '\n';
    }
    return lines;
}

TEST(CalibrationPoints, AFiveConcurrencySweepInVllmsFormatIsFitThroughItsPoints)
{
    const EngineTerms truth = truthTerms();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sweep.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(sweepInVllmFormat(truth));
    file.close();

    const auto imported = importBenchFile(path);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    const auto points = calibrationPoints({imported.value()}, h100Bf16());
    ASSERT_TRUE(points.ok()) << points.error().message.toStdString();
    ASSERT_EQ(points.value().points.size(), 10u);
    FitOptions options;
    options.free = {EngineTerm{TermKind::LayerSeconds}, EngineTerm{TermKind::WeightBandwidth, NumberFormat::Bf16}};
    const auto fit = fitEngineTerms(points.value().points, EngineTerms::measured(), options);
    ASSERT_TRUE(fit.ok()) << fit.error().message.toStdString();
    EXPECT_GT(fit.value().before.medianAbs, 0.02);  // the defaults miss this engine
    EXPECT_LT(fit.value().after.worstAbs, 1e-3);    // the fitted curve goes through every measured point
    // Between the measured concurrencies the fitted model predicts what the engine does. (The layer time and the
    // weight share are not told apart by a memory-bound sweep: both add a constant to every step; their sum is.)
    for (std::int64_t concurrency : {3, 6, 12}) {
        InferenceRequest request;
        request.modelId = QStringLiteral("llama-3.1-8b");
        request.gpuId = QStringLiteral("h100-sxm");
        request.batch = concurrency;
        request.prompt = 512;
        request.output = 256;
        request.context = 640;
        InferenceConfig config = resolveInference(request).value();
        config.efficiency = truth;
        const double engine = predictQuantity(LlmModel::create(config).value(), MeasuredQuantity::ServingTpot).value();
        config.efficiency = fit.value().terms;
        const double fitted = predictQuantity(LlmModel::create(config).value(), MeasuredQuantity::ServingTpot).value();
        EXPECT_NEAR(fitted / engine, 1.0, 0.01) << "concurrency " << concurrency;
    }
}

TEST(CalibrationPoints, NoUsableRunIsAnError)
{
    RunFacts facts = h100Bf16();
    facts.modelId = QStringLiteral("llama-3.1-8b");
    BenchImport only = importFixtureFile(QStringLiteral("vllm_bench_serve_2025_sweep.json"));
    only.points.resize(1);
    only.points.front().acceptLength = 2.5;
    const auto points = calibrationPoints({only}, facts);
    ASSERT_FALSE(points.ok());
    EXPECT_EQ(points.error().message,
              QStringLiteral("no run gives a point to fit: vllm_bench_serve_2025_sweep.json run 1 (concurrency 1): "
                             "speculative decoding (accept length 2.5): the number of draft tokens is not recorded"));
}

TEST(CalibrationPoints, AFigureOfZeroIsListedAsNotFittedNotDropped)
{
    BenchImport file = importFixtureFile(QStringLiteral("vllm_bench_serve_2025_sweep.json"));
    file.points.resize(1);
    file.points.front().outputTokensPerSecond = 0.0;
    const auto points = calibrationPoints({file}, h100Bf16());
    ASSERT_TRUE(points.ok()) << points.error().message.toStdString();
    ASSERT_EQ(points.value().points.size(), 1u);  // the TPOT
    ASSERT_EQ(points.value().unused.size(), 1u);
    EXPECT_EQ(
        points.value().unused.front().reason,
        QStringLiteral("serving_tokens_per_s is 0 in the file (output tok/s): nothing to compare a prediction with"));
}

}  // namespace
}  // namespace ridgeline
