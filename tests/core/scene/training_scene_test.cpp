// The talk's training scenes: each number a caption shows is the training model's own for the stage the slide draws.
#include "core/scene/training_scene.h"

#include "core/model/training/training_fix.h"
#include "core/model/units.h"
#include "core/scene/deck.h"
#include "core/scene/scene_facts.h"
#include "core/session/format/session_json.h"
#include "core/session/mixed_precision.h"

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

Scene defaultScene(const char* id)
{
    const Result<Deck> deck = defaultDeck();
    EXPECT_TRUE(deck.ok()) << deck.error().message.toStdString();
    for (const Scene& scene : deck.value().scenes)
        if (scene.id == QLatin1String(id))
            return scene;
    ADD_FAILURE() << "no scene " << id;
    return {};
}

Session loaded(const char* file)
{
    const Result<Session> session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(file));
    EXPECT_TRUE(session.ok()) << session.error().message.toStdString();
    return session.ok() ? session.value() : Session{};
}

SceneFacts factsOf(const Scene& scene, const Session* session)
{
    const Result<SceneFacts> facts = computeSceneFacts(scene, session);
    EXPECT_TRUE(facts.ok()) << (facts.ok() ? "" : facts.error().message.toStdString());
    return facts.ok() ? facts.value() : SceneFacts{};
}

}  // namespace

// fp32 at micro-batch 4, then mixed precision, accumulation and full checkpointing, each on top of the one before:
// the cheapest-fix search's own moves, in its order, on one Llama 2 7B on one 80 GiB H100.
TEST(TrainingMovesScene, WalksTheCheapMovesInTheSourceTextsOrderOnOneCard)
{
    const Scene scene = defaultScene("training-moves");
    const Result<std::vector<TrainingStage>> result = trainingMovesOf(scene);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const std::vector<TrainingStage>& stages = result.value();
    ASSERT_EQ(stages.size(), 4u);
    EXPECT_EQ(stages[0].config.precision, PrecisionPolicy::Fp32);
    EXPECT_EQ(stages[0].config.microBatch, 4);
    EXPECT_EQ(stages[0].config.checkpointing, Checkpointing::None);
    EXPECT_EQ(stages[1].config.precision, PrecisionPolicy::Bf16Mixed);
    EXPECT_EQ(stages[2].config.microBatch, 1);
    EXPECT_EQ(stages[2].report.accumulationSteps, 4);
    EXPECT_EQ(stages[3].config.checkpointing, Checkpointing::Full);
    EXPECT_EQ(stages[1].label, QStringLiteral("+ bf16 mixed precision"));
    EXPECT_EQ(stages[3].label, QStringLiteral("+ full activation checkpointing"));
    for (const TrainingStage& stage : stages) {
        EXPECT_EQ(stage.config.gpus(), 1);
        EXPECT_EQ(stage.config.model.name, QStringLiteral("Llama 2 7B"));
        EXPECT_DOUBLE_EQ(stage.report.memory.capacity, 80.0 * kGiB);
    }
    // Each move shrinks the memory; Adam's 16 bytes per parameter stay whatever the precision.
    for (std::size_t i = 1; i < stages.size(); ++i)
        EXPECT_LT(stages[i].report.memory.total(), stages[i - 1].report.memory.total()) << i;
    const auto states = [](const TrainingMemory& m) { return m.weights + m.gradients + m.optimizer; };
    EXPECT_DOUBLE_EQ(states(stages[0].report.memory), states(stages[3].report.memory));
    EXPECT_FALSE(stages[3].report.memory.fits()) << "a 7B model's Adam states alone are over 80 GiB";
}

TEST(TrainingMovesScene, TheCaptionsNumbersAreTheStagesOwn)
{
    const Scene scene = defaultScene("training-moves");
    const std::vector<TrainingStage> stages = trainingMovesOf(scene).value();
    const SceneFacts f = factsOf(scene, nullptr);
    const TrainingReport& start = stages[0].report;
    const TrainingReport& mixed = stages[1].report;
    const TrainingReport& accumulation = stages[2].report;
    const TrainingReport& checkpointing = stages[3].report;
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("memory_start")), start.memory.onCard() / kGiB);
    EXPECT_EQ(f.text(QStringLiteral("memory_start")), formatMemory(start.memory.onCard()));
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("memory_checkpointing")), checkpointing.memory.onCard() / kGiB);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("activations_x_mixed")),
                     start.memory.activations / mixed.memory.activations);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("matmul_x_mixed")), start.time.matmul / mixed.time.matmul);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("accumulation_steps")), 4.0);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("recompute_percent")),
                     100.0 * checkpointing.recomputeFlops / checkpointing.modelFlops);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("step_x_checkpointing")),
                     checkpointing.time.total() / accumulation.time.total());
    // The source text's figures, as the model computes them: mixed precision about halves the activations and
    // doubles the matmuls (TF32 against bf16 tensor cores), checkpointing costs about a third more compute.
    EXPECT_NEAR(*f.value(QStringLiteral("activations_x_mixed")), 2.0, 0.3);
    EXPECT_GE(*f.value(QStringLiteral("matmul_x_mixed")), 2.0);
    EXPECT_NEAR(*f.value(QStringLiteral("recompute_percent")), 100.0 / 3.0, 2.0);
    EXPECT_EQ(f.text(QStringLiteral("verdict")), QStringLiteral("does not fit in the card's 80 GiB"));
    for (const char* key : {"memory_start", "memory_checkpointing", "activations_x_mixed", "matmul_x_mixed",
                            "recompute_percent", "states", "verdict", "global_batch"})
        EXPECT_TRUE(f.caption.contains(f.text(QLatin1String(key)))) << key << ": " << f.caption.toStdString();
}

// "Where measured, from this CPU": a session with a bf16 matrix product beside its sgemm puts this CPU's ratio in the
// caption; one without leaves that part out, brackets and all.
TEST(TrainingMovesScene, ThisCpusMixedPrecisionRatioAppearsWhereTheSessionMeasuredIt)
{
    const Scene scene = defaultScene("training-moves");
    const Session xeon = loaded("xeon-amx-2vcpu.json");
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(xeon);
    ASSERT_FALSE(pairs.empty());
    const auto largest = std::max_element(pairs.begin(), pairs.end(),
                                          [](const auto& a, const auto& b) { return a.bf16->flops < b.bf16->flops; });
    const SceneFacts measured = factsOf(scene, &xeon);
    EXPECT_DOUBLE_EQ(*measured.value(QStringLiteral("cpu_bf16_x")), largest->speedup());
    EXPECT_TRUE(measured.caption.contains(
        QStringLiteral(" (%1 on this CPU);").arg(measured.text(QStringLiteral("cpu_bf16_x")))))
        << measured.caption.toStdString();

    const Session older = loaded("example.json");
    ASSERT_TRUE(mixedPrecisionPairs(older).empty());
    for (const Session* session : {&older, static_cast<const Session*>(nullptr)}) {
        const SceneFacts plain = factsOf(scene, session);
        EXPECT_FALSE(plain.value(QStringLiteral("cpu_bf16_x")));
        EXPECT_FALSE(plain.caption.contains(QLatin1String("this CPU"))) << plain.caption.toStdString();
        EXPECT_FALSE(plain.caption.contains(u'[')) << plain.caption.toStdString();
        EXPECT_TRUE(plain.caption.contains(QLatin1String(" as fast; accumulation"))) << plain.caption.toStdString();
    }
}

TEST(TrainingHierarchyScene, TheSameTensorParallelGroupInsideABoxAndAcrossBoxes)
{
    const Scene scene = defaultScene("training-hierarchy");
    const Result<std::vector<TrainingStage>> result = trainingHierarchyOf(scene);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const std::vector<TrainingStage>& stages = result.value();
    ASSERT_EQ(stages.size(), 2u);
    const TrainingStage& inside = stages[0];
    const TrainingStage& across = stages[1];
    EXPECT_EQ(inside.config.tensorParallel, 8);
    EXPECT_EQ(across.config.tensorParallel, 8);
    EXPECT_EQ(inside.config.nodes, 1);
    EXPECT_EQ(inside.config.gpusPerNode, 8);
    EXPECT_EQ(across.config.nodes, 2);
    EXPECT_EQ(across.config.gpusPerNode, 4);
    ASSERT_EQ(inside.report.collectives.size(), 1u);
    ASSERT_EQ(across.report.collectives.size(), 1u);
    EXPECT_FALSE(inside.report.collectives[0].crossesNodes);
    EXPECT_TRUE(across.report.collectives[0].crossesNodes);
    // The same arithmetic on both sides of the boundary; only the link differs.
    EXPECT_DOUBLE_EQ(inside.report.time.compute(), across.report.time.compute());
    EXPECT_GT(across.report.time.communication, inside.report.time.communication);

    const SceneFacts f = factsOf(scene, nullptr);
    EXPECT_EQ(f.text(QStringLiteral("inside_link")), inside.config.link.name);
    EXPECT_EQ(f.text(QStringLiteral("across_link")), across.config.network.name);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("link_ratio")),
                     inside.config.link.gbPerSecPerDirection / across.config.network.gbPerSecPerDirection);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("link_ratio")), 450.0 / 50.0);  // NVLink 4 against InfiniBand NDR
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("comm_percent_inside")),
                     100.0 * inside.report.time.communication / inside.report.time.total());
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("comm_percent_across")),
                     100.0 * across.report.time.communication / across.report.time.total());
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("step_x_across")),
                     across.report.time.total() / inside.report.time.total());
    for (const char* key : {"tp", "boxes", "inside_link", "inside_gbs", "across_link", "link_ratio",
                            "comm_percent_inside", "comm_percent_across", "step_x_across"})
        EXPECT_TRUE(f.caption.contains(f.text(QLatin1String(key)))) << key << ": " << f.caption.toStdString();
}

TEST(TrainingHierarchyScene, ALayoutTheBoxesCannotHoldIsRefusedWithItsReason)
{
    Scene scene = defaultScene("training-hierarchy");
    scene.boxes = 3;
    Result<SceneFacts> facts = computeSceneFacts(scene, nullptr);
    ASSERT_FALSE(facts.ok());
    EXPECT_TRUE(facts.error().message.contains(QLatin1String("tensor_parallel 8 over 3 boxes")))
        << facts.error().message.toStdString();
    scene = defaultScene("training-hierarchy");
    scene.tensorParallel = 64;  // Llama 2 7B has 32 heads
    scene.boxes = 8;
    facts = computeSceneFacts(scene, nullptr);
    ASSERT_FALSE(facts.ok());
    EXPECT_TRUE(facts.error().message.contains(QLatin1String("32 attention heads")))
        << facts.error().message.toStdString();
    scene = defaultScene("training-moves");
    scene.globalBatch = 6;  // not a multiple of micro-batch 4
    facts = computeSceneFacts(scene, nullptr);
    ASSERT_FALSE(facts.ok());
    EXPECT_TRUE(facts.error().message.contains(QLatin1String("global_batch 6"))) << facts.error().message.toStdString();
}

// The cheap moves the scene walks are the cheapest-fix search's: one order, one home.
TEST(CheapMovesInOrder, AreTheFixesMovesAppliedWhetherOrNotTheyFit)
{
    const Scene scene = defaultScene("training-moves");
    const TrainingConfig start = trainingMovesOf(scene).value().front().config;
    const std::vector<TrainingMoveStep> steps = cheapMovesInOrder(start);
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].move, QStringLiteral("bf16 mixed precision"));
    EXPECT_EQ(steps[1].move, QStringLiteral("micro-batch 1 x 4 accumulation steps"));
    EXPECT_EQ(steps[2].move, QStringLiteral("full activation checkpointing"));
    const std::optional<TrainingFix> fix = cheapestFix(start);
    ASSERT_TRUE(fix);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(fix->moves.value(i), steps[static_cast<std::size_t>(i)].move) << i;
    // Already mixed, micro-batch 1 and fully checkpointed: no cheap move is left.
    EXPECT_TRUE(cheapMovesInOrder(steps.back().config).empty());
}
