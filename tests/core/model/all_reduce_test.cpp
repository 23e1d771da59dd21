// How the GPUs all-reduce (core/model/catalog/links.h): NCCL's ring and tree and the custom one-shot and two-shot
// kernels, against published measurements, where each is latency- or bandwidth-bound and where they cross, and which
// of them an engine runs over which link.
#include "core/model/catalog/links.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/inference_request.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace ridgeline;

namespace {

// NCCL's start-up of one all-reduce, once per collective (NCCL src/graph/tuning.cc: base latency of the ring with
// the LL protocol); in the model it is the engine's time per collective (engine_terms.h).
constexpr double kNcclStartUpUs = 6.6;

LinkSpec link(const char* id)
{
    return findLink(QString::fromLatin1(id)).value();
}

double seconds(AllReduceAlgorithm a, const LinkSpec& l, int gpus, double bytes)
{
    return allReduceAlgorithmSeconds(a, l, gpus, bytes);
}

}  // namespace

TEST(AllReduce, OneShotAndRingOverPcieMatchPublishedLatencies)
{
    // haohervchb/sglang-V100 PR #2 (2026-09): four V100s behind one PCIe switch (PCIe 3), fp16, timed inside a
    // CUDA graph: NCCL 19.4 / 20.3 / 22.3 / 24.2 us and a one-shot push kernel 4.0 / 5.0 / 7.2 / 11.8 us at
    // 4 / 8 / 16 / 32 KB. A published time is the collective's start-up plus the link's hops and bytes; the model
    // counts the start-up once, in the engine's time per collective (NCCL's base latency, 6.6 us), never in a hop.
    const LinkSpec pcie3 = link("pcie3");
    struct Measured {
        double kib, ncclUs, oneShotUs;
    };
    for (const Measured& m :
         {Measured{4, 19.4, 4.0}, Measured{8, 20.3, 5.0}, Measured{16, 22.3, 7.2}, Measured{32, 24.2, 11.8}}) {
        const double bytes = m.kib * 1024;
        const double ring = kNcclStartUpUs + 1e6 * allReduceSeconds(pcie3, pcie3, 4, 0, bytes);
        const double oneShot = 1e6 * seconds(AllReduceAlgorithm::OneShot, pcie3, 4, bytes);
        std::printf(
            "%4.0f KB: ring %5.1f us with NCCL's start-up (NCCL %5.1f), one-shot %5.1f us without its "
            "launch (measured %5.1f)\n",
            m.kib, ring, m.ncclUs, oneShot, m.oneShotUs);
        EXPECT_NEAR(ring / m.ncclUs, 1.0, 0.1) << m.kib;
        // The one-shot kernel's own launch inside the graph (about 1 us here) is the rest of what was measured.
        EXPECT_LT(oneShot, m.oneShotUs) << m.kib;
        EXPECT_GT(oneShot, 0.6 * m.oneShotUs) << m.kib;
        if (m.kib <= 16) {  // at 32 KB one and two steps cost the same here
            EXPECT_EQ(fastestAllReduce(pcie3, 4, bytes, AllReduceKernels::Custom), AllReduceAlgorithm::OneShot);
        }
    }
}

TEST(AllReduce, NcclOverPcieMatchesPublishedSmallMessagesAndBoundsLargeOnes)
{
    // nccl-tests all_reduce_perf on eight RTX 4090s, which have no peer-to-peer (NVIDIA/nccl#1530): 42.1 us at
    // 8 bytes, NCCL's start-up and 14 hops through host memory.
    const LinkSpec host = link("pcie4-host");
    EXPECT_NEAR((kNcclStartUpUs + 1e6 * allReduceSeconds(host, host, 8, 0, 8.0)) / 42.1, 1.0, 0.05);
    // Four RTX 4090s with peer-to-peer (tinygrad/open-gpu-kernel-modules#36): bus bandwidth 25.7 GB/s at 256 MB,
    // 15.65 ms. NCCL's Simple protocol over PCIe runs at that share of the line (0.80, links.cpp): reproduced.
    const LinkSpec pcie4 = link("pcie4");
    const double ms = 1e3 * allReduceSeconds(pcie4, pcie4, 4, 0, 268435456.0);
    std::printf("256 MB over 4 GPUs on PCIe 4: %.2f ms (nccl-tests 15.65 ms)\n", ms);
    EXPECT_NEAR(ms / 15.65, 1.0, 0.02);
    // NCCL's two protocols over PCIe: a small message by LL (half the link carries data), a large one by Simple
    // (its share of the link, longer hops); between, the faster.
    const double g = 4, small = 16e3, large = 64e6;
    const double hop = pcie4.latencyUs * 1e-6, bw = pcie4.gbPerSecPerDirection * 1e9;
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::Ring, pcie4, 4, small),
                     2 * (g - 1) * hop + 2 * (g - 1) / g * small / (0.5 * bw));
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::Ring, pcie4, 4, large),
                     1.8e-6 + 2 * (g - 1) * (hop + 4.7e-6) + 2 * (g - 1) / g * large / (0.8 * bw));
}

TEST(AllReduce, EightGpusOverPcieCrossBetweenTwoSocketsAtTheirLinksRate)
{
    // An eight-GPU PCIe server is two sockets of four: the ring's slowest hop is the path between them (16 GB/s,
    // links.cpp), for LL and Simple alike; four GPUs stay on one socket.
    const LinkSpec pcie4 = link("pcie4");
    ASSERT_EQ(pcie4.gpusPerSocket, 4);
    const double large = 64e6, socket = pcie4.socketGbPerSec * 1e9, hop = pcie4.latencyUs * 1e-6;
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::Ring, pcie4, 8, large),
                     1.8e-6 + 14 * (hop + 4.7e-6) + 2 * 7.0 / 8 * large / socket);
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::Ring, pcie4, 8, 16e3), 14 * hop + 2 * 7.0 / 8 * 16e3 / (0.5 * socket));
    // Llama 2 70B's 2,048-token prefill all-reduces 32 MiB: per GPU byte, eight GPUs across two sockets take longer
    // than four on one.
    const double message = 2048 * 8192 * 2.0;
    EXPECT_GT(seconds(AllReduceAlgorithm::Ring, pcie4, 8, message) / (2 * 7.0 / 8),
              1.5 * seconds(AllReduceAlgorithm::Ring, pcie4, 4, message) / (2 * 3.0 / 4));
    // The custom kernels send the other socket's GPUs whole buffers: (g/2)^2 x b one way for the one-shot, g/2 x b
    // for the two-shot, so between sockets NCCL's ring is the fastest of them for a large message.
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::OneShot, pcie4, 8, large), 16 * large / socket);
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::TwoShot, pcie4, 8, large), 4 * large / socket);
    EXPECT_EQ(fastestAllReduce(pcie4, 8, message, AllReduceKernels::Custom), AllReduceAlgorithm::Ring);
    // NVLink boards are one domain.
    EXPECT_EQ(link("nvlink4").gpusPerSocket, 0);
}

TEST(AllReduce, ABatchOneMessageIsLatencyBoundAndALargeOneBandwidthBound)
{
    // A decode step's all-reduce at batch 1 is hidden x 2 bytes: 16 KB for a 70B model, 32 KB at batch 2. A prefill
    // of 2,048 tokens of 8,192 x 2 bytes is 32 MB; 256 MB is far beyond it.
    for (const char* id : {"pcie4", "nvlink4", "infinity-fabric"}) {
        const LinkSpec l = link(id);
        for (AllReduceAlgorithm a :
             {AllReduceAlgorithm::Ring, AllReduceAlgorithm::OneShot, AllReduceAlgorithm::TwoShot}) {
            const double latency = seconds(a, l, 8, 0.0);
            const std::string what = std::string(id) + " " + allReduceAlgorithmName(a).toStdString();
            EXPECT_LT(latency / seconds(a, l, 8, 256e6), 0.02) << what;
            // The custom kernels send whole buffers between a PCIe server's two sockets: bandwidth-bound there,
            // latency-bound on the fabrics.
            if (a == AllReduceAlgorithm::Ring || !l.pcie) {
                EXPECT_GT(latency / seconds(a, l, 8, 32e3), 0.5) << what;
            }
        }
        // NCCL's ring at 32 KB: its 14 steps are nearly all of the time (over PCIe, whose LL protocol carries data
        // on half of the path between the sockets, most of it).
        EXPECT_GT(seconds(AllReduceAlgorithm::Ring, l, 8, 0.0) / seconds(AllReduceAlgorithm::Ring, l, 8, 32e3),
                  l.pcie ? 0.75 : 0.9)
            << id;
    }
}

TEST(AllReduce, CustomKernelsCrossFromOneShotToTwoShotAndNcclStaysTheRing)
{
    const LinkSpec nvlink = link("nvlink4");
    // Eight GPUs: one step wins for small messages; for large ones the two-shot moves 2 (g-1)/g of the bytes instead
    // of (g-1). TensorRT-LLM switches at 500 KB, AMD's kernels on MI355X at 64 KB (vllm-project/vllm#39080): the
    // model's crossover lies between.
    EXPECT_EQ(fastestAllReduce(nvlink, 8, 32e3, AllReduceKernels::Custom), AllReduceAlgorithm::OneShot);
    EXPECT_EQ(fastestAllReduce(nvlink, 8, 8e6, AllReduceKernels::Custom), AllReduceAlgorithm::TwoShot);
    double crossover = 1e3;
    while (fastestAllReduce(nvlink, 8, crossover, AllReduceKernels::Custom) == AllReduceAlgorithm::OneShot)
        crossover *= 1.1;
    std::printf("NVLink 4, 8 GPUs: the two-shot overtakes the one-shot at %.0f KB\n", crossover / 1e3);
    EXPECT_GT(crossover, 64e3);
    EXPECT_LT(crossover, 500e3);
    // Two GPUs: both move the bytes once, so the one step always wins (TensorRT-LLM: one-shot for TP 2 at any size).
    EXPECT_EQ(fastestAllReduce(nvlink, 2, 64e6, AllReduceKernels::Custom), AllReduceAlgorithm::OneShot);
    // The two-shot is the ring's bytes in two steps instead of 2 (g-1), so faster at the sizes a step all-reduces;
    // a large message goes to NCCL's Simple protocol, which reaches 0.82 of NVLink where the two-shot reaches 0.45,
    // as vLLM and TensorRT-LLM hand messages beyond their kernels' buffers to NCCL.
    EXPECT_LT(seconds(AllReduceAlgorithm::TwoShot, nvlink, 8, 4e6), seconds(AllReduceAlgorithm::Ring, nvlink, 8, 4e6));
    EXPECT_EQ(fastestAllReduce(nvlink, 8, 64e6, AllReduceKernels::Custom), AllReduceAlgorithm::Ring);
    // NCCL inside a node is the ring; a link without peer-to-peer runs no custom kernel.
    EXPECT_EQ(fastestAllReduce(nvlink, 8, 16e3, AllReduceKernels::Nccl), AllReduceAlgorithm::Ring);
    EXPECT_EQ(fastestAllReduce(link("pcie4-host"), 2, 16e3, AllReduceKernels::Custom), AllReduceAlgorithm::Ring);
    EXPECT_DOUBLE_EQ(allReduceSeconds(nvlink, nvlink, 1, 0, 16e3, AllReduceKernels::Custom), 0.0);
    EXPECT_EQ(parseAllReduceKernels(u"Custom"), AllReduceKernels::Custom);
    EXPECT_EQ(parseAllReduceKernels(u"nccl"), AllReduceKernels::Nccl);
    // The earlier names still run: ring was NCCL's, one-shot a custom kernel.
    EXPECT_EQ(parseAllReduceKernels(u"one-shot"), AllReduceKernels::Custom);
    EXPECT_EQ(parseAllReduceKernels(u"ring"), AllReduceKernels::Nccl);
    EXPECT_FALSE(parseAllReduceKernels(u"two-shot").has_value());
}

TEST(AllReduce, AcrossManyNodesNcclTakesTheTreeForSmallMessagesAndTheRingForLarge)
{
    const LinkSpec ib = link("infiniband-ndr"), nvlink = link("nvlink4");
    // 16 nodes: the ring's 30 steps of 5 us against the tree's 8; the tree moves twice the bytes.
    EXPECT_EQ(fastestAllReduce(ib, 16, 2e3, AllReduceKernels::Nccl), AllReduceAlgorithm::Tree);
    EXPECT_EQ(fastestAllReduce(ib, 16, 64e6, AllReduceKernels::Nccl), AllReduceAlgorithm::Ring);
    EXPECT_DOUBLE_EQ(seconds(AllReduceAlgorithm::Tree, ib, 16, 0.0), 8 * 5e-6);
    // 128 GPUs in 16 nodes of 8, a decode message of 16 KB: the nodes' share crosses the network by the tree.
    EXPECT_DOUBLE_EQ(allReduceSeconds(nvlink, ib, 128, 8, 16e3),
                     ringAllReduceSeconds(nvlink, 8, 16e3) + seconds(AllReduceAlgorithm::Tree, ib, 16, 2e3));
}

TEST(AllReduce, EnginesRunTheirOwnKernelsWhereTheirDispatchAllowsIt)
{
    auto kernelsOf = [](const char* engine, const char* linkId, int gpus) {
        return selectEngine(QString::fromLatin1(engine)).value().profile->allReduceKernels(link(linkId), gpus);
    };
    EXPECT_EQ(kernelsOf("vllm", "nvlink4", 8), AllReduceKernels::Custom);
    EXPECT_EQ(kernelsOf("vllm", "pcie4", 2), AllReduceKernels::Custom);
    EXPECT_EQ(kernelsOf("vllm", "pcie4", 4), AllReduceKernels::Nccl);
    EXPECT_EQ(kernelsOf("sglang", "pcie5", 8), AllReduceKernels::Nccl);
    EXPECT_EQ(kernelsOf("tensorrt-llm", "nvlink4", 8), AllReduceKernels::Custom);
    EXPECT_EQ(kernelsOf("tensorrt-llm", "pcie4", 2), AllReduceKernels::Nccl);
    EXPECT_EQ(kernelsOf("llama.cpp", "nvlink4", 2), AllReduceKernels::Nccl);
    // An RTX 4090 has no peer-to-peer: its default link goes through the host, and even vLLM's two GPUs use NCCL.
    const GpuSpec rtx4090 = test::gpu("rtx-4090");
    EXPECT_EQ(defaultLinkId(rtx4090), QStringLiteral("pcie4-host"));
    EXPECT_EQ(kernelsOf("vllm", "pcie4-host", 2), AllReduceKernels::Nccl);
}

// TensorRT-LLM's custom kernels were an opt-in build flag of the examples' build.py scripts before trtllm-build
// (0.8): an engine of 0.5-0.7 all-reduces with NCCL even over NVLink, as `--engine tensorrt-llm@0.6.1` runs it.
TEST(AllReduce, TensorRtLlmRunsItsCustomKernelsFromTheVersionThatBuiltThemByDefault)
{
    auto kernelsOf = [](const char* engine, int gpus) {
        return selectEngine(QString::fromLatin1(engine)).value().allReduceKernels(link("nvlink4"), gpus);
    };
    EXPECT_EQ(kernelsOf("tensorrt-llm@0.5.0", 8), AllReduceKernels::Nccl);
    EXPECT_EQ(kernelsOf("tensorrt-llm@0.6.1", 4), AllReduceKernels::Nccl);
    EXPECT_EQ(kernelsOf("tensorrt-llm@0.8.0", 8), AllReduceKernels::Custom);
    EXPECT_EQ(kernelsOf("tensorrt-llm@0.16", 8), AllReduceKernels::Custom);
    EXPECT_EQ(kernelsOf("tensorrt-llm", 8), AllReduceKernels::Custom);  // no version: the newest covered
    EXPECT_EQ(kernelsOf("vllm@v0.6.7", 8), AllReduceKernels::Custom);   // vLLM has no such rule
    EXPECT_TRUE(selectEngine(QStringLiteral("tensorrt-llm"))
                    .value()
                    .profile->customAllReduceSource.contains(u"--use_custom_all_reduce"));
    // Over PCIe with peer access 0.8 and 0.9 ran their kernels too (engines built with them failed without peer
    // access instead of falling back, NVIDIA/TensorRT-LLM#1374, #1499); from 0.10 the NVLink test sends it to NCCL,
    // and no custom kernel runs without peer access.
    auto overPcie = [](const char* engine, const char* id) {
        return selectEngine(QString::fromLatin1(engine)).value().allReduceKernels(link(id), 4);
    };
    EXPECT_EQ(overPcie("tensorrt-llm@0.8.0", "pcie4"), AllReduceKernels::Custom);
    EXPECT_EQ(overPcie("tensorrt-llm@0.9.0", "pcie4"), AllReduceKernels::Custom);
    EXPECT_EQ(overPcie("tensorrt-llm@0.7.1", "pcie4"), AllReduceKernels::Nccl);
    EXPECT_EQ(overPcie("tensorrt-llm@0.10.0", "pcie4"), AllReduceKernels::Nccl);
    EXPECT_EQ(overPcie("tensorrt-llm", "pcie4"), AllReduceKernels::Nccl);
    EXPECT_EQ(overPcie("tensorrt-llm@0.9.0", "pcie4-host"), AllReduceKernels::Nccl);

    // The same Falcon 180B first token on eight H100s, as 0.5.0 and as 0.8.0 run it: NCCL's ring of 14 hops costs
    // the older one more.
    InferenceRequest request;
    request.modelId = QStringLiteral("falcon-180b");
    request.gpuId = QStringLiteral("h100-sxm");
    request.weights = NumberFormat::Fp8;
    request.kv = NumberFormat::Fp8;
    request.gpus = 8;
    request.prompt = 128;
    request.context = 128;
    auto ttft = [&](const char* engine) {
        request.engine = QString::fromLatin1(engine);
        const Result<InferenceConfig> config = resolveInference(request);
        EXPECT_TRUE(config.ok()) << engine;
        return config.ok() ? test::prepared(config.value()).prefill(1, 128).seconds : 0.0;
    };
    EXPECT_GT(ttft("tensorrt-llm@0.5.0"), ttft("tensorrt-llm@0.8.0"));
}

TEST(AllReduce, BatchOneDecodeOverPcieSpendsLessOnCollectivesWithCustomKernels)
{
    // Llama 2 70B on four L40S at batch 1: 160 all-reduces of 16 KB per step.
    const GpuSpec g = test::gpu("l40s");
    InferenceConfig c = test::config(test::model("llama-2-70b"), g, 1, 1024);
    c.tensorParallel = 4;
    c.link = link("pcie4");
    c.efficiency = EngineTerms::measured();
    const StepCost nccl = test::prepared(c).decodeStep(1, 1024);
    c.allReduce = AllReduceKernels::Custom;
    const StepCost custom = test::prepared(c).decodeStep(1, 1024);
    std::printf("70B TP 4 PCIe batch 1: all-reduces %.2f ms (NCCL) vs %.2f ms (custom), step %.2f vs %.2f ms\n",
                1e3 * nccl.commSeconds, 1e3 * custom.commSeconds, 1e3 * nccl.seconds, 1e3 * custom.seconds);
    EXPECT_NEAR(nccl.commSeconds, 160 * ringAllReduceSeconds(c.link, 4, 8192 * 2.0), 1e-12);
    EXPECT_NEAR(custom.commSeconds, 160 * seconds(AllReduceAlgorithm::OneShot, c.link, 4, 8192 * 2.0), 1e-12);
    EXPECT_LT(custom.commSeconds, 0.3 * nccl.commSeconds);
}
