// Engines as inputs of the LLM model (core/model/llm/engine_profile.h): the nine profiles, their sourced terms
// reproducing the published figures they come from, versions and their fallbacks, and each validation row judged
// with its own engine's profile.
#include "core/model/catalog/links.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/inference_request.h"
#include "tests/core/model/llm_test_support.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace ridgeline;

namespace {

const EngineProfile& engine(const char* spec)
{
    static EngineProfile none;
    const Result<EngineSelection> s = selectEngine(QString::fromLatin1(spec));
    EXPECT_TRUE(s.ok()) << spec;
    return s.ok() ? *s.value().profile : none;
}

// Batch-1 decode tokens/s of a llama-bench `tg 128` run (128 tokens from an empty context: 64 on average) with the
// engine's terms for the card.
double tg128(const char* engineId, const char* gpuId, const char* modelId, NumberFormat weights)
{
    const GpuSpec g = test::gpu(gpuId);
    InferenceConfig c = test::config(test::model(modelId), g, 1, 64);
    c.weights = weights;
    c.efficiency = engine(engineId).termsFor(g);
    return 1.0 / test::prepared(c).decodeStep(1, 64).seconds;
}

}  // namespace

TEST(EngineProfile, TheNineEnginesAreThereAndGenericIsTheMeasuredDefaults)
{
    std::set<QString> ids;
    for (const EngineProfile& e : builtinEngines()) {
        ids.insert(e.id);
        EXPECT_FALSE(e.coverage.isEmpty()) << e.id.toStdString();
        for (const TermOverride& o : e.overrides)
            EXPECT_FALSE(o.source.isEmpty()) << e.id.toStdString() << " " << termName(o.term).toStdString();
        for (const char* gpu : {"h100-sxm", "rtx-4090", "m2-max", "mi300x"})
            EXPECT_FALSE(checkTerms(e.termsFor(test::gpu(gpu))).has_value()) << e.id.toStdString() << " " << gpu;
    }
    EXPECT_EQ(ids,
              (std::set<QString>{QStringLiteral("generic"), QStringLiteral("vllm"), QStringLiteral("sglang"),
                                 QStringLiteral("tensorrt-llm"), QStringLiteral("llama.cpp"), QStringLiteral("mlc-llm"),
                                 QStringLiteral("exllamav2"), QStringLiteral("lmdeploy"), QStringLiteral("tgi")}));
    EXPECT_EQ(builtinEngines().front().id, kGenericEngineId);
    EXPECT_TRUE(genericEngine().profile->isGeneric());
    for (const char* gpu : {"h100-sxm", "rtx-4090", "m2-max"})
        EXPECT_EQ(engine("generic").termsFor(test::gpu(gpu)), EngineTerms::measured()) << gpu;
    EXPECT_EQ(memoryFamily(test::gpu("h100-sxm")), MemoryFamily::Hbm);
    EXPECT_EQ(memoryFamily(test::gpu("rtx-4090")), MemoryFamily::Gddr);
    EXPECT_EQ(memoryFamily(test::gpu("m2-max")), MemoryFamily::Unified);
    EXPECT_EQ(memoryFamily(test::sourceTextGpu()), MemoryFamily::Other);
}

TEST(EngineProfile, LlamaCppDecodesSlowerThanVllmOnHbmBySourcedShare)
{
    // On an H100 llama.cpp streams weights at its HBM share, vLLM at the measured default: batch-1 decode of
    // Llama 2 7B in fp16 is slower by about the ratio of the two shares, a little less because llama.cpp's fixed
    // time per layer is smaller.
    const double vllm = tg128("vllm", "h100-sxm", "llama-2-7b", NumberFormat::Fp16);
    const double llama = tg128("llama.cpp", "h100-sxm", "llama-2-7b", NumberFormat::Fp16);
    const EngineTerm fp16{TermKind::WeightBandwidth, NumberFormat::Fp16};
    const double shareRatio = engine("llama.cpp").termsFor(test::gpu("h100-sxm")).weightShare(NumberFormat::Fp16) /
                              EngineTerms::measured().weightShare(NumberFormat::Fp16);
    std::printf("H100 Llama 2 7B fp16 tg128: vLLM %.1f t/s, llama.cpp %.1f t/s (ratio %.3f; share ratio %.3f)\n", vllm,
                llama, llama / vllm, shareRatio);
    EXPECT_LT(llama, 0.85 * vllm);
    EXPECT_GT(llama / vllm, shareRatio);
    EXPECT_LT(llama / vllm, shareRatio + 0.15);
    ASSERT_NE(engine("llama.cpp").overrideFor(fp16, MemoryFamily::Hbm), nullptr);
    EXPECT_TRUE(engine("llama.cpp").overrideFor(fp16, MemoryFamily::Hbm)->source.contains(u"#6017"));
    // On a GDDR card the same engine is close to the defaults (the issue's blind set: within 8 % on an RTX 4090).
    const double vllm4090 = tg128("vllm", "rtx-4090", "llama-2-7b", NumberFormat::Fp16);
    const double llama4090 = tg128("llama.cpp", "rtx-4090", "llama-2-7b", NumberFormat::Fp16);
    EXPECT_NEAR(llama4090 / vllm4090, 1.0, 0.08);
}

TEST(EngineProfile, EachSourcedShareGivesBackThePublishedRateItCameFrom)
{
    struct Published {
        const char* engine;
        const char* gpu;
        const char* model;
        NumberFormat weights;
        double tokensPerSecond;
    };
    // llama.cpp PRs #6017, #4766, #6766 (llama-bench / ./main, Llama 2 7B at batch 1), ExLlamaV2's README, and the
    // llama.cpp Apple silicon table (M2 Max, 38-core GPU, Q4_0).
    for (const Published& p : {Published{"llama.cpp", "a100-80gb-pcie", "llama-2-7b", NumberFormat::Fp16, 74.77},
                               Published{"llama.cpp", "rtx-4090", "llama-2-7b", NumberFormat::Fp16, 61.03},
                               Published{"llama.cpp", "rtx-4090", "llama-2-7b", NumberFormat::Int8, 98.13},
                               Published{"llama.cpp", "rtx-4090", "llama-2-7b", NumberFormat::Int4, 138.31},
                               Published{"llama.cpp", "m2-max", "llama-2-7b", NumberFormat::Int4, 65.95},
                               // Not fitted: the M3 Max (40-core GPU, also 400 GB/s) of the same table.
                               Published{"llama.cpp", "m3-max", "llama-2-7b", NumberFormat::Int4, 66.31},
                               Published{"exllamav2", "rtx-4090", "llama-2-7b", NumberFormat::Int4, 207.0},
                               Published{"exllamav2", "rtx-3090-ti", "llama-2-7b", NumberFormat::Int4, 179.0}}) {
        const double predicted = tg128(p.engine, p.gpu, p.model, p.weights);
        std::printf("%-10s %-15s %-6s measured %7.2f t/s, predicted %7.2f t/s (%+.1f %%)\n", p.engine, p.gpu,
                    numberFormatName(p.weights).toLatin1().constData(), p.tokensPerSecond, predicted,
                    100.0 * (predicted / p.tokensPerSecond - 1.0));
        EXPECT_NEAR(predicted / p.tokensPerSecond, 1.0, 0.10) << p.engine << " " << p.gpu;
    }
}

TEST(EngineProfile, MlcLlmIsTheDefaultsCheckedOnTwoRtx4090s)
{
    // MLC's blog (2023-10): 4-bit Llama 2 70B on two RTX 4090s, tensor parallel over PCIe, 34.5 tok/s at batch 1.
    const GpuSpec g = test::gpu("rtx-4090");
    InferenceConfig c = test::config(test::model("llama-2-70b"), g, 1, 512);
    c.weights = NumberFormat::Int4;
    c.tensorParallel = 2;
    c.link = findLink(defaultLinkId(g)).value();
    c.efficiency = engine("mlc-llm").termsFor(g);
    const double tokensPerSecond = 1.0 / test::prepared(c).decodeStep(1, 512).seconds;
    std::printf("MLC LLM, Llama 2 70B int4 on 2 x RTX 4090: measured 34.5 tok/s, predicted %.1f\n", tokensPerSecond);
    EXPECT_EQ(c.efficiency, EngineTerms::measured());
    EXPECT_NEAR(tokensPerSecond / 34.5, 1.0, 0.05);
}

TEST(EngineProfile, LlamaCppScalesWorseWithBatchThanTheDefaults)
{
    // llama.cpp PR #15802 (RTX 3090, llama 8B Q4_0): a step of 8 sequences takes 14.02 ms, one 6.45 ms; the defaults
    // add only the batch's compute and KV reads, llama.cpp about 1 ms per sequence.
    const GpuSpec g = test::gpu("rtx-3090");
    auto step = [&](const char* id, std::int64_t batch) {
        InferenceConfig c = test::config(test::model("llama-3.1-8b"), g, 8, 512);
        c.weights = NumberFormat::Int4;
        c.efficiency = engine(id).termsFor(g);
        return test::prepared(c).decodeStep(batch, 256).seconds;
    };
    const double generic = step("generic", 8) - step("generic", 1), llama = step("llama.cpp", 8) - step("llama.cpp", 1);
    std::printf("step(8) - step(1), RTX 3090, 8B int4: generic %.2f ms, llama.cpp %.2f ms (measured 7.57 ms)\n",
                1e3 * generic, 1e3 * llama);
    EXPECT_LT(generic, 0.5 * 7.57e-3);
    EXPECT_NEAR(llama, 14.02e-3 - 6.45e-3, 0.1 * 7.57e-3);
    EXPECT_GT(step("llama.cpp", 8) / step("llama.cpp", 1), 1.6);
}

TEST(EngineProfile, UnknownEnginesAndBadVersionsAreRefusedWithTheKnownOnes)
{
    const Result<EngineSelection> unknown = selectEngine(u"deepspeed");
    ASSERT_FALSE(unknown.ok());
    for (const EngineProfile& e : builtinEngines())
        EXPECT_TRUE(unknown.error().message.contains(e.id)) << unknown.error().message.toStdString();
    EXPECT_TRUE(unknown.error().message.contains(u"\"deepspeed\""));
    for (const char* bad : {"vllm@", "vllm@latest", "vllm@0.6x", "tgi@2..1"}) {
        const Result<EngineSelection> refused = selectEngine(QString::fromLatin1(bad));
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_TRUE(refused.error().message.contains(u"version")) << refused.error().message.toStdString();
    }
    // Case and aliases: the validation set's "lmdeploy-turbomind", TensorRT-LLM as "TRTLLM".
    EXPECT_EQ(engine("LMDeploy-TurboMind").id, QStringLiteral("lmdeploy"));
    EXPECT_EQ(engine("TRTLLM").id, QStringLiteral("tensorrt-llm"));
    EXPECT_EQ(engine("VLLM").id, QStringLiteral("vllm"));
}

TEST(EngineProfile, AVersionOutsideTheProfileSaysWhatItFallsBackTo)
{
    auto note = [](const char* spec) { return selectEngine(QString::fromLatin1(spec)).value().fallbackNote; };
    EXPECT_TRUE(note("vllm").isEmpty());
    EXPECT_TRUE(note("vllm@0.6.3").isEmpty());
    EXPECT_TRUE(note("vllm@v0.10.1").isEmpty());
    EXPECT_TRUE(note("tensorrt-llm@0.9.0").isEmpty());
    EXPECT_EQ(note("vllm@0.3"), QStringLiteral("the vLLM profile covers 0.6 to 0.10; 0.3 falls back to vLLM 0.6"));
    EXPECT_EQ(note("vllm@0.11.2"),
              QStringLiteral("the vLLM profile covers 0.6 to 0.10; 0.11.2 falls back to vLLM 0.10"));
    EXPECT_TRUE(note("tensorrt-llm@1.0").contains(u"falls back to TensorRT-LLM 0.16"));
    EXPECT_TRUE(note("llama.cpp@b4732").contains(u"not tied to versions"));
    EXPECT_TRUE(note("generic@2").contains(u"ignored"));
    EXPECT_EQ(selectEngine(u"vllm@0.3").value().version, QStringLiteral("0.3"));
}

// vLLM's time per sequence is the fit (core/model/llm/calibration, prior weight 0.1, every other term at the
// measured defaults) on the fit rows of vLLM alone, each as `--engine vllm` runs it: with vLLM's own all-reduce
// kernels over the link; the held-out rows are not used. Priced as NCCL's ring instead, the all-reduces of batch 1 on
// eight MI300X take 14 hops where vLLM's one-shot kernel takes one, and the same fit gives 0.78 us to make up for it.
TEST(EngineProfile, VllmSequenceTimeIsTheFitOnItsFitRowsRunAsTheEngineRunsThem)
{
    std::vector<MeasuredPoint> points;
    for (const test::ValidationRow& row : test::loadValidationRows()) {
        if (row.split != QLatin1String("fit") || engine(row.engine.toLatin1().constData()).id != QLatin1String("vllm"))
            continue;
        InferenceRequest request = row.request;
        request.engine = row.engine;
        const Result<InferenceConfig> config = resolveInference(request);
        ASSERT_TRUE(config.ok()) << row.id.toStdString();
        points.push_back(
            MeasuredPoint{row.id, config.value(), parseQuantityName(row.quantity).value(), row.measured, 1.0});
    }
    ASSERT_EQ(points.size(), 72u);
    const EngineTerm sequence{TermKind::SequenceSeconds, NumberFormat::Bf16};
    FitOptions options;
    options.priorWeight = 0.1;
    options.free = {sequence};
    const auto fitted = [&](const std::vector<MeasuredPoint>& at) {
        const Result<CalibrationFit> fit = fitEngineTerms(at, EngineTerms::measured(), options);
        EXPECT_TRUE(fit.ok());
        if (fit.ok())
            std::printf("sequence_seconds %.4g: fit rows median %.1f %%, worst %.1f %%\n",
                        termValue(fit.value().terms, sequence), 100.0 * fit.value().after.medianAbs,
                        100.0 * fit.value().after.worstAbs);
        return fit.ok() ? termValue(fit.value().terms, sequence) : 0.0;
    };
    const double own = fitted(points);
    EXPECT_NEAR(own, termValue(engine("vllm").termsFor(findGpu(QStringLiteral("mi300x")).value()), sequence), 0.01e-6);
    std::vector<MeasuredPoint> nccl = points;
    for (MeasuredPoint& p : nccl)
        p.config.allReduce = AllReduceKernels::Nccl;
    EXPECT_NEAR(fitted(nccl), 0.78e-6, 0.01e-6);
}

TEST(EngineProfile, ValidationRowsJudgedWithTheirOwnEnginesProfile)
{
    // Each row as `ridgeline model --engine` runs it (test::judgeWithOwnEngine: its engine's terms for its card and
    // its engine's all-reduce kernels); per engine family and split, median and worst |error|. The TensorRT-LLM and
    // LMDeploy profiles are the measured defaults and vLLM's differs only by its time per sequence (fitted on its fit
    // rows alone); the held-out rows stay held out.
    std::map<std::pair<QString, QString>, std::vector<PointResidual>> groups;
    for (const test::ValidationRow& row : test::loadValidationRows()) {
        const std::optional<test::JudgedRow> j = test::judgeWithOwnEngine(row);
        ASSERT_TRUE(j.has_value()) << row.id.toStdString();
        groups[{j->engineFamily,
                row.split == QLatin1String("fit") ? QStringLiteral("fit") : QStringLiteral("held out")}]
            .push_back(j->residual);
    }
    std::printf("%-14s %-9s %5s %8s %8s\n", "engine", "split", "rows", "median", "worst");
    for (const auto& [key, residuals] : groups) {
        const ErrorSummary s = summarize(residuals);
        const ErrorSummary judged = summarize(test::judgedAgainstTheTarget(residuals));
        std::printf("%-14s %-9s %5d %7.1f%% %7.1f%%  (%s)\n", key.first.toLatin1().constData(),
                    key.second.toLatin1().constData(), s.points, 100.0 * s.medianAbs, 100.0 * s.worstAbs,
                    s.worstId.toLatin1().constData());
        if (key.second == QLatin1String("held out") && s.points >= 10) {
            EXPECT_LE(s.medianAbs, 0.15) << key.first.toStdString();
            EXPECT_LE(judged.worstAbs, 0.50) << key.first.toStdString();
        }
    }
    EXPECT_EQ(groups.size(), 6u);  // vLLM, TensorRT-LLM and LMDeploy, each fit and held out
}

// TensorRT-LLM made multi-block mode (split-K over the KV length) its default in 0.13; before it, decode attention
// runs one thread block per sequence and KV head (grouped) or query head (per-head), and fewer blocks than SMs read
// the cache at blocks / SMs of the bandwidth. vLLM and SGLang split; the engines without a source are taken to.
TEST(EngineProfile, DecodeAttentionSplitsOverTheKvLengthFromTheVersionThatMadeItTheDefault)
{
    const EngineProfile& trt = engine("tensorrt-llm");
    EXPECT_FALSE(trt.splitsDecodeAttention(QStringLiteral("0.10")));
    EXPECT_FALSE(trt.splitsDecodeAttention(QStringLiteral("0.12.0")));
    EXPECT_TRUE(trt.splitsDecodeAttention(QStringLiteral("0.13")));
    EXPECT_TRUE(trt.splitsDecodeAttention(QStringLiteral("0.16.0")));
    EXPECT_TRUE(trt.splitsDecodeAttention(QString()));  // no version: the newest the profile covers
    EXPECT_TRUE(trt.decodeSplit.source.contains(u"Enabled multi_block_mode by default"));
    for (const char* id : {"vllm", "sglang", "llama.cpp", "generic"})
        EXPECT_TRUE(engine(id).splitsDecodeAttention(QStringLiteral("0.1"))) << id;
    EXPECT_TRUE(engine("vllm").decodeSplit.source.contains(u"num_seqs x num_heads > 512"));

    // The KV read time of one decode step (its memory time less the step's at an empty cache) on an A100 (108 SMs):
    // Llama 3 8B has 8 KV heads and 32 query heads.
    auto kvSeconds = [](const char* spec, std::int64_t batch, DecodeAttention kernel) {
        InferenceRequest r;
        r.modelId = QStringLiteral("llama-3-8b");
        r.gpuId = QStringLiteral("a100-80gb-sxm");
        r.weights = NumberFormat::Fp16;
        r.kv = NumberFormat::Fp16;
        r.batch = batch;
        r.context = 8000;
        r.engine = QString::fromLatin1(spec);
        r.decodeAttention = kernel;
        const Result<InferenceConfig> config = resolveInference(r);
        EXPECT_TRUE(config.ok()) << spec;
        const Result<LlmModel> model = LlmModel::create(config.value());
        EXPECT_TRUE(model.ok()) << spec;
        return model.value().decodeStep(batch, 8000).memorySeconds - model.value().decodeStep(batch, 0).memorySeconds;
    };
    const DecodeAttention grouped = DecodeAttention::Grouped, perHead = DecodeAttention::PerQueryHead;
    EXPECT_NEAR(kvSeconds("tensorrt-llm@0.10", 1, grouped) / kvSeconds("tensorrt-llm", 1, grouped), 108.0 / 8.0, 1e-9);
    EXPECT_NEAR(kvSeconds("tensorrt-llm@0.10", 4, grouped) / kvSeconds("tensorrt-llm@0.13", 4, grouped), 108.0 / 32.0,
                1e-9);
    // Per-head: 32 blocks stream the KV heads at 32 / 108 of the bandwidth, which takes longer than the cache's
    // re-reads of them (the split kernel's bound).
    EXPECT_NEAR(kvSeconds("tensorrt-llm@0.10", 1, perHead) / kvSeconds("tensorrt-llm", 1, grouped), 108.0 / 32.0, 1e-9);
    EXPECT_GT(kvSeconds("tensorrt-llm", 1, perHead), kvSeconds("tensorrt-llm", 1, grouped));
    // 16 sequences x 8 KV heads fill the 108 SMs: the same step.
    EXPECT_DOUBLE_EQ(kvSeconds("tensorrt-llm@0.10", 16, grouped), kvSeconds("tensorrt-llm", 16, grouped));
}
