// The built-in GPU and model catalogs: present at run time, dense peaks, exact shapes and parameter counts.
#include "core/model/catalog.h"
#include "core/model/units.h"
#include "tests/core/model/llm_test_support.h"

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
    for (const char* id : {"a100-40gb-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "h100-sxm", "h100-pcie", "h200", "b200",
                           "l4", "l40s", "rtx-4090", "mi300x"})
        EXPECT_EQ(gpus.count(QLatin1String(id)), 1u) << id;
    for (const char* id : {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "mistral-7b",
                           "mixtral-8x7b", "qwen2.5-7b", "deepseek-v3", "gpt-3-175b"})
        EXPECT_EQ(models.count(QLatin1String(id)), 1u) << id;
    EXPECT_EQ(gpus.size(), 11u);
    EXPECT_EQ(models.size(), 10u);
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
    // A100 has no fp8 tensor cores.
    EXPECT_EQ(test::gpu("a100-80gb-sxm").peakTflops(NumberFormat::Fp8), 0.0);
    for (const GpuSpec& g : builtinGpus().value()) {
        const double bf16 = g.peakTflops(NumberFormat::Bf16), fp8 = g.peakTflops(NumberFormat::Fp8);
        EXPECT_GT(bf16, g.peakTflops(NumberFormat::Fp32)) << g.id.toStdString();
        if (fp8 > 0) {  // fp8 is twice bf16 (L40S: 733 / 362.05) on every card; a sparse figure would break this
            EXPECT_NEAR(fp8 / bf16, 2.0, 0.03) << g.id.toStdString();
        }
    }
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
    EXPECT_EQ(newer.error().code, Error::Code::Schema);
    EXPECT_TRUE(newer.error().message.contains(QStringLiteral("schema_version 2")));
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
