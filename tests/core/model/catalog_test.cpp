// The built-in GPU and model catalogs: present at run time, dense peaks, exact shapes and parameter counts.
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/catalog_json.h"
#include "core/model/catalog/links.h"
#include "core/model/llm/inference_config_check.h"
#include "core/model/llm/inference_request.h"
#include "core/model/units.h"
#include "tests/core/model/llm_test_support.h"

#include <QDate>

#include <gtest/gtest.h>

#include <set>

using namespace ridgeline;

TEST(Catalog, BuiltInCatalogsAreCompiledIntoTheLibraryAndFoundAtRunTime)
{
    ASSERT_TRUE(builtinGpus().ok()) << builtinGpus().error().message.toStdString();
    ASSERT_TRUE(builtinModels().ok()) << builtinModels().error().message.toStdString();
    std::set<QString> gpus, models;
    for (const GpuSpec& g : builtinGpus().value()) {
        gpus.insert(g.id);
        EXPECT_FALSE(g.source.isEmpty()) << g.id.toStdString();
    }
    for (const ModelSpec& m : builtinModels().value()) {
        models.insert(m.id);
        EXPECT_FALSE(m.source.isEmpty()) << m.id.toStdString();
    }
    for (const char* id :
         {"a100-40gb-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "h100-sxm", "h100-pcie", "h200", "b200", "l4", "l40s",
          "rtx-4090", "mi300x", "mi325x", "mi355x", "b300", "gb200", "rtx-5090", "rtx-pro-6000"})
        EXPECT_EQ(gpus.count(QLatin1String(id)), 1u) << id;
    // Consumer, workstation, older data-center cards, Apple silicon and Gaudi.
    const char* const added[] = {
        "rtx-3090", "rtx-3090-ti", "rtx-4080",    "rtx-4070-ti", "rtx-5080",       "rtx-a6000",      "rtx-6000-ada",
        "a10",      "a40",         "l40",         "t4",          "v100-sxm2-32gb", "v100-pcie-32gb", "mi250x",
        "mi350x",   "gaudi3",      "rx-7900-xtx", "m1-max",      "m1-ultra",       "m2-max",         "m2-ultra",
        "m3",       "m3-pro",      "m3-max",      "m4",          "m4-pro",         "m4-max"};
    for (const char* id : added)
        EXPECT_EQ(gpus.count(QLatin1String(id)), 1u) << id;
    for (const char* id :
         {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "mistral-7b", "mixtral-8x7b",
          "qwen2.5-7b", "deepseek-v3", "gpt-3-175b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.3-70b", "llama-3.1-405b",
          "qwen3-30b-a3b", "qwen3-235b-a22b", "gpt-j-6b", "falcon-180b"})
        EXPECT_EQ(models.count(QLatin1String(id)), 1u) << id;
    EXPECT_EQ(gpus.size(), 44u);
    EXPECT_EQ(models.size(), 18u);
}

TEST(Catalog, PeaksAreDenseNeverWithSparsity)
{
    // Datasheets lead with 2:4-sparsity figures, twice the dense rate. H100 SXM bf16: 989.4, not 1979.
    EXPECT_DOUBLE_EQ(test::gpu("h100-sxm").peakTflops(NumberFormat::Bf16), 989.4);
    EXPECT_DOUBLE_EQ(test::gpu("h100-sxm").peakTflops(NumberFormat::Fp8), 1978.9);
    EXPECT_DOUBLE_EQ(test::gpu("h100-pcie").peakTflops(NumberFormat::Bf16), 756.0);
    EXPECT_DOUBLE_EQ(test::gpu("h200").peakTflops(NumberFormat::Bf16), 989.4);
    EXPECT_DOUBLE_EQ(test::gpu("a100-80gb-sxm").peakTflops(NumberFormat::Bf16), 312.0);
    EXPECT_DOUBLE_EQ(test::gpu("a100-40gb-sxm").peakTflops(NumberFormat::Tf32), 156.0);
    EXPECT_DOUBLE_EQ(test::gpu("b200").peakTflops(NumberFormat::Bf16), 2250.0);
    EXPECT_DOUBLE_EQ(test::gpu("l4").peakTflops(NumberFormat::Bf16), 121.0);
    EXPECT_DOUBLE_EQ(test::gpu("l40s").peakTflops(NumberFormat::Bf16), 362.05);
    EXPECT_DOUBLE_EQ(test::gpu("rtx-4090").peakTflops(NumberFormat::Bf16), 165.2);
    EXPECT_DOUBLE_EQ(test::gpu("mi300x").peakTflops(NumberFormat::Bf16), 1307.4);
    // The serving cards, dense, from their datasheets and NVIDIA's Blackwell technical brief v2.1.
    EXPECT_DOUBLE_EQ(test::gpu("mi325x").peakTflops(NumberFormat::Fp8), 2614.9);
    EXPECT_DOUBLE_EQ(test::gpu("mi355x").peakTflops(NumberFormat::Fp8), 5033.2);
    EXPECT_DOUBLE_EQ(test::gpu("mi355x").peakTflops(NumberFormat::Mxfp4), 10066.3);  // mxfp4 runs at the fp4 rate
    EXPECT_DOUBLE_EQ(test::gpu("b300").peakTflops(NumberFormat::Fp4), 14000.0);      // not half of the 18 PF sparse
    EXPECT_DOUBLE_EQ(test::gpu("b300").peakTflops(NumberFormat::Int8), 150.0);       // Blackwell Ultra cut INT8
    EXPECT_DOUBLE_EQ(test::gpu("gb200").peakTflops(NumberFormat::Fp4), 10000.0);
    EXPECT_DOUBLE_EQ(test::gpu("b200").peakTflops(NumberFormat::Fp4), 9000.0);
    EXPECT_DOUBLE_EQ(test::gpu("rtx-5090").peakTflops(NumberFormat::Bf16), 209.5);  // FP32 accumulate: half rate
    EXPECT_DOUBLE_EQ(test::gpu("rtx-pro-6000").peakTflops(NumberFormat::Fp4), 2000.0);
    EXPECT_EQ(test::gpu("mi300x").peakTflops(NumberFormat::Fp4), 0.0);  // CDNA 3 has no FP4
    // A100 has no fp8 tensor cores.
    EXPECT_EQ(test::gpu("a100-80gb-sxm").peakTflops(NumberFormat::Fp8), 0.0);
    for (const GpuSpec& g : builtinGpus().value()) {
        // bf16, or fp16 on cards without bf16 (T4, V100, RX 7900 XTX): the tensor rate is above the fp32 one.
        // Apple GPUs have no tensor cores: fp16 runs at the fp32 rate there.
        const double sixteen = g.peakTflops(sixteenBitPrecision(g)), fp8 = g.peakTflops(NumberFormat::Fp8);
        if (g.vendor == QLatin1String("Apple")) {
            EXPECT_DOUBLE_EQ(sixteen, g.peakTflops(NumberFormat::Fp32)) << g.id.toStdString();
        } else {
            EXPECT_GT(sixteen, g.peakTflops(NumberFormat::Fp32)) << g.id.toStdString();
        }
        // fp8 is twice bf16 (L40S: 733 / 362.05) on every card but Gaudi 3, whose matrix engines run both at
        // 1835 TFLOPS; a sparse figure would break this.
        if (fp8 > 0 && g.id != QLatin1String("gaudi3")) {
            EXPECT_NEAR(fp8 / sixteen, 2.0, 0.03) << g.id.toStdString();
        }
    }
    EXPECT_DOUBLE_EQ(test::gpu("gaudi3").peakTflops(NumberFormat::Fp8),
                     test::gpu("gaudi3").peakTflops(NumberFormat::Bf16));
}

TEST(Catalog, BandwidthIsTerabytesPerSecondAndMemoryIsGibibytes)
{
    const GpuSpec a100 = test::gpu("a100-80gb-sxm");
    EXPECT_DOUBLE_EQ(a100.bandwidthTbs, 2.039);
    EXPECT_EQ(a100.memoryBytes(), 85'899'345'920);  // "80GB" of HBM is 80 x 2^30 bytes
    EXPECT_EQ(formatGiB(static_cast<double>(a100.memoryBytes())), QStringLiteral("80.00 GiB"));
    EXPECT_EQ(formatGB(static_cast<double>(a100.memoryBytes())), QStringLiteral("85.90 GB"));
    EXPECT_DOUBLE_EQ(test::gpu("h100-sxm").bandwidthTbs, 3.35);
    EXPECT_DOUBLE_EQ(test::gpu("h200").bandwidthTbs, 4.8);
    EXPECT_DOUBLE_EQ(test::gpu("mi300x").memoryGib, 192.0);
    EXPECT_EQ(test::gpu("h100-sxm").interconnect, QStringLiteral("nvlink4"));
    EXPECT_DOUBLE_EQ(test::gpu("h100-sxm").interconnectGbPerDirection, 450.0);  // 900 GB/s bidirectional
    // The B200 of HGX boards streams 7.7 TB/s (technical brief v2.1, Table 3); 8 TB/s is the NVL72 part's.
    EXPECT_DOUBLE_EQ(test::gpu("b200").bandwidthTbs, 7.7);
    EXPECT_DOUBLE_EQ(test::gpu("gb200").bandwidthTbs, 8.0);
    EXPECT_DOUBLE_EQ(test::gpu("mi325x").bandwidthTbs, 6.0);
    EXPECT_DOUBLE_EQ(test::gpu("mi355x").memoryGib, 288.0);
    // One interconnect domain: 8 GPUs in an HGX node, 72 in an NVL72 rack; the network between nodes.
    EXPECT_EQ(test::gpu("h100-sxm").scaleUpGpus, 8);
    EXPECT_EQ(test::gpu("gb200").scaleUpGpus, 72);
    EXPECT_EQ(test::gpu("h100-sxm").networkLink, QStringLiteral("infiniband-ndr"));
    EXPECT_EQ(test::gpu("rtx-5090").scaleUpGpus, 0);
    for (const GpuSpec& g : builtinGpus().value()) {
        if (!g.networkLink.isEmpty()) {
            EXPECT_TRUE(findLink(g.networkLink).ok()) << g.id.toStdString();
        }
    }
}

// Consumer, workstation and older data-center cards: figures straight from their datasheets and whitepapers, so an
// edit cannot silently change them. A precision a card lacks is absent (0), never guessed.
TEST(Catalog, ConsumerWorkstationAndOlderCardsKeepTheirDatasheetFigures)
{
    const GpuSpec rtx3090 = test::gpu("rtx-3090");
    EXPECT_DOUBLE_EQ(rtx3090.bandwidthTbs, 0.936);  // 936 GB/sec
    EXPECT_DOUBLE_EQ(rtx3090.memoryGib, 24.0);      // 24GB GDDR6X
    EXPECT_EQ(rtx3090.memoryType, QStringLiteral("GDDR6X"));
    EXPECT_DOUBLE_EQ(rtx3090.peakTflops(NumberFormat::Bf16), 71.0);  // FP32 accumulate: half the 142 of FP16 accumulate
    EXPECT_EQ(rtx3090.peakTflops(NumberFormat::Fp8), 0.0);           // no FP8 on Ampere
    EXPECT_EQ(rtx3090.interconnect, QStringLiteral("nvlink3-bridge"));
    EXPECT_DOUBLE_EQ(findLink(rtx3090.interconnect).value().gbPerSecPerDirection, 56.25);  // 112.5 GB/s both ways
    EXPECT_DOUBLE_EQ(test::gpu("rtx-4080").peakTflops(NumberFormat::Bf16), 97.5);
    EXPECT_DOUBLE_EQ(test::gpu("rtx-4080").bandwidthTbs, 0.7168);
    EXPECT_DOUBLE_EQ(test::gpu("rtx-5080").peakTflops(NumberFormat::Fp4), 900.4);      // half the '1,801 AI TOPS'
    EXPECT_DOUBLE_EQ(test::gpu("rtx-a6000").peakTflops(NumberFormat::Bf16), 154.8);    // full rate on a pro card
    EXPECT_DOUBLE_EQ(test::gpu("rtx-6000-ada").peakTflops(NumberFormat::Fp8), 728.5);  // half of 1,457.0 sparse
    EXPECT_DOUBLE_EQ(test::gpu("a10").peakTflops(NumberFormat::Bf16), 125.0);
    EXPECT_DOUBLE_EQ(test::gpu("a10").bandwidthTbs, 0.6);
    EXPECT_DOUBLE_EQ(test::gpu("a40").bandwidthTbs, 0.696);
    EXPECT_DOUBLE_EQ(test::gpu("l40").peakTflops(NumberFormat::Bf16), 181.05);
    // T4: Turing, 65 TFLOPS FP16/FP32 mixed precision, no bf16 or fp8; 16GB GDDR6, 320 GB/s, PCIe Gen3.
    const GpuSpec t4 = test::gpu("t4");
    EXPECT_DOUBLE_EQ(t4.peakTflops(NumberFormat::Fp16), 65.0);
    EXPECT_EQ(t4.peakTflops(NumberFormat::Bf16), 0.0);
    EXPECT_EQ(t4.peakTflops(NumberFormat::Fp8), 0.0);
    EXPECT_EQ(sixteenBitPrecision(t4), NumberFormat::Fp16);
    EXPECT_DOUBLE_EQ(t4.memoryGib, 16.0);
    EXPECT_EQ(t4.hostLink, QStringLiteral("pcie3"));
    // V100: Volta, 125 TFLOPS tensor (SXM2), 900 GB/s HBM2, no bf16, tf32 or fp8.
    const GpuSpec v100 = test::gpu("v100-sxm2-32gb");
    EXPECT_DOUBLE_EQ(v100.peakTflops(NumberFormat::Fp16), 125.0);
    EXPECT_EQ(v100.peakTflops(NumberFormat::Bf16), 0.0);
    EXPECT_EQ(v100.peakTflops(NumberFormat::Fp8), 0.0);
    EXPECT_EQ(v100.peakTflops(NumberFormat::Tf32), 0.0);
    EXPECT_DOUBLE_EQ(v100.bandwidthTbs, 0.9);
    EXPECT_DOUBLE_EQ(findLink(v100.interconnect).value().gbPerSecPerDirection, 150.0);  // NVLink 300 GB/s
    EXPECT_DOUBLE_EQ(test::gpu("v100-pcie-32gb").peakTflops(NumberFormat::Fp16), 112.0);
    // MI250X: one of its two GCDs, half the module's 383 TFLOPS and 128GB.
    EXPECT_DOUBLE_EQ(test::gpu("mi250x").peakTflops(NumberFormat::Bf16), 191.5);
    EXPECT_DOUBLE_EQ(test::gpu("mi250x").memoryGib, 64.0);
    EXPECT_EQ(test::gpu("mi250x").peakTflops(NumberFormat::Fp8), 0.0);
    EXPECT_DOUBLE_EQ(test::gpu("mi350x").peakTflops(NumberFormat::Bf16), 2306.9);
    EXPECT_DOUBLE_EQ(test::gpu("mi350x").memoryGib, 288.0);
    EXPECT_DOUBLE_EQ(test::gpu("gaudi3").bandwidthTbs, 3.67);
    EXPECT_DOUBLE_EQ(test::gpu("gaudi3").memoryGib, 128.0);
    EXPECT_DOUBLE_EQ(test::gpu("rx-7900-xtx").peakTflops(NumberFormat::Fp16), 122.8);
    EXPECT_EQ(test::gpu("rx-7900-xtx").peakTflops(NumberFormat::Bf16), 0.0);  // not in AMD's specification
    // Apple silicon: the SoC's unified memory and bandwidth; fp16 at the fp32 rate, no bf16, no host link.
    const GpuSpec m2Ultra = test::gpu("m2-ultra");
    EXPECT_DOUBLE_EQ(m2Ultra.memoryGib, 192.0);
    EXPECT_DOUBLE_EQ(m2Ultra.bandwidthTbs, 0.8);
    EXPECT_DOUBLE_EQ(m2Ultra.peakTflops(NumberFormat::Fp16), 27.2);
    EXPECT_EQ(m2Ultra.peakTflops(NumberFormat::Bf16), 0.0);
    EXPECT_TRUE(m2Ultra.hostLink.isEmpty());
    EXPECT_DOUBLE_EQ(test::gpu("m1-max").bandwidthTbs, 0.4);
    // M3 and M4: Apple's announced unified memory and bandwidth; the GPU's fp32 rate from cores x 256 FLOP x clock.
    EXPECT_DOUBLE_EQ(test::gpu("m3-max").bandwidthTbs, 0.4);
    EXPECT_DOUBLE_EQ(test::gpu("m3-pro").memoryGib, 36.0);
    EXPECT_DOUBLE_EQ(test::gpu("m4-max").bandwidthTbs, 0.546);
    EXPECT_DOUBLE_EQ(test::gpu("m4-pro").bandwidthTbs, 0.273);
    EXPECT_DOUBLE_EQ(test::gpu("m4").memoryGib, 32.0);
    EXPECT_NEAR(test::gpu("m3-max").peakTflops(NumberFormat::Fp32), 40 * 256 * 1.398e-3, 0.01);
    EXPECT_NEAR(test::gpu("m4-max").peakTflops(NumberFormat::Fp32), 40 * 256 * 1.678e-3, 0.01);
    // The link tensor parallelism runs over by default (the interconnect, else the host link) is a known one.
    for (const GpuSpec& g : builtinGpus().value()) {
        EXPECT_TRUE(findLink(defaultLinkId(g)).ok()) << g.id.toStdString();
        if (!g.interconnect.isEmpty() || !g.hostLink.isEmpty()) {
            EXPECT_EQ(defaultLinkId(g), g.interconnect.isEmpty() ? g.hostLink : g.interconnect) << g.id.toStdString();
        }
    }
}

TEST(Catalog, ParameterCountsComeFromTheShapesExactly)
{
    struct Expected {
        const char* id;
        std::int64_t params;  // Hugging Face's safetensors parameter count for the same checkpoint
    };
    for (const Expected& e : {Expected{"llama-2-7b", 6'738'415'616}, Expected{"llama-2-13b", 13'015'864'320},
                              Expected{"llama-2-70b", 68'976'648'192}, Expected{"llama-3-8b", 8'030'261'248},
                              Expected{"llama-3-70b", 70'553'706'496}, Expected{"mistral-7b", 7'241'732'096},
                              Expected{"mixtral-8x7b", 46'702'792'704}, Expected{"qwen2.5-7b", 7'615'616'512}}) {
        const Result<ParamCounts> counts = countParams(test::model(e.id));
        ASSERT_TRUE(counts.ok()) << e.id;
        EXPECT_EQ(counts.value().total, e.params) << e.id;
    }
}

TEST(Catalog, MoeAndPaperModelsMatchTheirPublishedSizes)
{
    const ParamCounts mixtral = countParams(test::model("mixtral-8x7b")).value();
    EXPECT_NEAR(static_cast<double>(mixtral.activePerToken) / 1e9, 12.9, 0.05);  // paper: 12.9B active
    const ParamCounts deepseek = countParams(test::model("deepseek-v3")).value();
    EXPECT_NEAR(static_cast<double>(deepseek.total) / 1e9, 671.0, 0.5);          // paper: 671B (MTP module not counted)
    EXPECT_NEAR(static_cast<double>(deepseek.activePerToken) / 1e9, 37.0, 1.0);  // paper: 37B activated
    const ParamCounts gpt3 = countParams(test::model("gpt-3-175b")).value();
    EXPECT_NEAR(static_cast<double>(gpt3.total) / 175.0e9, 1.0, 0.005);  // paper: 175.0B
    const ParamCounts qwen3 = countParams(test::model("qwen3-30b-a3b")).value();
    EXPECT_NEAR(static_cast<double>(qwen3.total) / 1e9, 30.5, 0.05);          // card: 30.5B total
    EXPECT_NEAR(static_cast<double>(qwen3.activePerToken) / 1e9, 3.3, 0.06);  // card: 3.3B activated
    const ParamCounts qwen3big = countParams(test::model("qwen3-235b-a22b")).value();
    EXPECT_NEAR(static_cast<double>(qwen3big.total) / 1e9, 235.0, 0.5);          // card: 235B
    EXPECT_NEAR(static_cast<double>(qwen3big.activePerToken) / 1e9, 22.0, 0.3);  // card: 22B activated
    EXPECT_NEAR(static_cast<double>(countParams(test::model("llama-3.1-405b")).value().total) / 1e9, 405.85, 0.01);
    EXPECT_NEAR(static_cast<double>(countParams(test::model("gpt-j-6b")).value().total) / 6.05e9, 1.0, 0.002);
    EXPECT_NEAR(static_cast<double>(countParams(test::model("falcon-180b")).value().total) / 179.5e9, 1.0, 0.003);
    const ParamCounts qwen = countParams(test::model("qwen2.5-7b")).value();
    EXPECT_NEAR(static_cast<double>(qwen.total - qwen.embedding - qwen.lmHead) / 1e9, 6.53,
                0.005);  // card: 6.53B non-embedding
}

TEST(CatalogFile, RefusesOtherFormatsNewerSchemasAndBadEntries)
{
    auto gpus = [](const char* json) { return parseGpuCatalog(QByteArray(json)); };
    EXPECT_EQ(gpus("not json").error().code, Error::Code::Parse);
    EXPECT_EQ(gpus(R"({"format":"something-else","schema_version":1,"gpus":[]})").error().code, Error::Code::Schema);
    const auto newer = gpus(R"({"format":"ridgeline-gpu-catalog","schema_version":2,"gpus":[]})");
    ASSERT_FALSE(newer.ok());
    // The header rule of sessions and decks (A1): a newer schema is Unsupported, and says so.
    EXPECT_EQ(newer.error().code, Error::Code::Unsupported);
    EXPECT_TRUE(newer.error().message.contains(QStringLiteral("written by a newer Ridgeline (schema 2)")))
        << newer.error().message.toStdString();
    const char* noSource =
        R"({"format":"ridgeline-gpu-catalog","schema_version":1,"gpus":[{"id":"x","name":"X","memory_gib":8,"bandwidth_tbs":1,"dense_tflops":{"bf16":10}}]})";
    EXPECT_FALSE(gpus(noSource).ok());
    const char* sparseKey =
        R"({"format":"ridgeline-gpu-catalog","schema_version":1,"gpus":[{"id":"x","name":"X","source":"s","memory_gib":8,"bandwidth_tbs":1,"dense_tflops":{"bf16_sparse":20}}]})";
    EXPECT_FALSE(gpus(sparseKey).ok());
    const char* zeroBandwidth =
        R"({"format":"ridgeline-gpu-catalog","schema_version":1,"gpus":[{"id":"x","name":"X","source":"s","memory_gib":8,"bandwidth_tbs":0,"dense_tflops":{"bf16":10}}]})";
    EXPECT_FALSE(gpus(zeroBandwidth).ok());

    auto models = [](const char* json) { return parseModelCatalog(QByteArray(json)); };
    const char* noLayers =
        R"({"format":"ridgeline-model-catalog","schema_version":1,"models":[{"id":"m","name":"M","source":"s","hidden":64,"heads":4,"kv_heads":4,"head_dim":16,"ffn":128,"vocab":10}]})";
    EXPECT_FALSE(models(noLayers).ok());
    const char* badGroups =
        R"({"format":"ridgeline-model-catalog","schema_version":1,"models":[{"id":"m","name":"M","source":"s","layers":2,"hidden":64,"heads":6,"kv_heads":4,"head_dim":16,"ffn":128,"vocab":10}]})";
    EXPECT_FALSE(models(badGroups).ok());
    const char* good =
        R"({"format":"ridgeline-model-catalog","schema_version":1,"models":[{"id":"m","name":"M","source":"s","layers":2,"hidden":64,"heads":4,"kv_heads":2,"head_dim":16,"ffn":128,"vocab":10}]})";
    ASSERT_TRUE(models(good).ok());
    // 2 x 64 x 10 embeddings + 2 x (attention 64x64 + 2 x 64x32 + 64x64, 3 x 64 x 128 FFN, 2 norms) + final norm
    EXPECT_EQ(countParams(models(good).value().front()).value().total,
              1280 + 2 * (4096 + 4096 + 4096 + 24576 + 128) + 64);
}

// A1: the catalogs are read by the strict reader of sessions and decks.
TEST(CatalogFile, RefusesDuplicateAndUnknownKeysAndNumbersOfTheWrongType)
{
    const QByteArray header = R"({"format":"ridgeline-gpu-catalog","schema_version":1,"gpus":[)";
    const QByteArray card =
        R"("id":"x","name":"X","source":"s","memory_gib":8,"bandwidth_tbs":1,"dense_tflops":{"bf16":10})";
    auto refusal = [&](const QByteArray& entries) {
        const auto gpus = parseGpuCatalog(header + entries + "]}");
        return gpus.ok() ? QString() : gpus.error().message;
    };
    ASSERT_TRUE(parseGpuCatalog(header + "{" + card + "}]}").ok());
    const std::vector<std::pair<QByteArray, const char*>> cases{
        {"{" + card + R"(,"tdp_w":300,"tdp_w":400})", "duplicate key gpus[0].tdp_w"},
        {"{" + card + R"(,"tdp":300})", "unknown field gpus[0].tdp"},
        {"{" + card + R"(,"sm_count":-1})", "gpus[0].sm_count"},
        {"{" + card + R"(,"interconnect":{"link":"nvlink4","gbps":450}})", "unknown field gpus[0].interconnect.gbps"},
        // A number given as text was read as 0 before; now it is named.
        {"{" + card + R"(,"tdp_w":"700"})", "gpus[0].tdp_w must be a finite number >= 0, got the string \"700\""},
        {R"({"id":"x","name":"X","source":"s","bandwidth_tbs":1,"dense_tflops":{"bf16":10}})",
         "missing required field gpus[0].memory_gib"},
        {R"({"id":"x","name":"X","source":"s","memory_gib":8,"bandwidth_tbs":1,"dense_tflops":{"bf16_sparse":20}})",
         "gpus[0].dense_tflops.bf16_sparse is not a tensor-core precision"},
        {"{" + card + "},{" + card + "}", "gpus[1].id \"x\" is used twice"},
        {"{" + card + R"(,"measured_bandwidth":{"triad_tbs":1.5,"source":"t"}})",
         "gpus[0].measured_bandwidth.triad_tbs is above the datasheet's bandwidth_tbs"},
        // Cache bandwidths need a source, at least one level, and L1 >= L2 >= the memory.
        {"{" + card + R"(,"cache_bandwidth":{"l2_tbs":5}})", "missing required field gpus[0].cache_bandwidth.source"},
        {"{" + card + R"(,"cache_bandwidth":{"source":"s"}})", "gpus[0].cache_bandwidth.l2_tbs or l1_tbs is needed"},
        {"{" + card + R"(,"cache_bandwidth":{"l2_tbs":0.5,"source":"s"}})",
         "gpus[0].cache_bandwidth.l2_tbs: L1 >= L2 >= bandwidth_tbs (the memory) is expected"},
        {"{" + card + R"(,"cache_bandwidth":{"l2_tbs":5,"l1_tbs":4,"source":"s"}})",
         "gpus[0].cache_bandwidth.l2_tbs: L1 >= L2 >= bandwidth_tbs (the memory) is expected"},
        {"{" + card + R"(,"cache_bandwidth":{"l2_tbs":5,"l3_tbs":6,"source":"s"}})",
         "unknown field gpus[0].cache_bandwidth.l3_tbs"},
        {"{" + card + R"(,"fp64_tflops":0})", "gpus[0].fp64_tflops must be above 0"},
        {"{" + card + R"(,"device_names":["X 8GB",""]})", "gpus[0].device_names[1] is empty"},
        // An example price carries its figure, provider, day and source, or the file is refused naming the field.
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":2,"date":"2026-09-20","source":"p"}})",
         "missing required field gpus[0].gpu_hour_price_example.provider"},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":-2,"provider":"P","date":"2026-09-20","source":"p"}})",
         "gpus[0].gpu_hour_price_example.usd must be a finite number >= 0, got -2"},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":0,"provider":"P","date":"2026-09-20","source":"p"}})",
         "gpus[0].gpu_hour_price_example.usd must be a number of US dollars above 0"},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":3990,"provider":"P","date":"2026-09-20","source":"p"}})",
         "gpus[0].gpu_hour_price_example.usd"},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":2,"provider":"P","date":"September 2026","source":"p"}})",
         "gpus[0].gpu_hour_price_example.date must be a day as YYYY-MM-DD, got the string \"September 2026\""},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":2,"provider":"P","date":"2026-09-20","source":""}})",
         "gpus[0].gpu_hour_price_example.source must not be empty"},
        {"{" + card + R"(,"gpu_hour_price_example":{"usd":2,"provider":"P","date":"2026-09-20","source":"p","x":1}})",
         "unknown field gpus[0].gpu_hour_price_example.x"},
    };
    for (const auto& [entries, expected] : cases) {
        const QString message = refusal(entries);
        EXPECT_TRUE(message.contains(QLatin1String(expected)))
            << entries.toStdString() << "\n  gave: " << message.toStdString();
    }
    const auto models = parseModelCatalog(
        R"({"format":"ridgeline-model-catalog","schema_version":1,"models":[{"id":"m","name":"M","source":"s","layers":2,"hidden":64,"heads":4,"kv_heads":2,"head_dim":16,"ffn":128,"vocab":10,"ffn_type":"gelu"}]})");
    ASSERT_FALSE(models.ok());
    EXPECT_TRUE(models.error().message.contains(QStringLiteral("unknown field models[0].ffn_type")))
        << models.error().message.toStdString();
}

// A5: one GPU JSON shape. What the writer writes, the reader reads back field for field.
TEST(CatalogFile, TheGpuWriterWritesWhatTheReaderReads)
{
    const std::vector<GpuSpec>& builtin = builtinGpus().value();
    const QByteArray written = gpuCatalogToJson(builtin);
    const Result<std::vector<GpuSpec>> reread = parseGpuCatalog(written);
    ASSERT_TRUE(reread.ok()) << reread.error().message.toStdString();
    ASSERT_EQ(reread.value().size(), builtin.size());
    for (std::size_t i = 0; i < builtin.size(); ++i) {
        const GpuSpec &a = builtin[i], &b = reread.value()[i];
        EXPECT_EQ(a.id, b.id);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.vendor, b.vendor);
        EXPECT_EQ(a.memoryType, b.memoryType);
        EXPECT_EQ(a.memoryGib, b.memoryGib);
        EXPECT_EQ(a.memoryDatasheet, b.memoryDatasheet);
        EXPECT_EQ(a.bandwidthTbs, b.bandwidthTbs);
        EXPECT_EQ(a.measuredBandwidthTbs, b.measuredBandwidthTbs);
        EXPECT_EQ(a.measuredBandwidthSource, b.measuredBandwidthSource);
        EXPECT_EQ(a.denseTflops, b.denseTflops) << a.id.toStdString();
        EXPECT_EQ(a.interconnect, b.interconnect);
        EXPECT_EQ(a.interconnectName, b.interconnectName);
        EXPECT_EQ(a.interconnectGbPerDirection, b.interconnectGbPerDirection);
        EXPECT_EQ(a.scaleUpGpus, b.scaleUpGpus);
        EXPECT_EQ(a.networkLink, b.networkLink);
        EXPECT_EQ(a.hostLink, b.hostLink);
        EXPECT_EQ(a.hostLinkGbPerDirection, b.hostLinkGbPerDirection);
        EXPECT_EQ(a.tdpWatts, b.tdpWatts);
        EXPECT_EQ(a.smCount, b.smCount);
        EXPECT_EQ(a.examplePrice.usdPerGpuHour, b.examplePrice.usdPerGpuHour);
        EXPECT_EQ(a.examplePrice.provider, b.examplePrice.provider);
        EXPECT_EQ(a.examplePrice.date, b.examplePrice.date);
        EXPECT_EQ(a.examplePrice.source, b.examplePrice.source);
        EXPECT_EQ(a.source, b.source);
        EXPECT_EQ(a.fp64Tflops, b.fp64Tflops);
        EXPECT_EQ(a.l2Tbs, b.l2Tbs);
        EXPECT_EQ(a.l1Tbs, b.l1Tbs);
        EXPECT_EQ(a.cacheBandwidthSource, b.cacheBandwidthSource);
        EXPECT_EQ(a.deviceNames, b.deviceNames);
    }
    EXPECT_EQ(gpuCatalogToJson(reread.value()), written);
    // Fields the old reader dropped are kept now: the link's name and the host link's bandwidth.
    EXPECT_EQ(test::gpu("h100-sxm").interconnectName, QStringLiteral("NVLink 4"));
    EXPECT_DOUBLE_EQ(test::gpu("h100-sxm").hostLinkGbPerDirection, 64.0);
    EXPECT_EQ(test::gpu("a100-80gb-sxm").smCount, 108);
    EXPECT_EQ(test::gpu("h100-sxm").smCount, 132);
}

// What a GPU kernel's roofline stands on. Every figure has its source, and where none was found the
// level is left out (never a guess).
TEST(Catalog, CacheBandwidthsAndFp64PeaksHaveSourcesAndLeaveOutWhatNoneMeasured)
{
    EXPECT_DOUBLE_EQ(test::gpu("a100-40gb-sxm").l2Tbs, 5.4);
    EXPECT_DOUBLE_EQ(test::gpu("a100-40gb-sxm").l1Tbs, 19.1);
    EXPECT_DOUBLE_EQ(test::gpu("a100-40gb-sxm").fp64Tflops, 9.7);
    EXPECT_DOUBLE_EQ(test::gpu("h100-pcie").l2Tbs, 6.9);
    EXPECT_DOUBLE_EQ(test::gpu("h200").l2Tbs, 9.8);
    EXPECT_DOUBLE_EQ(test::gpu("mi300x").fp64Tflops, 81.7);
    EXPECT_EQ(test::gpu("mi300x").l2Tbs, 0.0);  // no published measurement found: left out
    EXPECT_EQ(test::gpu("b200").l1Tbs, 0.0);
    for (const GpuSpec& gpu : builtinGpus().value()) {
        if (gpu.l2Tbs > 0 || gpu.l1Tbs > 0) {
            EXPECT_TRUE(gpu.cacheBandwidthSource.contains(QStringLiteral("gpu-benches"))) << gpu.id.toStdString();
            EXPECT_GE(gpu.l1Tbs, gpu.l2Tbs) << gpu.id.toStdString();
            EXPECT_GE(gpu.l2Tbs, gpu.bandwidthTbs) << gpu.id.toStdString();
        }
        if (gpu.fp64Tflops > 0) {
            EXPECT_TRUE(gpu.source.contains(QStringLiteral("FP64"))) << gpu.id.toStdString();
        }
        EXPECT_FALSE(gpu.deviceNames.isEmpty()) << gpu.id.toStdString() << " names no device";
    }
}

// The bundled catalog's prices are examples, each with the provider whose page gave it, the day it was read and the
// offer; never a user's own price. Cards no provider's page could be cited for have none.
TEST(Catalog, ExamplePricesNameTheirProviderDayAndOffer)
{
    int priced = 0;
    for (const GpuSpec& gpu : builtinGpus().value()) {
        EXPECT_EQ(gpu.gpuHourPrice, 0.0) << gpu.id.toStdString();
        const GpuSpec::ExamplePrice& e = gpu.examplePrice;
        if (e.usdPerGpuHour == 0.0)
            continue;
        ++priced;
        EXPECT_GT(e.usdPerGpuHour, 0.0) << gpu.id.toStdString();
        EXPECT_LE(e.usdPerGpuHour, kMaxGpuHourPrice) << gpu.id.toStdString();
        EXPECT_TRUE(e.provider == QLatin1String("Lambda") || e.provider == QLatin1String("CoreWeave"))
            << gpu.id.toStdString();
        EXPECT_TRUE(QDate::fromString(e.date, Qt::ISODate).isValid()) << gpu.id.toStdString();
        EXPECT_TRUE(e.source.contains(QLatin1String("commit "))) << gpu.id.toStdString();  // the transcription's
    }
    EXPECT_EQ(priced, 12);
    const GpuSpec::ExamplePrice h100 = test::gpu("h100-sxm").examplePrice;
    EXPECT_DOUBLE_EQ(h100.usdPerGpuHour, 3.99);
    EXPECT_EQ(h100.provider, QStringLiteral("Lambda"));
    EXPECT_EQ(h100.date, QStringLiteral("2026-09-20"));
    EXPECT_TRUE(h100.source.contains(QLatin1String("lambda.ai/instances"))) << h100.source.toStdString();
    // A node's price over its GPUs: CoreWeave's HGX H200, $50.44 an hour for 8.
    EXPECT_DOUBLE_EQ(test::gpu("h200").examplePrice.usdPerGpuHour, 50.44 / 8);
    EXPECT_EQ(test::gpu("rtx-4090").examplePrice.usdPerGpuHour, 0.0);
}
