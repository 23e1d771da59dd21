// Talk mode: scene views built from the default deck, the presentation window's keys, and the
// deck export (PDF pages, one PNG or SVG per scene at the asked size).

#include "batching_input_util.h"
#include "core/model/units.h"
#include "core/scene/deck.h"
#include "core/scene/scene_facts.h"
#include "core/scene/training_scene.h"
#include "core/session/format/session_json.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/frontier_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/chart/roofline_chart.h"
#include "ui/chart/serving_scene_chart.h"
#include "ui/chart/training_bar.h"
#include "ui/chart/training_hierarchy.h"
#include "ui/panels/batching_panel.h"
#include "ui/plots/training/training_geometry.h"
#include "ui/talk/deck_export.h"
#include "ui/talk/link_bars.h"
#include "ui/talk/presentation_window.h"
#include "ui/talk/scene_view.h"
#include "ui/talk/speaker_view.h"
#include "ui/talk/training_slides.h"
#include "ui/widgets/log_slider.h"
#include "ui_test_util.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

using ui::PresentationWindow;
using ui::SceneView;

Session exampleSession()
{
    Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    EXPECT_TRUE(session.ok()) << (session.ok() ? "" : session.error().message.toStdString());
    return session.ok() ? session.value() : Session{};
}

Deck builtInDeck()
{
    Result<Deck> deck = defaultDeck();
    EXPECT_TRUE(deck.ok()) << (deck.ok() ? "" : deck.error().message.toStdString());
    return deck.ok() ? deck.value() : Deck{};
}

const Scene* sceneOfKind(const Deck& deck, const char* kind)
{
    for (const Scene& s : deck.scenes)
        if (s.kind == QLatin1String(kind))
            return &s;
    return nullptr;
}

QString shownCaption(const SceneView& view)
{
    const auto* label = view.findChild<QLabel*>(QStringLiteral("SceneCaption"));
    return label ? label->text() : QString();
}

int pdfPageCount(const QByteArray& pdf)
{
    // Page objects, not the /Pages tree node.
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s])"));
    int count = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next())
        ++count;
    return count;
}

TEST(UiTalkScene, TheDefaultDeckYieldsTwelveSceneViews)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    PresentationWindow window(deck, &session);
    ASSERT_EQ(window.sceneCount(), 12);
    for (int i = 0; i < 12; ++i) {
        SceneView* view = window.sceneView(i);
        ASSERT_NE(view, nullptr) << i;
        EXPECT_EQ(view->scene().id, deck.scenes[static_cast<std::size_t>(i)].id);
        EXPECT_EQ(view->titleText(), deck.scenes[static_cast<std::size_t>(i)].title);
        const bool roofline = view->scene().view == QLatin1String("roofline");
        const bool serving = view->scene().kind.startsWith(QLatin1String("serving-"));
        const bool training = view->scene().view == QLatin1String("training");
        EXPECT_EQ(view->rooflineChart() != nullptr, roofline) << i;
        EXPECT_EQ(view->batchingPanel() != nullptr, !roofline && !serving && !training) << i;
        EXPECT_EQ(view->trainingSlide() != nullptr, training) << i;
        EXPECT_EQ(view->servingChart() != nullptr, serving) << i;
    }
    EXPECT_EQ(window.currentScene(), 0);
}

TEST(UiTalkScene, EachCaptionIsTheOneComputedFromTheModelAndTheMeasurement)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    for (const Scene& scene : deck.scenes) {
        const SceneView view(scene, &session);
        const Result<SceneFacts> facts = computeSceneFacts(scene, &session);
        ASSERT_TRUE(facts.ok()) << scene.id.toStdString() << ": " << facts.error().message.toStdString();
        EXPECT_FALSE(view.failed()) << scene.id.toStdString();
        EXPECT_EQ(view.captionText(), facts.value().caption);
        EXPECT_EQ(shownCaption(view), facts.value().caption);
        EXPECT_FALSE(shownCaption(view).contains(QLatin1String("nan"), Qt::CaseInsensitive));
        EXPECT_FALSE(shownCaption(view).contains(QLatin1Char('{'))) << shownCaption(view).toStdString();
    }
}

TEST(UiTalkScene, TheCaptionsShowTheSourceTextsNumbers)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    auto caption = [&](const char* kind) {
        const Scene* scene = sceneOfKind(deck, kind);
        EXPECT_NE(scene, nullptr) << kind;
        return scene ? SceneView(*scene, &session).captionText() : QString();
    };
    const QString table = caption("intensity-table");
    EXPECT_TRUE(table.contains(QLatin1String("0.17"))) << table.toStdString();
    EXPECT_TRUE(table.contains(QLatin1String("171"))) << table.toStdString();
    EXPECT_TRUE(table.contains(QLatin1String("1,365"))) << table.toStdString();
    EXPECT_TRUE(table.contains(QLatin1String("150 FLOP/byte"))) << table.toStdString();
    const QString oneToken = caption("one-token");
    EXPECT_TRUE(oneToken.contains(QLatin1String("13.5 GB"))) << oneToken.toStdString();
    EXPECT_TRUE(oneToken.contains(QLatin1String("intensity of 1 FLOP/byte"))) << oneToken.toStdString();
    EXPECT_TRUE(oneToken.contains(QLatin1String("99.3 %"))) << oneToken.toStdString();  // "more than 99 per cent"
    // The batching table: same step time up to 16, flattening at 256.
    const QString batching = caption("batching");
    EXPECT_TRUE(batching.contains(QLatin1String("1.04x as long"))) << batching.toStdString();
    EXPECT_TRUE(batching.contains(QLatin1String("15x the tokens/s"))) << batching.toStdString();
    EXPECT_TRUE(batching.contains(QLatin1String("compute-bound"))) << batching.toStdString();
    EXPECT_TRUE(batching.contains(QLatin1String("not 256x"))) << batching.toStdString();
    const QString kv = caption("kv-cache");
    EXPECT_TRUE(kv.contains(QLatin1String("64 GiB"))) << kv.toStdString();
    EXPECT_TRUE(kv.contains(QLatin1String("12.6 GiB"))) << kv.toStdString();
    EXPECT_TRUE(kv.contains(QLatin1String("4 GiB each"))) << kv.toStdString();
    const QString fusion = caption("fusion");
    EXPECT_TRUE(fusion.contains(QLatin1String("Unfused: 6"))) << fusion.toStdString();
    EXPECT_TRUE(fusion.contains(QLatin1String("fused: 1"))) << fusion.toStdString();
    EXPECT_TRUE(fusion.contains(QLatin1String("83 %"))) << fusion.toStdString();
}

TEST(UiTalkScene, WithoutASessionTheMeasuredScenesAskForOneAndTheOthersStillShowTheirNumbers)
{
    const Deck deck = builtInDeck();
    for (const Scene& scene : deck.scenes) {
        const SceneView view(scene, nullptr);
        const bool measured = scene.kind == QLatin1String("ridge") || scene.kind == QLatin1String("cpu-experiment") ||
                              scene.kind == QLatin1String("fusion");
        EXPECT_EQ(view.failed(), measured) << scene.id.toStdString();
        if (measured) {
            EXPECT_TRUE(shownCaption(view).contains(QLatin1String("open or measure a session first")))
                << shownCaption(view).toStdString();
        }
        EXPECT_FALSE(shownCaption(view).isEmpty());
        EXPECT_FALSE(shownCaption(view).contains(QLatin1String("nan"), Qt::CaseInsensitive));
    }
}

TEST(UiTalkScene, WithoutASessionTheFirstSlideSaysWhatToDoInPlaceOfTheChart)
{
    const Deck deck = builtInDeck();
    ASSERT_FALSE(deck.scenes.empty());
    const SceneView view(deck.scenes.front(), nullptr);
    EXPECT_EQ(view.rooflineChart(), nullptr);
    const auto* message = view.findChild<QLabel*>(QStringLiteral("SceneMessage"));
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->text().contains(QLatin1String("Open a session or measure this machine")))
        << message->text().toStdString();
    EXPECT_TRUE(shownCaption(view).contains(QLatin1String("open or measure a session first")));
    const QImage slide = ui::renderSceneImage(deck.scenes.front(), nullptr, QSize(1920, 1080));
    EXPECT_EQ(slide.size(), QSize(1920, 1080));
    slide.save(fixtures::outputPath(QStringLiteral("talk-no-session.png")));
}

TEST(UiTalkScene, ASceneWhoseFactsFailShowsTheErrorInsteadOfTheCaption)
{
    Scene scene;
    scene.id = QStringLiteral("broken");
    scene.kind = QStringLiteral("one-token");
    scene.view = QStringLiteral("batching");
    scene.title = QStringLiteral("A model nobody has");
    scene.modelId = QStringLiteral("no-such-model");
    scene.caption = QStringLiteral("{weights_gb}");
    SceneView view(scene, nullptr);
    fixtures::layoutNow(view, SceneView::designSize(QSize(1920, 1080)));
    EXPECT_TRUE(view.failed());
    EXPECT_TRUE(shownCaption(view).contains(QLatin1String("no-such-model"))) << shownCaption(view).toStdString();
    EXPECT_FALSE(shownCaption(view).contains(QLatin1String("{weights_gb}")));
    EXPECT_FALSE(shownCaption(view).contains(QLatin1String("nan"), Qt::CaseInsensitive));
}

TEST(UiTalkScene, TheIntensityTablePutsAddAndMatmulOnTheGpusRoof)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "intensity-table");
    ASSERT_NE(scene, nullptr);
    const SceneView view(*scene, nullptr);
    ASSERT_NE(view.rooflineChart(), nullptr);
    const auto& sessions = view.rooflineChart()->sessions();
    ASSERT_EQ(sessions.size(), 1u);
    const Session& table = sessions.front();
    ASSERT_EQ(table.kernels.size(), 3u);
    ASSERT_EQ(table.computeCeilings.size(), 1u);
    ASSERT_EQ(table.bandwidthCeilings.size(), 1u);
    EXPECT_DOUBLE_EQ(table.computeCeilings[0].gflops, 300e3);
    EXPECT_DOUBLE_EQ(table.bandwidthCeilings[0].gbps, 2e3);
    EXPECT_NEAR(table.kernels[0].intensity, 1.0 / 6.0, 1e-9);
    EXPECT_NEAR(table.kernels[1].intensity, 512.0 / 3.0, 1e-9);
    EXPECT_NEAR(table.kernels[2].intensity, 4096.0 / 3.0, 1e-9);
    // On the roof: memory-bound add at intensity x 2 TB/s, the matmuls at or near the 300 TFLOP/s peak.
    EXPECT_NEAR(table.kernels[0].gflops, 2e3 / 6.0, 1e-6);
    EXPECT_NEAR(table.kernels[1].gflops, 300e3, 1e-6);
    EXPECT_NEAR(table.kernels[2].gflops, 300e3, 1e-6);
    EXPECT_EQ(view.rooflineChart()->kernelPointCount(), 3);
}

// The serving slides draw the sweep their captions quote: each point at the model's numbers, each named with them,
// every name inside the plot and clear of the others; the slides at a laptop's size to look at.
TEST(UiTalkScene, TheServingScenesDrawTheSweepTheirCaptionsQuote)
{
    const Deck deck = builtInDeck();
    for (const char* kind : {"serving-trade", "serving-cost"}) {
        const Scene* scene = sceneOfKind(deck, kind);
        ASSERT_NE(scene, nullptr) << kind;
        SceneView view(*scene, nullptr);
        fixtures::layoutNow(view, SceneView::designSize(QSize(1280, 800)));
        ASSERT_FALSE(view.failed()) << view.captionText().toStdString();
        ui::ServingSceneChart* chart = view.servingChart();
        ASSERT_NE(chart, nullptr) << kind;
        const ServingSweep sweep = servingSweepOf(*scene).value();
        const SceneFacts facts = view.facts().value();
        const bool trade = QLatin1String(kind) == QLatin1String("serving-trade");
        ASSERT_EQ(chart->data().points.size(), scene->batches.size());
        const QStringList texts = chart->texts();
        for (std::size_t i = 0; i < sweep.points.size(); ++i) {
            const FrontierPoint& p = sweep.points[i];
            const QString b = QString::number(p.batch);
            EXPECT_EQ(p.batch, scene->batches[i]);
            const QPointF drawn = chart->data().points[i];
            if (trade) {
                EXPECT_DOUBLE_EQ(drawn.x(), *facts.value(QStringLiteral("ttft_") + b));
                EXPECT_DOUBLE_EQ(drawn.y(), *facts.value(QStringLiteral("tokens_s_gpu_") + b));
                EXPECT_TRUE(
                    texts.contains(QStringLiteral("B = %1: %2 tok/s, %3")
                                       .arg(b, formatGrouped(drawn.y()), facts.text(QStringLiteral("ttft_") + b))))
                    << b.toStdString() << ": " << texts.join(u'|').toStdString();
            } else {
                EXPECT_DOUBLE_EQ(drawn.x(), static_cast<double>(p.batch));
                EXPECT_DOUBLE_EQ(drawn.y(), *facts.value(QStringLiteral("cost_") + b));
                EXPECT_TRUE(
                    texts.contains(QStringLiteral("B = %1: %2").arg(b, facts.text(QStringLiteral("cost_") + b))))
                    << b.toStdString() << ": " << texts.join(u'|').toStdString();
            }
        }
        const std::vector<QRectF> boxes = chart->textRects();
        EXPECT_EQ(boxes.size(), scene->batches.size());
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            EXPECT_TRUE(chart->plotRect().contains(boxes[i])) << kind << " " << i;
            for (std::size_t j = 0; j < i; ++j)
                EXPECT_FALSE(boxes[i].intersects(boxes[j])) << kind << " " << i << " over " << j;
        }
        EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty());
        ui::renderSceneImage(*scene, nullptr, QSize(1280, 800))
            .save(fixtures::outputPath(QStringLiteral("talk-%1-1280x800.png").arg(scene->id)));
    }
}

TEST(UiTalkScene, TheFusionSceneShowsTheTwoFusionKernels)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    const Scene* scene = sceneOfKind(deck, "fusion");
    ASSERT_NE(scene, nullptr);
    const SceneView view(*scene, &session);
    ASSERT_NE(view.rooflineChart(), nullptr);
    const auto& kernels = view.rooflineChart()->sessions().front().kernels;
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].kind, QStringLiteral("fusion-unfused"));
    EXPECT_EQ(kernels[1].kind, QStringLiteral("fusion-fused"));
}

TEST(UiTalkScene, TheCpuExperimentShowsTheHighlightedKernelsOnThisMachinesRoof)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    const Scene* scene = sceneOfKind(deck, "cpu-experiment");
    ASSERT_NE(scene, nullptr);
    const SceneView view(*scene, &session);
    ASSERT_NE(view.rooflineChart(), nullptr);
    const Session& shown = view.rooflineChart()->sessions().front();
    ASSERT_EQ(static_cast<qsizetype>(shown.kernels.size()), scene->highlight.size());
    for (std::size_t i = 0; i < shown.kernels.size(); ++i)
        EXPECT_EQ(shown.kernels[i].name, scene->highlight[static_cast<qsizetype>(i)]);
    EXPECT_EQ(shown.computeCeilings.size(), session.computeCeilings.size());
}

TEST(UiTalkScene, BatchSizeFillsTheMachineAnimatesTheBatchFromOneTo256)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "batching");
    ASSERT_NE(scene, nullptr);
    SceneView view(*scene, nullptr);
    ASSERT_NE(view.batchingPanel(), nullptr);
    // Built in its end state (what an export shows).
    EXPECT_EQ(view.batchingPanel()->inputs().batch, 256);
    ASSERT_TRUE(view.hasAnimation());

    std::vector<std::int64_t> seen;
    QObject::connect(view.batchingPanel(), &ui::BatchingPanel::scenarioChanged, &view,
                     [&] { seen.push_back(view.batchingPanel()->inputs().batch); });
    QSignalSpy finished(&view, &SceneView::animationFinished);
    view.enter();
    EXPECT_TRUE(view.animating());
    ASSERT_TRUE(finished.wait(30000));
    EXPECT_FALSE(view.animating());
    ASSERT_GE(seen.size(), 3u);
    EXPECT_EQ(seen.front(), 1);
    EXPECT_EQ(seen.back(), 256);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(view.batchingPanel()->inputs().batch, 256);
}

TEST(UiTalkScene, TheKvCacheSceneGrowsTheBatchToSixteenAndJumpsToTheEndWhenAsked)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "kv-cache");
    ASSERT_NE(scene, nullptr);
    SceneView view(*scene, nullptr);
    ASSERT_NE(view.batchingPanel(), nullptr);
    EXPECT_EQ(view.batchingPanel()->inputs().batch, 16);
    EXPECT_EQ(view.batchingPanel()->inputs().context, 8192);
    QSignalSpy finished(&view, &SceneView::animationFinished);
    view.enter();
    EXPECT_EQ(view.batchingPanel()->inputs().batch, 1);
    view.finishAnimation();
    EXPECT_EQ(finished.count(), 1);
    EXPECT_FALSE(view.animating());
    EXPECT_EQ(view.batchingPanel()->inputs().batch, 16);
}

// A deck may ask for more than the batching panel's scales hold (batch up to 65,536): the chart then shows another
// batch than the caption counts, and the slide itself says so, in the caption's warning colour.
TEST(UiTalkScene, ABatchOffThePanelsScaleIsSaidOnTheSlide)
{
    const Deck deck = builtInDeck();
    const Scene* kvScene = sceneOfKind(deck, "kv-cache");
    ASSERT_NE(kvScene, nullptr);
    const SceneView onScale(*kvScene, nullptr);
    const auto* onScaleLabel = onScale.findChild<QLabel*>(QStringLiteral("SceneCaption"));
    ASSERT_NE(onScaleLabel, nullptr);

    Scene scene = *kvScene;
    scene.batch = 65536;
    SceneView view(scene, nullptr);
    fixtures::layoutNow(view, SceneView::designSize(QSize(1280, 800)));
    ASSERT_FALSE(view.failed()) << view.captionText().toStdString();
    ASSERT_NE(view.batchingPanel(), nullptr);
    const std::int64_t shown = view.batchingPanel()->inputs().batch;
    ASSERT_LT(shown, 65536);
    const QString caption = shownCaption(view);
    EXPECT_TRUE(caption.startsWith(view.facts().value().caption)) << caption.toStdString();
    EXPECT_TRUE(caption.contains(QStringLiteral("The chart shows batch ") + formatGrouped(shown)))
        << caption.toStdString();
    EXPECT_TRUE(caption.contains(QStringLiteral("the caption is for batch 65,536"))) << caption.toStdString();
    const auto* label = view.findChild<QLabel*>(QStringLiteral("SceneCaption"));
    ASSERT_NE(label, nullptr);
    EXPECT_NE(label->palette().color(QPalette::WindowText), onScaleLabel->palette().color(QPalette::WindowText));
    EXPECT_EQ(shownCaption(onScale), onScale.facts().value().caption) << "a scene on the scales has no note";
}

TEST(UiTalkScene, BatchingSlidesShowTheChartsTheirClaimNeedsAndNoControls)
{
    const Deck deck = builtInDeck();
    struct Expected {
        const char* kind;
        bool throughput;
        bool roofline;
        bool memory;
    };
    const Expected slides[] = {{"one-token", false, true, true},
                               {"batching", true, true, false},
                               {"kv-cache", true, false, true},
                               {"tensor-parallel", true, false, false}};
    for (const Expected& e : slides) {
        const Scene* scene = sceneOfKind(deck, e.kind);
        ASSERT_NE(scene, nullptr) << e.kind;
        SceneView view(*scene, nullptr);
        fixtures::layoutNow(view, SceneView::designSize(QSize(1920, 1080)));
        ui::BatchingPanel* panel = view.batchingPanel();
        ASSERT_NE(panel, nullptr);
        EXPECT_FALSE(panel->batchSlider()->isVisible()) << e.kind;
        EXPECT_FALSE(panel->cpuChart()->isVisible()) << e.kind;
        EXPECT_FALSE(panel->frontierChart()->isVisible()) << e.kind;  // no caption speaks of it yet
        EXPECT_EQ(panel->throughputChart()->isVisible(), e.throughput) << e.kind;
        EXPECT_EQ(panel->rooflineChart()->isVisible(), e.roofline) << e.kind;
        EXPECT_EQ(panel->memoryBar()->isVisible(), e.memory) << e.kind;
        // A slide keeps its charts side by side: the window's narrow-screen stacking never applies.
        EXPECT_FALSE(panel->chartsStacked()) << e.kind;
        if (e.throughput && e.roofline) {
            EXPECT_EQ(panel->rooflineChart()->y(), panel->throughputChart()->y()) << e.kind;
        }
        // What is shown gets the room: the charts fill most of the slide's height.
        if (e.roofline) {
            EXPECT_GT(panel->rooflineChart()->height(), 300) << e.kind;
        }
        // Nothing a slide shows is cut short: the custom GPU's roofline read "Custom GPU (300 TFLOP/s, 2 TB/s,
        // 80 GiB) ..." as its title; it now drops the numbers its roof label already says.
        for (const QChartView* chart :
             std::initializer_list<const QChartView*>{panel->throughputChart(), panel->rooflineChart()}) {
            if (chart->isVisible()) {
                EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty())
                    << e.kind << ": " << fixtures::truncated(fixtures::sceneTexts(chart)).join(u'|').toStdString();
            }
        }
    }
}

// Every slide is exactly its design size and its caption is whole inside it: the "one token" and "KV cache"
// slides grew to 1280x769 design pixels, and their exported pictures cut the caption off at the bottom.
TEST(UiTalkScene, EverySlideKeepsItsSizeAndItsWholeCaption)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    const QSize design = SceneView::designSize(QSize(1920, 1080));
    for (const Scene& scene : deck.scenes) {
        SceneView view(scene, &session);
        fixtures::layoutNow(view, design);
        EXPECT_EQ(view.size(), design) << scene.kind.toStdString();
        const QLabel* caption = view.findChild<QLabel*>(QStringLiteral("SceneCaption"));
        ASSERT_NE(caption, nullptr);
        EXPECT_LE(caption->geometry().bottom(), view.height()) << scene.kind.toStdString();
        EXPECT_GE(caption->height(), caption->heightForWidth(caption->width())) << scene.kind.toStdString();
    }
}

TEST(UiTalkScene, TheTensorParallelSceneUsesEightH100sOverNvlink)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "tensor-parallel");
    ASSERT_NE(scene, nullptr);
    const SceneView view(*scene, nullptr);
    ASSERT_NE(view.batchingPanel(), nullptr);
    const InferenceRequest& inputs = view.batchingPanel()->inputs();
    EXPECT_EQ(inputs.gpuId, QStringLiteral("h100-sxm"));
    EXPECT_EQ(inputs.gpus, 8);
    EXPECT_EQ(inputs.linkId, scene->links.first());
    EXPECT_EQ(inputs.modelId, QStringLiteral("llama-2-70b"));
    EXPECT_EQ(inputs.batch, 64);
    EXPECT_TRUE(view.batchingPanel()->errorText().isEmpty()) << view.batchingPanel()->errorText().toStdString();

    // One bar per link, the caption's numbers: inside the box beats the network.
    ASSERT_NE(view.linkBars(), nullptr);
    const auto& bars = view.linkBars()->bars();
    ASSERT_EQ(static_cast<qsizetype>(bars.size()), scene->links.size());
    for (const auto& bar : bars)
        EXPECT_TRUE(view.captionText().contains(bar.value)) << bar.value.toStdString();
    EXPECT_TRUE(bars.front().insideBox);
    EXPECT_FALSE(bars.back().insideBox);
    EXPECT_GT(bars.front().tokensPerSecond, bars.back().tokensPerSecond);
}

// The parts of a training slide in the slide's coordinates: side by side or one above another, never over each other
// nor over the caption, each as tall as it asks (a bar's legend is not clipped), no word cut short.
void expectTrainingSlideClear(const SceneView& view, const QString& where)
{
    const ui::TrainingSlide* slide = view.trainingSlide();
    ASSERT_NE(slide, nullptr) << where.toStdString();
    std::vector<QRect> boxes;
    for (const ui::TrainingBar* bar : slide->bars()) {
        EXPECT_GE(bar->height(), bar->minimumSizeHint().height()) << where.toStdString();
        EXPECT_FALSE(bar->isCut()) << where.toStdString() << ": " << bar->texts().join(u'|').toStdString();
        boxes.emplace_back(bar->mapTo(&view, QPoint(0, 0)), bar->size());
    }
    for (const ui::TrainingHierarchy* hierarchy : slide->hierarchies()) {
        EXPECT_GE(hierarchy->height(), hierarchy->minimumSizeHint().height()) << where.toStdString();
        EXPECT_FALSE(hierarchy->isCut()) << where.toStdString() << ": " << hierarchy->texts().join(u'|').toStdString();
        boxes.emplace_back(hierarchy->mapTo(&view, QPoint(0, 0)), hierarchy->size());
    }
    const auto* caption = view.findChild<QLabel*>(QStringLiteral("SceneCaption"));
    ASSERT_NE(caption, nullptr);
    const auto* title = view.findChild<QLabel*>(QStringLiteral("SceneTitle"));
    ASSERT_NE(title, nullptr);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_TRUE(view.rect().contains(boxes[i])) << where.toStdString() << " " << i;
        EXPECT_FALSE(boxes[i].intersects(caption->geometry()))
            << where.toStdString() << " " << i << " over the caption";
        EXPECT_FALSE(boxes[i].intersects(title->geometry())) << where.toStdString() << " " << i << " over the title";
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(boxes[i].intersects(boxes[j])) << where.toStdString() << " " << i << " over " << j;
    }
}

// One memory bar per stage, the stage's own numbers, all on one scale against the card's 80 GiB.
TEST(UiTalkScene, TheCheapMovesSlideDrawsOneBarPerMoveOnOneScale)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "training-moves");
    ASSERT_NE(scene, nullptr);
    const std::vector<TrainingStage> stages = trainingMovesOf(*scene).value();
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 800)}) {
        SceneView view(*scene, nullptr, ui::TalkLook{ui::ThemeKind::Dark});
        fixtures::layoutNow(view, SceneView::designSize(size));
        ASSERT_FALSE(view.failed()) << view.captionText().toStdString();
        ASSERT_NE(view.trainingSlide(), nullptr);
        const std::vector<ui::TrainingBar*>& bars = view.trainingSlide()->bars();
        ASSERT_EQ(bars.size(), stages.size());
        const SceneFacts& facts = view.facts().value();
        double longest = 0;
        for (const TrainingStage& stage : stages)
            longest = std::max(longest, stage.report.memory.onCard());
        for (std::size_t i = 0; i < bars.size(); ++i) {
            const ui::StackBarData& data = bars[i]->data();
            EXPECT_EQ(data.title, stages[i].label);
            EXPECT_DOUBLE_EQ(data.total(), stages[i].report.memory.onCard());
            EXPECT_DOUBLE_EQ(data.capacity, 80.0 * 1024 * 1024 * 1024);
            EXPECT_DOUBLE_EQ(data.scale, longest);
        }
        // The caption's first and last totals are the first and last bars' statuses.
        EXPECT_TRUE(bars.front()->data().status.contains(facts.text(QStringLiteral("memory_start"))));
        EXPECT_TRUE(bars.back()->data().status.contains(facts.text(QStringLiteral("memory_checkpointing"))));
        // On one scale the first bar is the longest and each move's bar shorter than the one above it.
        for (std::size_t i = 1; i < bars.size(); ++i)
            EXPECT_LT(bars[i]->partRect(ui::TrainingPart::Activations).right(),
                      bars[i - 1]->partRect(ui::TrainingPart::Activations).right())
                << i;
        expectTrainingSlideClear(view, QStringLiteral("moves %1x%2").arg(size.width()).arg(size.height()));
        ui::renderSceneImage(*scene, nullptr, size)
            .save(fixtures::outputPath(
                QStringLiteral("talk-%1-%2x%3.png").arg(scene->id).arg(size.width()).arg(size.height())));
    }
}

// The same tensor-parallel group inside one box and across two: each machine with its collective in its link's
// colour, and the two steps' time bars on one scale, their communication the caption's share.
TEST(UiTalkScene, TheHierarchySlideDrawsTheSameGroupInsideAndAcrossBoxes)
{
    const Deck deck = builtInDeck();
    const Scene* scene = sceneOfKind(deck, "training-hierarchy");
    ASSERT_NE(scene, nullptr);
    const std::vector<TrainingStage> stages = trainingHierarchyOf(*scene).value();
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 800)}) {
        SceneView view(*scene, nullptr, ui::TalkLook{ui::ThemeKind::Dark});
        fixtures::layoutNow(view, SceneView::designSize(size));
        ASSERT_FALSE(view.failed()) << view.captionText().toStdString();
        ASSERT_NE(view.trainingSlide(), nullptr);
        const auto& hierarchies = view.trainingSlide()->hierarchies();
        const auto& bars = view.trainingSlide()->bars();
        ASSERT_EQ(hierarchies.size(), 2u);
        ASSERT_EQ(bars.size(), 2u);
        const ui::ChartTheme theme = ui::ChartTheme::make(ui::ThemeKind::Dark);
        EXPECT_EQ(hierarchies[0]->data().nodes, 1);
        EXPECT_EQ(hierarchies[1]->data().nodes, 2);
        EXPECT_EQ(hierarchies[0]->rowColor(0), ui::trainingLinkColor(false, theme));
        EXPECT_EQ(hierarchies[1]->rowColor(0), ui::trainingLinkColor(true, theme));
        const SceneFacts& facts = view.facts().value();
        const char* keys[] = {"comm_percent_inside", "comm_percent_across"};
        for (std::size_t i = 0; i < 2; ++i) {
            const ui::StackBarData& time = bars[i]->data();
            EXPECT_DOUBLE_EQ(time.total(), stages[i].report.time.total());
            EXPECT_DOUBLE_EQ(time.scale, stages[1].report.time.total());
            double communication = 0;
            for (const ui::StackPart& part : time.parts)
                if (part.part == ui::TrainingPart::Communication)
                    communication = part.value;
            EXPECT_NEAR(100.0 * communication / time.total(), *facts.value(QLatin1String(keys[i])), 1e-9);
            EXPECT_TRUE(hierarchies[i]->texts().contains(
                QStringLiteral("inside a node: %1: %2 each way")
                    .arg(facts.text(QStringLiteral("inside_link")), facts.text(QStringLiteral("inside_gbs")))));
        }
        // Across the boxes the same step is longer: its bar reaches further on the shared scale.
        ASSERT_EQ(bars[0]->width(), bars[1]->width());
        EXPECT_GT(bars[1]->partRect(ui::TrainingPart::Communication).right(),
                  bars[0]->partRect(ui::TrainingPart::Communication).right() + 10.0);
        expectTrainingSlideClear(view, QStringLiteral("hierarchy %1x%2").arg(size.width()).arg(size.height()));
        ui::renderSceneImage(*scene, nullptr, size)
            .save(fixtures::outputPath(
                QStringLiteral("talk-%1-%2x%3.png").arg(scene->id).arg(size.width()).arg(size.height())));
    }
}

TEST(UiTalkPresentation, KeysStepJumpAndLeave)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    PresentationWindow window(deck, &session);
    window.resize(1280, 720);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QSignalSpy changed(&window, &PresentationWindow::sceneChanged);
    QSignalSpy finished(&window, &PresentationWindow::finished);

    const std::vector<std::pair<int, int>> steps = {
        {Qt::Key_PageDown, 1}, {Qt::Key_Space, 2}, {Qt::Key_Right, 3},  {Qt::Key_PageUp, 2}, {Qt::Key_Left, 1},
        {Qt::Key_5, 4},        {Qt::Key_End, 11},  {Qt::Key_Right, 11}, {Qt::Key_Home, 0},   {Qt::Key_Left, 0},
        {Qt::Key_8, 7},        {Qt::Key_1, 0},     {Qt::Key_9, 8},      {Qt::Key_9, 8},
    };
    for (const auto& [key, expected] : steps) {
        QTest::keyClick(&window, static_cast<Qt::Key>(key));
        EXPECT_EQ(window.currentScene(), expected) << "after key " << QKeySequence(key).toString().toStdString();
    }
    // Only real moves are announced: End at the end, Left at the start and 9 on the ninth scene are not.
    EXPECT_EQ(changed.count(), 11);
    EXPECT_EQ(changed.last().at(0).toInt(), 8);

    const auto* counter = window.currentView()->findChild<QLabel*>(QStringLiteral("SceneCounter"));
    ASSERT_NE(counter, nullptr);
    EXPECT_EQ(counter->text(), QStringLiteral("9 / 12"));

    EXPECT_EQ(finished.count(), 0);
    QTest::keyClick(&window, Qt::Key_Escape);
    EXPECT_EQ(finished.count(), 1);
    EXPECT_FALSE(window.isVisible());
}

// The speaker view follows the slides (number, title, notes filled with the scene's numbers, the next title) and
// its keys drive them; Restart Clock reads 0:00; Esc there ends the talk in both windows.
TEST(UiTalkPresentation, TheSpeakerViewFollowsAndDrivesTheSlides)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    PresentationWindow window(deck, &session);
    window.resize(1280, 720);
    window.show();
    ui::SpeakerView speaker(&window);
    speaker.resize(960, 600);
    speaker.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&speaker));

    const auto expectScene = [&](int index) {
        const SceneView* view = window.sceneView(index);
        ASSERT_NE(view, nullptr);
        EXPECT_EQ(speaker.positionText(), QStringLiteral("Slide %1 of 12").arg(index + 1));
        EXPECT_EQ(speaker.titleText(), view->titleText());
        ASSERT_TRUE(view->facts().ok());
        EXPECT_EQ(speaker.notesText(), view->facts().value().notes);
        EXPECT_FALSE(speaker.notesText().isEmpty());
        const SceneView* next = window.sceneView(index + 1);
        EXPECT_EQ(speaker.nextText(),
                  next ? QStringLiteral("Next: ") + next->titleText() : QStringLiteral("Next: the end of the deck"));
    };
    expectScene(0);
    EXPECT_TRUE(speaker.notesText().contains(window.sceneView(0)->facts().value().text(QStringLiteral("ridge"))));
    fixtures::grabImage(speaker).save(fixtures::outputPath(QStringLiteral("speaker_view.png")));

    QTest::keyClick(&speaker, Qt::Key_Right);
    EXPECT_EQ(window.currentScene(), 1);
    expectScene(1);
    QTest::keyClick(&speaker, Qt::Key_5);
    EXPECT_EQ(window.currentScene(), 4);
    expectScene(4);
    QTest::keyClick(&window, Qt::Key_End);  // a key on stage moves the speaker view too
    expectScene(11);

    // The clock: minutes and seconds, hours once there are any; the button puts it back to 0:00.
    EXPECT_EQ(ui::SpeakerView::elapsedText(0), QStringLiteral("0:00"));
    EXPECT_EQ(ui::SpeakerView::elapsedText(7'900), QStringLiteral("0:07"));
    EXPECT_EQ(ui::SpeakerView::elapsedText(725'000), QStringLiteral("12:05"));
    EXPECT_EQ(ui::SpeakerView::elapsedText(3'723'000), QStringLiteral("1:02:03"));
    auto* restart = speaker.findChild<QPushButton*>();
    ASSERT_NE(restart, nullptr);
    QTest::mouseClick(restart, Qt::LeftButton, {}, restart->rect().center());
    EXPECT_EQ(speaker.clockText(), QStringLiteral("0:00"));

    QSignalSpy finished(&window, &PresentationWindow::finished);
    QTest::keyClick(&speaker, Qt::Key_Escape);
    EXPECT_EQ(finished.count(), 1);
    EXPECT_FALSE(window.isVisible());
    EXPECT_FALSE(speaker.isVisible());
}

TEST(UiTalkPresentation, TheNextSlideFadesInOverAQuarterSecond)
{
    const Deck deck = builtInDeck();
    PresentationWindow window(deck, nullptr);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_FALSE(window.transitioning());
    QSignalSpy faded(&window, &PresentationWindow::transitionFinished);
    QTest::keyClick(&window, Qt::Key_Right);
    EXPECT_EQ(window.currentScene(), 1);  // the new slide is current at once; the picture of the old one fades
    EXPECT_TRUE(window.transitioning());
    ASSERT_TRUE(faded.wait(30000));
    EXPECT_FALSE(window.transitioning());
    // A key during a fade cuts it short and starts the next one.
    QTest::keyClick(&window, Qt::Key_Right);
    QTest::keyClick(&window, Qt::Key_Right);
    EXPECT_EQ(faded.count(), 2);
    EXPECT_TRUE(window.transitioning());
    EXPECT_EQ(window.currentScene(), 3);
}

TEST(UiTalkPresentation, ALeftClickIsNextAndARightClickPrevious)
{
    const Deck deck = builtInDeck();
    PresentationWindow window(deck, nullptr);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::mouseClick(window.viewport(), Qt::LeftButton);
    EXPECT_EQ(window.currentScene(), 1);
    QTest::mouseClick(window.viewport(), Qt::LeftButton);
    EXPECT_EQ(window.currentScene(), 2);
    QTest::mouseClick(window.viewport(), Qt::RightButton);
    EXPECT_EQ(window.currentScene(), 1);
}

TEST(UiTalkPresentation, AnEmptyDeckShowsNothingAndTheKeysDoNothing)
{
    PresentationWindow window(Deck{}, nullptr);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.sceneCount(), 0);
    EXPECT_EQ(window.currentView(), nullptr);
    QTest::keyClick(&window, Qt::Key_PageDown);
    QTest::keyClick(&window, Qt::Key_End);
    EXPECT_EQ(window.currentScene(), -1);
    QTemporaryDir dir;
    EXPECT_TRUE(ui::exportDeckPdf(Deck{}, nullptr, dir.filePath(QStringLiteral("empty.pdf")), QSize(1920, 1080)));
}

TEST(UiTalkPresentation, EnteringTheBatchingSceneAnimatesAndLeavingItJumpsToTheEnd)
{
    const Deck deck = builtInDeck();
    PresentationWindow window(deck, nullptr);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    int batchingIndex = -1;
    for (int i = 0; i < window.sceneCount(); ++i)
        if (window.sceneView(i)->scene().kind == QLatin1String("batching"))
            batchingIndex = i;
    ASSERT_GE(batchingIndex, 0);
    window.setCurrentScene(batchingIndex);
    SceneView* view = window.currentView();
    EXPECT_TRUE(view->animating());
    QTest::keyClick(&window, Qt::Key_PageDown);
    EXPECT_FALSE(view->animating());
    EXPECT_EQ(view->batchingPanel()->inputs().batch, 256);
}

TEST(UiTalkPresentation, FullScreenScalesTheSlideToTheScreen)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    PresentationWindow window(deck, &session);
    window.present();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_TRUE(window.isFullScreen());
    const QSize screen = window.viewport()->size();
    EXPECT_EQ(window.currentView()->size(), SceneView::designSize(screen));
    EXPECT_GE(window.currentView()->width(), ui::kTalkDesignWidth);
    EXPECT_GE(window.currentView()->height(), ui::kTalkDesignHeight);
    // Scene 5 moves the batch from 1 to 256 as it enters; the screen shows its end state.
    SceneView* batching = window.sceneView(4);
    ASSERT_NE(batching, nullptr);
    QSignalSpy finished(batching, &SceneView::animationFinished);
    // Through the window system, as a keyboard or a clicker delivers it: to whatever has the focus.
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(window.windowHandle(), Qt::Key_5);
    EXPECT_EQ(window.currentScene(), 4);
    ASSERT_TRUE(finished.wait(30000));
    EXPECT_EQ(batching->batchingPanel()->inputs().batch, 256);
    window.grab().save(fixtures::outputPath(QStringLiteral("talk-presentation-window.png")));
    // A real screen (Xvfb): the root window as the audience sees it.
    if (QGuiApplication::platformName() == QLatin1String("xcb") && QGuiApplication::primaryScreen())
        QGuiApplication::primaryScreen()->grabWindow(0).save(fixtures::outputPath(QStringLiteral("talk-screen.png")));
    window.close();
}

TEST(UiTalkExport, ThePdfHasOnePagePerSceneAtTheAskedSize)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("talk.pdf"));
    const std::optional<Error> error = ui::exportDeckPdf(deck, &session, path, QSize(1920, 1080));
    ASSERT_FALSE(error) << error->message.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF"));
    EXPECT_EQ(pdfPageCount(pdf), 12);
    // 1920x1080 px at 96 px per inch is 1440 x 810 pt.
    static const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 1440(\\.0+)? 810(\\.0+)?\\]"));
    EXPECT_EQ(QString::fromLatin1(pdf).count(mediaBox), 12) << "not twelve 1440 x 810 pt pages";
    // Thousands of small images when the charts' pixmap caches leak into the page; a few dozen are the
    // batching charts' overlay labels, which ChartOverlay draws from images by design.
    EXPECT_LT(pdf.count("/Subtype /Image"), 200);
    QFile::remove(fixtures::outputPath(QStringLiteral("talk.pdf")));
    QFile::copy(path, fixtures::outputPath(QStringLiteral("talk.pdf")));
}

TEST(UiTalkExport, TheRooflineScenesAreAllVectorsInThePdf)
{
    Deck deck = builtInDeck();
    const Session session = exampleSession();
    std::erase_if(deck.scenes, [](const Scene& s) { return s.view != QLatin1String("roofline"); });
    ASSERT_EQ(deck.scenes.size(), 4u);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("roofline.pdf"));
    const std::optional<Error> error = ui::exportDeckPdf(deck, &session, path, QSize(1920, 1080));
    ASSERT_FALSE(error) << error->message.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_EQ(pdfPageCount(pdf), 4);
    // QWidget::render would draw each chart as hundreds of small images; the export draws its scene.
    EXPECT_EQ(pdf.count("/Subtype /Image"), 0);
    EXPECT_TRUE(pdf.contains("/Font"));
}

// The batching slides' chart labels go into the PDF as text, not as pictures of text.
TEST(UiTalkExport, TheBatchingScenesLabelsAreTextInThePdf)
{
    Deck deck = builtInDeck();
    std::erase_if(deck.scenes, [](const Scene& s) { return s.kind != QLatin1String("batching"); });
    ASSERT_EQ(deck.scenes.size(), 1u);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("batching.pdf"));
    const std::optional<Error> error = ui::exportDeckPdf(deck, nullptr, path, QSize(1920, 1080));
    ASSERT_FALSE(error) << error->message.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_EQ(pdf.count("/Subtype /Image"), 0) << "every label is drawn as text and outlines";
    EXPECT_TRUE(pdf.contains("/Font"));
}

TEST(UiTalkExport, OnePngPerSceneAtExactlyTheAskedSize)
{
    const Deck deck = builtInDeck();
    const Session session = exampleSession();
    for (const ui::TalkLook look : {ui::TalkLook{ui::ThemeKind::Dark}, ui::TalkLook{ui::ThemeKind::Light}}) {
        const QString dir = fixtures::outputPath(QStringLiteral("talk-") + ui::themeKindName(look.theme));
        QDir(dir).removeRecursively();
        QStringList written;
        const std::optional<Error> error =
            ui::exportDeckFiles(deck, &session, dir, ui::DeckFormat::Png, QSize(1920, 1080), look, &written);
        ASSERT_FALSE(error) << error->message.toStdString();
        ASSERT_EQ(written.size(), 12);
        EXPECT_TRUE(written.first().endsWith(QStringLiteral("/scene-01-two-kinds.png")))
            << written.first().toStdString();
        EXPECT_EQ(QDir(dir).entryList({QStringLiteral("*.png")}, QDir::Files).size(), 12);
        for (const QString& path : written) {
            const QImage image(path);
            ASSERT_FALSE(image.isNull()) << path.toStdString();
            EXPECT_EQ(image.size(), QSize(1920, 1080)) << path.toStdString();
        }
    }
}

TEST(UiTalkExport, OneSvgPerSceneAtAnotherSize)
{
    const Deck deck = builtInDeck();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QStringList written;
    const std::optional<Error> error =
        ui::exportDeckFiles(deck, nullptr, dir.path(), ui::DeckFormat::Svg, QSize(1280, 720), {}, &written);
    ASSERT_FALSE(error) << error->message.toStdString();
    ASSERT_EQ(written.size(), 12);
    for (const QString& path : written) {
        QSvgRenderer renderer(path);
        ASSERT_TRUE(renderer.isValid()) << path.toStdString();
        EXPECT_EQ(renderer.viewBox(), QRect(0, 0, 1280, 720)) << path.toStdString();
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        // Text stays text; the charts are images, since the SVG generator cannot clip their lines.
        EXPECT_TRUE(svg.contains("<text")) << path.toStdString();
        const bool measured = path.contains(QLatin1String("two-kinds")) ||
                              path.contains(QLatin1String("cpu-experiment")) || path.contains(QLatin1String("fusion"));
        // No session: a message, no chart. The training slides are painted bars, no chart: vectors throughout.
        const bool training = path.contains(QLatin1String("-training-"));
        EXPECT_EQ(svg.contains("<image"), !measured && !training) << path.toStdString();
    }
    // Qt's own SVG renderer reads the slide back, for a human to compare with the PNG.
    for (int i : {1, 3}) {
        QImage back(1280, 720, QImage::Format_RGB32);
        back.fill(Qt::white);
        QPainter painter(&back);
        QSvgRenderer(written.at(i)).render(&painter);
        painter.end();
        back.save(fixtures::outputPath(QStringLiteral("talk-svg-scene-%1.png").arg(i + 1)));
    }
}

TEST(UiTalkExport, SlidesScaleFromAtLeast1280By720DesignPixels)
{
    EXPECT_DOUBLE_EQ(SceneView::scaleFor(QSize(1920, 1080)), 1.5);
    EXPECT_EQ(SceneView::designSize(QSize(1920, 1080)), QSize(1280, 720));
    EXPECT_EQ(SceneView::designSize(QSize(3840, 2160)), QSize(1280, 720));
    // 4:3 gets more height, not less width; an ultrawide more width.
    EXPECT_EQ(SceneView::designSize(QSize(1024, 768)), QSize(1280, 960));
    EXPECT_EQ(SceneView::designSize(QSize(2560, 1080)), QSize(1707, 720));
}

TEST(UiTalkExport, ASizeTooSmallForASlideIsRefused)
{
    const Deck deck = builtInDeck();
    QTemporaryDir dir;
    const std::optional<Error> error =
        ui::exportDeckPdf(deck, nullptr, dir.filePath(QStringLiteral("tiny.pdf")), QSize(40, 30));
    ASSERT_TRUE(error);
    EXPECT_TRUE(error->message.contains(QLatin1String("40x30")));
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("tiny.pdf"))));
}

}  // namespace
}  // namespace ridgeline
