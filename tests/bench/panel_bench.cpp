// One slider step of the batching explorer and of the Training tab: recompute plus redraw, target
// at most 5 ms median.
// The panel is shown offscreen at slide size (1920x1080) with a session loaded, as a speaker would use it.
//
//   BM_BatchSliderStep       the batch slider moves one step; the model is re-evaluated, the charts updated
//                            and the event loop run until the window is repainted: what a user waits for.
//   BM_FrontierSliderStep    the batch step with the frontier in the throughput chart's slot: the curve is evaluated
//                            again (one latency per batch) and the ring moved.
//   BM_FrontierTargetsStep   the same with TTFT and ITL targets and a GPU-hour price set: the points are marked and
//                            costed, the best named, the slow side shaded, the current point's cost written.
//   BM_ContextSliderStep     the same for context, which reshapes every curve and re-ranges the axes.
//   BM_BatchStepFullRender   the batch step followed by a full render of the whole panel into an image:
//                            the upper bound, every pixel of all four charts repainted.
//   BM_ScenarioOnly          the computation alone (model, curves, packing), no widgets.
//   BM_TrainingSequenceStep  the Training tab's sequence slider moves one step: the training step, its memory and
//                            its cheapest fix are recomputed and the tab repainted, offscreen at 1920x1080.
//   BM_TrainingViewOnly      that computation alone (core report, fix search, texts), no widgets.
//
// Run: QT_QPA_PLATFORM=offscreen build/.../tests/bench/ridgeline_panel_bench (set here when unset).

#include "core/session/format/session_json.h"
#include "ui/chart/frontier_chart.h"
#include "ui/panels/batching_panel.h"
#include "ui/panels/training_controls.h"
#include "ui/panels/training_panel.h"
#include "ui/widgets/log_slider.h"

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QSlider>

#include <benchmark/benchmark.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

constexpr int kRepetitions = 9;

// Deliver everything pending: the scene's batched updates, the view's repaint, the backing-store flush.
void settle()
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

struct ShownPanel {
    BatchingPanel panel;

    ShownPanel()
    {
        const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
        if (session)
            panel.setSession(session.value());
        InferenceRequest in;
        in.modelId = QStringLiteral("llama-2-7b");
        in.gpuId = QStringLiteral("a100-40gb-sxm");
        in.batch = 16;
        in.context = 8192;
        panel.setInputs(in);
        panel.resize(1920, 1080);
        panel.show();
        settle();
    }
};

// Moves a slider back and forth over its whole range, one step per call, like a dragging hand.
class Sweep {
public:
    explicit Sweep(QSlider* slider) : m_slider(slider) {}
    void next()
    {
        if (m_slider->value() >= m_slider->maximum())
            m_direction = -1;
        else if (m_slider->value() <= m_slider->minimum())
            m_direction = 1;
        m_slider->setValue(m_slider->value() + m_direction);
    }

private:
    QSlider* m_slider;
    int m_direction = 1;
};

// One step of a sweep and the repaint after it. scripts/step-instructions counts instructions inside this function
// only, so that setting up the panel is never counted with the steps.
[[gnu::noinline]] void takeStep(Sweep& sweep)
{
    sweep.next();
    settle();
}

// Steps taken before the timed ones: the first steps after the window is shown fill Qt's glyph and pixmap caches,
// which a hand dragging a slider pays once.
void warmUp(Sweep& sweep)
{
    for (int i = 0; i < 8; ++i) {
        sweep.next();
        settle();
    }
}

void BM_BatchSliderStep(benchmark::State& state)
{
    ShownPanel shown;
    Sweep sweep(shown.panel.batchSlider()->slider());
    warmUp(sweep);
    for (auto _ : state) {
        takeStep(sweep);
        benchmark::DoNotOptimize(shown.panel.scenario().report.tokensPerSecond);
    }
    state.counters["steps"] = static_cast<double>(shown.panel.batchSlider()->steps().size());
}
BENCHMARK(BM_BatchSliderStep)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_FrontierSliderStep(benchmark::State& state)
{
    ShownPanel shown;
    shown.panel.showFrontier(true);
    settle();
    Sweep sweep(shown.panel.batchSlider()->slider());
    warmUp(sweep);
    for (auto _ : state) {
        takeStep(sweep);
        benchmark::DoNotOptimize(shown.panel.scenario().report.tokensPerSecond);
    }
}
BENCHMARK(BM_FrontierSliderStep)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_FrontierTargetsStep(benchmark::State& state)
{
    ShownPanel shown;
    shown.panel.showFrontier(true);
    FrontierSettings settings;
    settings.targets.ttftSeconds = 2.0;
    settings.targets.itlSeconds = 0.03;
    settings.gpuHourPrice = 2.5;
    shown.panel.setFrontierSettings(settings);
    settle();
    Sweep sweep(shown.panel.batchSlider()->slider());
    warmUp(sweep);
    for (auto _ : state) {
        takeStep(sweep);
        benchmark::DoNotOptimize(shown.panel.scenario().report.tokensPerSecond);
    }
    state.counters["meeting"] = 0;
    for (const bool meets : shown.panel.frontierChart()->data().meets)
        state.counters["meeting"] += meets ? 1 : 0;
}
BENCHMARK(BM_FrontierTargetsStep)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_ContextSliderStep(benchmark::State& state)
{
    ShownPanel shown;
    Sweep sweep(shown.panel.contextSlider()->slider());
    warmUp(sweep);
    for (auto _ : state) {
        takeStep(sweep);
        benchmark::DoNotOptimize(shown.panel.scenario().report.tokensPerSecond);
    }
}
BENCHMARK(BM_ContextSliderStep)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_BatchStepFullRender(benchmark::State& state)
{
    ShownPanel shown;
    Sweep sweep(shown.panel.batchSlider()->slider());
    QImage image(shown.panel.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        sweep.next();
        {
            QPainter painter(&image);
            shown.panel.render(&painter);
        }
        benchmark::DoNotOptimize(image.constBits());
    }
}
BENCHMARK(BM_BatchStepFullRender)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_ScenarioOnly(benchmark::State& state)
{
    InferenceRequest in;
    in.modelId = QStringLiteral("llama-2-7b");
    in.gpuId = QStringLiteral("a100-40gb-sxm");
    in.context = 8192;
    std::int64_t batch = 1;
    for (auto _ : state) {
        in.batch = batch;
        batch = batch % 4096 + 1;
        benchmark::DoNotOptimize(computeBatchingScenario(in));
    }
}
BENCHMARK(BM_ScenarioOnly)->Unit(benchmark::kMicrosecond)->Repetitions(kRepetitions);

// The slider sweeps the sequence of a configuration that does not fit on one card (fp32, one GPU), so that every step
// also searches the cheapest fix, the tab's most expensive path.
void BM_TrainingSequenceStep(benchmark::State& state)
{
    TrainingPanel panel;
    TrainingRequest request;
    request.precision = PrecisionPolicy::Fp32;
    request.gpusPerNode = 1;
    request.globalBatch = 8;
    panel.setRequest(request);
    panel.resize(1920, 1080);
    panel.show();
    settle();
    Sweep sweep(panel.controls()->sequence()->slider());
    warmUp(sweep);
    for (auto _ : state) {
        takeStep(sweep);
        benchmark::DoNotOptimize(panel.view()->report.tokensPerSecond);
    }
    state.counters["fits"] = panel.view()->fits ? 1 : 0;
}
BENCHMARK(BM_TrainingSequenceStep)->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(kRepetitions);

void BM_TrainingViewOnly(benchmark::State& state)
{
    TrainingRequest request;
    request.precision = PrecisionPolicy::Fp32;
    request.gpusPerNode = 1;
    request.globalBatch = 8;
    std::int64_t sequence = 128;
    for (auto _ : state) {
        request.sequence = sequence;
        sequence = sequence % 65536 + 128;
        benchmark::DoNotOptimize(computeTrainingView(request));
    }
}
BENCHMARK(BM_TrainingViewOnly)->Unit(benchmark::kMicrosecond)->Repetitions(kRepetitions);

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
