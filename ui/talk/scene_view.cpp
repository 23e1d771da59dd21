#include "ui/talk/scene_view.h"

#include "core/model/catalog/catalog.h"
#include "core/model/roofline.h"
#include "core/model/units.h"
#include "core/scene/scene_facts.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/calibration_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/chart/roofline_chart.h"
#include "ui/chart/serving_scene_chart.h"
#include "ui/chart/step_breakdown_bar.h"
#include "ui/panels/batching_panel.h"
#include "ui/plots/roofline/scene_content.h"
#include "ui/talk/link_bars.h"
#include "ui/talk/training_slides.h"
#include "ui/widgets/log_slider.h"
#include "ui/widgets/text_block.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

// Design pixels; x1.5 on a 1080p screen: title 45 px, caption 30 px, counter 21 px.
constexpr int kTitlePx = 30;
constexpr int kCaptionPx = 20;
constexpr int kCounterPx = 14;
constexpr int kMessagePx = 22;

bool isKind(const Scene& scene, const char* kind)
{
    return scene.kind == QLatin1String(kind);
}

// The batch a fraction t of the way from `from` to `to` on a log scale: every doubling gets the same time.
std::int64_t logBatch(std::int64_t from, std::int64_t to, double t)
{
    const double value = std::exp(std::log(static_cast<double>(from)) +
                                  t * (std::log(static_cast<double>(to)) - std::log(static_cast<double>(from))));
    return std::clamp(static_cast<std::int64_t>(std::llround(value)), from, to);
}

}  // namespace

std::optional<TalkLook> TalkLook::parse(const QString& name)
{
    const QString lower = name.trimmed().toLower();
    if (lower.isEmpty() || lower == QLatin1String("talk") || lower == QLatin1String("dark"))
        return TalkLook{ThemeKind::Dark};
    if (lower == QLatin1String("light"))
        return TalkLook{ThemeKind::Light};
    return std::nullopt;
}

double SceneView::scaleFor(QSize size)
{
    if (!size.isValid() || size.isEmpty())
        return 1.0;
    return std::min(static_cast<double>(size.width()) / kTalkDesignWidth,
                    static_cast<double>(size.height()) / kTalkDesignHeight);
}

QSize SceneView::designSize(QSize size)
{
    if (!size.isValid() || size.isEmpty())
        return {};
    const double scale = scaleFor(size);
    return {std::max(kTalkDesignWidth, static_cast<int>(std::lround(size.width() / scale))),
            std::max(kTalkDesignHeight, static_cast<int>(std::lround(size.height() / scale)))};
}

SceneView::SceneView(const Scene& scene, const Session* session, TalkLook look, QWidget* parent)
    : QWidget(parent), m_scene(scene), m_look(look), m_facts(computeSceneFacts(scene, session))
{
    setObjectName(QStringLiteral("SceneView"));
    if (session)
        m_session = *session;

    const ChartTheme theme = ChartTheme::make(look.theme);
    QPalette p = palette();
    p.setColor(QPalette::Window, theme.background);
    p.setColor(QPalette::WindowText, theme.text);
    setPalette(p);
    setAutoFillBackground(true);

    m_title = new QLabel(scene.title, this);
    m_title->setObjectName(QStringLiteral("SceneTitle"));
    m_title->setFont(pixelFont(kTitlePx, true));
    m_title->setWordWrap(true);  // a long title takes two lines rather than widening the slide

    m_counter = new QLabel(this);
    m_counter->setObjectName(QStringLiteral("SceneCounter"));
    m_counter->setFont(pixelFont(kCounterPx));
    m_counter->setAlignment(Qt::AlignRight | Qt::AlignTop);
    QPalette muted = m_counter->palette();
    muted.setColor(QPalette::WindowText, theme.mutedText);
    m_counter->setPalette(muted);
    m_counter->hide();

    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_title, 1);
    header->addWidget(m_counter, 0, Qt::AlignTop);

    QWidget* content = nullptr;
    const bool needsSession = isKind(scene, "ridge") || isKind(scene, "cpu-experiment") || isKind(scene, "fusion");
    if (needsSession && !session)
        content =
            createMessage(tr("This scene shows this machine's own measurements.\n"
                             "Open a session or measure this machine, then present again."));
    else if (isKind(scene, "serving-trade") || isKind(scene, "serving-cost"))
        content = createServing();
    else if (isKind(scene, "training-moves") || isKind(scene, "training-hierarchy"))
        content = m_facts.ok() ? (m_trainingSlide = new TrainingSlide(scene, look.theme, this))
                               : createMessage(m_facts.error().message);
    else if (scene.view == QLatin1String("batching"))
        content = createBatching();
    else
        content = createRoofline();

    m_caption = new QLabel(captionText(), this);
    m_caption->setObjectName(QStringLiteral("SceneCaption"));
    m_caption->setFont(pixelFont(kCaptionPx));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setMinimumHeight(2 * QFontMetrics(m_caption->font()).lineSpacing());
    if (!m_facts.ok() || !m_offScale.isEmpty()) {
        QPalette warn = m_caption->palette();
        warn.setColor(QPalette::WindowText, theme.highlight);
        m_caption->setPalette(warn);
    }

    // A slide is exactly its design size: without a minimum of its own, the layout's minimum (taken while the
    // view still had its default width, the text wrapping into more lines) grew the window past 720 design pixels,
    // and an exported slide lost its caption under the bottom edge.
    setMinimumSize(1, 1);
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(28, 16, 28, 14);
    root->setSpacing(8);
    root->addLayout(header);
    root->addWidget(content, 1);
    root->addWidget(m_caption);
}

SceneView::~SceneView() = default;

QString SceneView::captionText() const
{
    if (!m_facts.ok())
        return m_facts.error().message;
    return m_offScale.isEmpty() ? m_facts.value().caption : m_facts.value().caption + u'\n' + m_offScale;
}

QString SceneView::titleText() const
{
    return m_title->text();
}

void SceneView::setPosition(int index, int total)
{
    m_counter->setText(QStringLiteral("%1 / %2").arg(index + 1).arg(total));
    m_counter->setVisible(total > 0);
}

QWidget* SceneView::createMessage(const QString& text)
{
    auto* label = new QLabel(text, this);
    label->setObjectName(QStringLiteral("SceneMessage"));
    label->setFont(pixelFont(kMessagePx));
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    return label;
}

QWidget* SceneView::createRoofline()
{
    m_chart = new RooflineChart(this);
    m_chart->setFocusPolicy(Qt::NoFocus);
    m_chart->setMinimumSize(320, 200);
    ChartOptions options;
    options.theme = m_look.theme;
    options.ridgeMarker = true;
    options.shadeRegions = isKind(m_scene, "ridge") || isKind(m_scene, "intensity-table");
    options.errorBars = false;
    m_chart->setOptions(options);

    const std::optional<NamedRoof> gpu = gpuRoofOf(m_scene);
    const Result<IntensityTable> table =
        isKind(m_scene, "intensity-table") ? intensityTableFor(m_scene) : Result<IntensityTable>(Error{});
    if (table) {
        // The GPU is the machine here: its roof is the primary one, so the ridge (150) is marked.
        m_chart->setSessions({intensityTableSession(table.value())});
    } else {
        if (gpu)
            m_chart->setExtraRoofs({*gpu});
        if (m_session) {
            Session shown = *m_session;
            if (!m_scene.highlight.isEmpty())
                shown.kernels = highlightedKernels(m_scene, *m_session);
            else if (isKind(m_scene, "ridge"))
                shown.kernels = twoKindsKernels(*m_session);
            m_chart->setSessions({shown});
            for (const QString& kind : m_scene.hiddenKinds)
                m_chart->setKernelKindVisible(kind, false);
        }
    }
    m_chart->setVisibleRange(sceneRange(m_scene));
    return m_chart;
}

QWidget* SceneView::createBatching()
{
    m_panel = new BatchingPanel(this);
    m_panel->setStackWhenNarrow(false);  // a slide is designed side by side, whatever its pixel size
    m_panel->setFocusPolicy(Qt::NoFocus);
    m_panel->setTheme(m_look.theme);
    // The same question the caption's numbers answer (scene_facts.h), so slide and caption cannot drift apart.
    const InferenceRequest inputs = inferenceRequestFor(m_scene);
    m_panel->setInputs(inputs);
    // The panel keeps batch and context on its sliders' scales; a scene outside them shows other numbers
    // than its caption, which a speaker must see before going on stage: the slide says so under the caption.
    const InferenceRequest shown = m_panel->inputs();
    if (shown.context != inputs.context || shown.batch != inputs.batch) {
        m_offScale = QStringLiteral(
                         "The chart shows batch %1 at %2 tokens of context, where the panel's scales end; "
                         "the caption is for batch %3 at %4 tokens.")
                         .arg(formatGrouped(shown.batch), formatGrouped(shown.context), formatGrouped(inputs.batch),
                              formatGrouped(inputs.context));
        qWarning("Scene \"%s\": %s", qPrintable(m_scene.id), qPrintable(m_offScale));
    }
    if (m_session)
        m_panel->setSession(*m_session);
    else
        m_panel->clearSession();

    // A slide shows the charts, not the controls: hide the control column (the batch slider's ancestor
    // that is a direct child of the panel), the detail line under the headline (the caption says it), this
    // CPU's curve (no scene talks about it) and whatever chart the scene's claim does not need.
    for (QWidget* w = m_panel->batchSlider(); w; w = w->parentWidget()) {
        if (w->parentWidget() == m_panel) {
            w->hide();
            break;
        }
    }
    const QList<TextBlock*> blocks = m_panel->findChildren<TextBlock*>(Qt::FindDirectChildrenOnly);
    for (TextBlock* block : blocks)
        if (block->text() == m_panel->detailText() ||
            (isKind(m_scene, "tensor-parallel") && block->text() == m_panel->headlineText()))
            block->hide();
    m_panel->cpuChart()->hide();
    m_panel->breakdownBar()->hide();  // no scene's caption speaks of these two
    m_panel->calibrationChart()->hide();
    const bool oneToken = isKind(m_scene, "one-token");
    const bool batching = isKind(m_scene, "batching");
    const bool kvCache = isKind(m_scene, "kv-cache");
    const bool tensorParallel = isKind(m_scene, "tensor-parallel");
    m_panel->throughputChart()->setVisible(!oneToken);
    m_panel->rooflineChart()->setVisible(oneToken || batching);
    m_panel->memoryBar()->setVisible(oneToken || kvCache);
    // A hidden chart's row or column keeps its stretch in the panel's grid: give the space to what is shown.
    const QList<QGridLayout*> grids = m_panel->findChildren<QGridLayout*>();
    for (QGridLayout* grid : grids) {
        if (grid->indexOf(m_panel->throughputChart()) < 0)
            continue;
        auto stretchOf = [grid](QWidget* w, bool row) {
            int r = 0, c = 0, rs = 0, cs = 0;
            grid->getItemPosition(grid->indexOf(w), &r, &c, &rs, &cs);
            return row ? r : c;
        };
        grid->setRowStretch(stretchOf(m_panel->cpuChart(), true), 0);
        if (!m_panel->throughputChart()->isVisibleTo(m_panel))
            grid->setColumnStretch(stretchOf(m_panel->throughputChart(), false), 0);
        if (!m_panel->rooflineChart()->isVisibleTo(m_panel))
            grid->setColumnStretch(stretchOf(m_panel->rooflineChart(), false), 0);
    }

    if (isKind(m_scene, "batching") && !m_scene.batches.empty()) {
        m_animationFrom = std::max<std::int64_t>(1, m_scene.batches.front());
        m_animationTo = m_scene.batches.back();
    } else if (isKind(m_scene, "kv-cache") && m_scene.batch > 1) {
        m_animationFrom = 1;
        m_animationTo = m_scene.batch;
    }
    if (!tensorParallel || !m_facts.ok())
        return m_panel;
    // Inside the box vs across boxes: one bar per link beside the NVLink throughput curve.
    auto* both = new QWidget(this);
    auto* row = new QHBoxLayout(both);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(24);
    m_panel->setParent(both);
    row->addWidget(m_panel, 3);
    m_linkBars = new LinkBars(m_scene, m_facts.value(), m_look.theme, both);
    row->addWidget(m_linkBars, 2);
    return both;
}

// The serving scenes' curve, from the same sweep as the caption (servingSweepOf).
QWidget* SceneView::createServing()
{
    const Result<ServingSweep> sweep = servingSweepOf(m_scene);
    if (!sweep)
        return createMessage(sweep.error().message);
    m_servingChart = new ServingSceneChart(this);
    m_servingChart->setFocusPolicy(Qt::NoFocus);
    m_servingChart->setMinimumSize(320, 200);
    m_servingChart->setTheme(m_look.theme);
    m_servingChart->setData(isKind(m_scene, "serving-trade") ? servingTradeChartData(sweep.value())
                                                             : servingCostChartData(sweep.value()));
    return m_servingChart;
}

void SceneView::applyBatch(std::int64_t batch)
{
    if (m_panel && m_panel->inputs().batch != batch)
        m_panel->setBatch(batch);
}

void SceneView::enter()
{
    if (!hasAnimation() || !m_panel)
        return;
    finishAnimation();
    auto* animation = new QVariantAnimation(this);
    animation->setStartValue(0.0);
    animation->setEndValue(1.0);
    animation->setDuration(kTalkAnimationMs);
    animation->setEasingCurve(QEasingCurve::InOutSine);
    connect(animation, &QVariantAnimation::valueChanged, this,
            [this](const QVariant& t) { applyBatch(logBatch(m_animationFrom, m_animationTo, t.toDouble())); });
    connect(animation, &QVariantAnimation::finished, this, [this] {
        applyBatch(m_animationTo);
        emit animationFinished();
    });
    m_animation = animation;
    applyBatch(m_animationFrom);
    animation->start(QAbstractAnimation::DeleteWhenStopped);
}

void SceneView::finishAnimation()
{
    if (animating()) {
        // Stopping does not emit finished(): jump to the end state here.
        m_animation->stop();
        applyBatch(m_animationTo);
        emit animationFinished();
    }
}

bool SceneView::animating() const
{
    return m_animation && m_animation->state() == QAbstractAnimation::Running;
}

}  // namespace ridgeline::ui
