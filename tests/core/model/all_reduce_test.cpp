// How the GPUs of a node all-reduce (core/model/catalog/links.h): NCCL's ring, the default, and the one-shot kernel
// engines dispatch for small messages, against a published measurement of both over PCIe.
#include "core/model/catalog/links.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace ridgeline;

TEST(AllReduce, OneShotAndRingOverPcieMatchPublishedLatencies)
{
    // haohervchb/sglang-V100 PR #2 (2026-09): four V100s behind one PCIe switch (PCIe 3), fp16, timed inside a
    // CUDA graph: NCCL 19.4 / 20.3 / 22.3 / 24.2 us and a one-shot push kernel 4.0 / 5.0 / 7.2 / 11.8 us at
    // 4 / 8 / 16 / 32 KB. The model's PCIe 3 link: 16 GB/s per direction, 3 us per hop.
    const LinkSpec pcie3 = findLink(u"pcie3").value();
    struct Measured {
        double kib, ncclUs, oneShotUs;
    };
    for (const Measured& m :
         {Measured{4, 19.4, 4.0}, Measured{8, 20.3, 5.0}, Measured{16, 22.3, 7.2}, Measured{32, 24.2, 11.8}}) {
        const double bytes = m.kib * 1024;
        const double ring = 1e6 * ringAllReduceSeconds(pcie3, 4, bytes);
        const double oneShot = 1e6 * allReduceSeconds(pcie3, pcie3, 4, 0, bytes, AllReduceAlgorithm::OneShot);
        std::printf("%4.0f KB: ring %5.1f us (NCCL %5.1f), one-shot %5.1f us (measured %5.1f)\n", m.kib, ring, m.ncclUs,
                    oneShot, m.oneShotUs);
        EXPECT_NEAR(ring / m.ncclUs, 1.0, 0.15) << m.kib;
        EXPECT_NEAR(oneShot / m.oneShotUs, 1.0, 0.25) << m.kib;
    }
}

TEST(AllReduce, OneShotOnlyWhereItIsFasterAndRingByDefault)
{
    const LinkSpec pcie4 = findLink(u"pcie4").value();
    const double small = 16e3, large = 64e6;
    EXPECT_DOUBLE_EQ(allReduceSeconds(pcie4, pcie4, 8, 0, small), ringAllReduceSeconds(pcie4, 8, small));
    EXPECT_DOUBLE_EQ(allReduceSeconds(pcie4, pcie4, 8, 0, small, AllReduceAlgorithm::OneShot),
                     oneShotAllReduceSeconds(pcie4, 8, small));
    EXPECT_LT(oneShotAllReduceSeconds(pcie4, 8, small), 0.2 * ringAllReduceSeconds(pcie4, 8, small));
    // A large message: each GPU would move 7 x the bytes over its link; the ring (2 x 7/8) is cheaper and is used.
    EXPECT_DOUBLE_EQ(allReduceSeconds(pcie4, pcie4, 8, 0, large, AllReduceAlgorithm::OneShot),
                     ringAllReduceSeconds(pcie4, 8, large));
    EXPECT_DOUBLE_EQ(oneShotAllReduceSeconds(pcie4, 1, small), 0.0);
    EXPECT_EQ(parseAllReduceAlgorithm(u"One-Shot"), AllReduceAlgorithm::OneShot);
    EXPECT_EQ(parseAllReduceAlgorithm(u"ring"), AllReduceAlgorithm::Ring);
    EXPECT_FALSE(parseAllReduceAlgorithm(u"tree").has_value());
}

TEST(AllReduce, BatchOneDecodeOverPcieSpendsLessOnCollectivesWithOneShot)
{
    // Llama 2 70B on four A100 PCIe cards at batch 1: 160 all-reduces of 16 KB per step.
    const GpuSpec g = test::gpu("a100-80gb-pcie");
    InferenceConfig c = test::config(test::model("llama-2-70b"), g, 1, 1024);
    c.tensorParallel = 4;
    c.link = findLink(u"pcie4").value();
    c.efficiency = EngineTerms::measured();
    const StepCost ring = test::prepared(c).decodeStep(1, 1024);
    c.allReduce = AllReduceAlgorithm::OneShot;
    const StepCost oneShot = test::prepared(c).decodeStep(1, 1024);
    std::printf("70B TP 4 PCIe batch 1: all-reduces %.2f ms (ring) vs %.2f ms (one-shot), step %.2f vs %.2f ms\n",
                1e3 * ring.commSeconds, 1e3 * oneShot.commSeconds, 1e3 * ring.seconds, 1e3 * oneShot.seconds);
    EXPECT_NEAR(ring.commSeconds, 160 * ringAllReduceSeconds(c.link, 4, 8192 * 2.0), 1e-12);
    EXPECT_NEAR(oneShot.commSeconds, 160 * oneShotAllReduceSeconds(c.link, 4, 8192 * 2.0), 1e-12);
    EXPECT_LT(oneShot.seconds, ring.seconds);
}
