#include "ui/panels/batching_panel.h"

#include "ui/widgets/accessible_text.h"

#include "core/bench/calibration/calibration_record_builder.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/calibration_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/frontier_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/chart/step_breakdown_bar.h"
#include "ui/panels/batching_catalog_actions.h"
#include "ui/panels/batching_controls.h"
#include "ui/plots/batching/batching_texts.h"
#include "ui/widgets/log_slider.h"
#include "ui/widgets/text_block.h"

#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace ridgeline::ui {

namespace {

constexpr int kControlsWidth = 420;
constexpr int kSideBySideWidth = 1500;  // narrower panels stack the two charts
// Stacked: two charts of 400 pixels, the memory bar and the step's breakdown under it, the CPU chart.
constexpr int kStackedMinimumHeight = 1650;

}  // namespace

BatchingPanel::BatchingPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("BatchingPanel"));
    m_inputs.batch = 16;
    m_inputs.context = 8192;
    setEngineChoice(m_inputs, kDefaultEngineChoice);  // what `ridgeline model` uses unless told otherwise

    // Painted text blocks: new numbers repaint them without relaying out the window (the details and warnings only
    // when the lines they need change).
    m_headline = new TextBlock(1, this);
    m_headline->setFont(pixelFont(24, true));
    // As many lines as the text needs at the panel's width (two at 1920 px, three at 1600), up to three.
    m_detail = new TextBlock(2, this);
    m_detail->setFont(pixelFont(17));
    m_detail->setGrowsUpTo(3);
    // Shown only when there is something to warn about; a line per warning that fits one, up to three.
    m_warnings = new TextBlock(1, this);
    m_warnings->setFont(pixelFont(17, true));
    m_warnings->setGrowsUpTo(3);
    m_warnings->hide();
    m_takeaway = new TextBlock(15, this);
    m_takeaway->setFont(pixelFont(17));
    m_takeaway->setTitle(tr("What the numbers say"));
    m_takeaway->setBullets(true);
    m_takeaway->setFramed(true);

    m_throughput = new BatchThroughputChart(this);
    m_roofline = new DecodeRooflineChart(this);
    m_memory = new MemoryBar(this);
    m_cpu = new CpuBatchingChart(this);
    m_breakdown = new StepBreakdownBar(this);
    m_calibrationChart = new CalibrationChart(this);
    m_calibrationChart->hide();  // until a session with a calibration comes
    // The frontier shares the throughput chart's slot: both are the tokens the batch buys, one against the batch,
    // one against each user's speed; a fifth chart, or a switch above the slot, would take the height the charts'
    // axis titles need at 1600 x 1000 and squash all four at 1280 x 800. The switch sits under the batch slider.
    m_frontier = new FrontierChart(this);
    m_frontier->hide();

    m_bars = new QHBoxLayout;
    m_bars->setSpacing(8);
    m_bars->addWidget(m_memory, 1);
    m_bars->addWidget(m_breakdown, 0, Qt::AlignTop);
    m_charts = new QGridLayout;
    m_charts->setSpacing(8);
    arrangeCharts(false);

    auto* right = new QVBoxLayout;
    right->setSpacing(4);
    right->addWidget(m_headline);
    right->addWidget(m_detail);
    right->addWidget(m_warnings);
    right->addLayout(m_charts, 1);

    auto* root = new QHBoxLayout(this);
    root->setContentsMargins(8, 8, 8, 8);
    root->setSpacing(12);
    root->addWidget(createControls());
    root->addLayout(right, 1);

    applyPalette();
    syncControls();
    recompute();
    nameFieldsAfterTheirLabels(*this);
}

BatchingPanel::~BatchingPanel() = default;

void BatchingPanel::arrangeCharts(bool stacked)
{
    // Side by side on a wide screen; on a laptop the two charts stack, each as wide as the panel, rather
    // than shrink until their labels no longer fit (the panel scrolls vertically). The last row is "measured
    // against the model": this CPU's decode curve or, chosen beside the controls, a calibration's series (one cell,
    // the hidden one takes no room).
    m_stacked = stacked;
    for (QWidget* widget :
         {static_cast<QWidget*>(m_throughput), static_cast<QWidget*>(m_frontier), static_cast<QWidget*>(m_roofline),
          static_cast<QWidget*>(m_cpu), static_cast<QWidget*>(m_calibrationChart)})
        m_charts->removeWidget(widget);
    m_charts->removeItem(m_bars);
    for (int row = 0; row < 4; ++row)
        m_charts->setRowStretch(row, 0);
    // Beside the memory bar when the charts are side by side; under it, left-aligned, when they stack.
    m_bars->setDirection(stacked ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    m_bars->setAlignment(m_breakdown, stacked ? Qt::AlignLeft : Qt::AlignTop);
    if (stacked) {
        m_charts->addWidget(m_throughput, 0, 0, 1, 2);
        m_charts->addWidget(m_frontier, 0, 0, 1, 2);
        m_charts->addWidget(m_roofline, 1, 0, 1, 2);
        m_charts->addLayout(m_bars, 2, 0, 1, 2);
        m_charts->addWidget(m_cpu, 3, 0, 1, 2);
        m_charts->addWidget(m_calibrationChart, 3, 0, 1, 2);
        m_charts->setRowStretch(0, 3);
        m_charts->setRowStretch(1, 3);
        m_charts->setRowStretch(3, 2);
        setMinimumHeight(kStackedMinimumHeight);
    } else {
        m_charts->addWidget(m_throughput, 0, 0);
        m_charts->addWidget(m_frontier, 0, 0);
        m_charts->addWidget(m_roofline, 0, 1);
        m_charts->addLayout(m_bars, 1, 0, 1, 2);
        m_charts->addWidget(m_cpu, 2, 0, 1, 2);
        m_charts->addWidget(m_calibrationChart, 2, 0, 1, 2);
        // The two charts above need the height for their vertical axis titles and five decades; the CPU's curve
        // spans two or three. At 1600 x 1000 this leaves it about 90 pixels, and the GPU roofline the height that
        // keeps its labels off its roofs.
        m_charts->setRowStretch(0, 8);
        m_charts->setRowStretch(2, 5);
    }
    m_charts->setColumnStretch(0, 1);
    m_charts->setColumnStretch(1, 1);
}

void BatchingPanel::setStackWhenNarrow(bool stack)
{
    m_stackWhenNarrow = stack;
    if (!stack && m_stacked) {
        arrangeCharts(false);
        setMinimumHeight(0);
    }
}

void BatchingPanel::resizeEvent(QResizeEvent* event)
{
    const bool stacked = m_stackWhenNarrow && event->size().width() < kSideBySideWidth;
    if (stacked != m_stacked) {
        // Stacked charts need more height: the scroll area around the panel learns it from here.
        arrangeCharts(stacked);
        if (!stacked)
            setMinimumHeight(0);
    }
    QWidget::resizeEvent(event);
}

// The controls and, under them, the takeaway box, in a column of fixed width that scrolls on its own: the
// charts keep the window's height however many controls there are.
QWidget* BatchingPanel::createControls()
{
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("BatchingControlsScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFixedWidth(kControlsWidth + scroll->verticalScrollBar()->sizeHint().width());
    auto* column = new QWidget(scroll);
    column->setFixedWidth(kControlsWidth);
    column->setFont(pixelFont(16));
    auto* layout = new QVBoxLayout(column);
    // The fixed width is a minimum size of the column's own, which keeps the layout from setting the minimum height
    // by default: without this the rows squash on top of each other instead of scrolling (Advanced open at 1000 px).
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    m_controls = new BatchingControls(column);
    // Long catalog names (a GPU's full name is 500 px) would widen the column past its width: the boxes elide.
    for (QComboBox* box : m_controls->findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    connect(m_controls, &BatchingControls::edited, this, [this](const InferenceRequest& request) {
        m_inputs = request;
        syncControls();
        recompute();
        if (m_inputs.engine != m_sessionEngine) {
            m_sessionEngine = m_inputs.engine;
            emit engineChanged(m_sessionEngine);
        }
    });
    layout->addWidget(m_controls);
    m_chartSwitch = new QTabBar(column);
    m_chartSwitch->setObjectName(QStringLiteral("batchingChartSwitch"));
    m_chartSwitch->setFont(pixelFont(15));
    m_chartSwitch->setDrawBase(false);
    m_chartSwitch->setExpanding(false);
    m_chartSwitch->addTab(tr("Throughput"));
    m_chartSwitch->setTabToolTip(0, tr("Tokens/s and step time against the batch"));
    m_chartSwitch->addTab(tr("Frontier"));
    m_chartSwitch->setTabToolTip(1, tr("Tokens/s per GPU against tokens/s per user (1 / ITL) over the batch, as "
                                       "serving benchmarks draw it"));
    m_controls->addDecodeStepRow(tr("Chart"), m_chartSwitch);
    connect(m_chartSwitch, &QTabBar::currentChanged, this, [this](int index) { showFrontier(index == 1); });
    layout->addWidget(createFrontierControls(column));
    layout->addWidget(createCalibrationGroup(column));
    layout->addWidget(m_takeaway);
    layout->addStretch(1);
    scroll->setWidget(column);
    m_catalogActions = new BatchingCatalogActions(
        this, {[this] { return inputs(); }, [this](const InferenceRequest& request) { setInputs(request); }},
        m_controls);
    return scroll;
}

void BatchingPanel::syncControls()
{
    // Batch, context and GPU count stay on their controls' scales; everything else goes to the model as is.
    m_inputs.batch = std::clamp(m_inputs.batch, kPanelMinBatch, kPanelMaxBatch);
    m_inputs.context = std::clamp(m_inputs.context, kPanelMinContext, kPanelMaxContext);
    m_inputs.gpus = panelGpuCount(m_inputs.gpus);
    m_controls->showRequest(m_inputs);
}

void BatchingPanel::setInputs(const InferenceRequest& inputs)
{
    m_inputs = inputs;
    syncControls();
    recompute();
}

void BatchingPanel::setBatch(std::int64_t batch)
{
    m_inputs.batch = batch;
    syncControls();
    recompute();
}

void BatchingPanel::setContext(std::int64_t context)
{
    m_inputs.context = context;
    syncControls();
    recompute();
}

void BatchingPanel::setModel(const QString& id)
{
    m_inputs.modelId = id;
    syncControls();
    recompute();
}

void BatchingPanel::setCustomModelParams(double params)
{
    m_inputs.modelId = kCustomId;
    m_inputs.customParams = params;
    syncControls();
    recompute();
}

void BatchingPanel::setWeightsFormat(NumberFormat format)
{
    m_inputs.weights = format;
    syncControls();
    recompute();
}

void BatchingPanel::setKvFormat(NumberFormat format)
{
    m_inputs.kv = format;
    syncControls();
    recompute();
}

void BatchingPanel::setGpu(const QString& id)
{
    m_inputs.gpuId = id;
    m_inputs.linkId.clear();  // the new card's own link
    syncControls();
    recompute();
}

void BatchingPanel::setCustomGpu(double peakTflops, double bandwidthTbs, double memoryGib)
{
    m_inputs.gpuId = kCustomId;
    m_inputs.customPeakTflops = peakTflops;
    m_inputs.customBandwidthTbs = bandwidthTbs;
    m_inputs.customMemoryGib = memoryGib;
    syncControls();
    recompute();
}

void BatchingPanel::setGpuCount(int gpus)
{
    m_inputs.gpus = gpus;
    syncControls();
    recompute();
}

void BatchingPanel::setLink(const QString& id)
{
    m_inputs.linkId = id;
    syncControls();
    recompute();
}

void BatchingPanel::setIdeal(bool ideal)
{
    setEngineChoice(m_inputs, ideal ? EngineChoice::Ideal : kDefaultEngineChoice);
    syncControls();
    recompute();
}

// A session's engine is shown when it is not what the tab last showed or handed on: opening another session, or
// one without an engine (the default), and not every time the open one changes (a calibration, an import).
void BatchingPanel::showSessionEngine(const QString& engine)
{
    if (engine == m_sessionEngine)
        return;
    m_sessionEngine = engine;
    setEngineChoice(m_inputs, kDefaultEngineChoice);
    m_inputs.engine = engine;
    syncControls();
    recompute();
}

void BatchingPanel::setTheme(ThemeKind theme)
{
    m_theme = theme;
    m_throughput->setTheme(theme);
    m_roofline->setTheme(theme);
    m_memory->setTheme(theme);
    m_cpu->setTheme(theme);
    m_breakdown->setTheme(theme);
    m_calibrationChart->setTheme(theme);
    m_frontier->setTheme(theme);
    applyPalette();
    updateTexts();
}

void BatchingPanel::applyPalette()
{
    setPalette(themedPalette(ChartTheme::make(m_theme), palette()));
    setAutoFillBackground(true);
}

void BatchingPanel::recompute()
{
    m_scenario = computeBatchingScenario(m_inputs);
    if (m_scenario.error) {
        // The full message is the headline and the memory bar's status; the charts only point at it.
        const QString message = tr("Cannot evaluate: %1").arg(m_scenario.error->message);
        const QString pointer = tr("No numbers: see the message above");
        m_throughput->showMessage(pointer);
        m_roofline->showMessage(pointer);
        m_memory->showMessage(message);
        m_breakdown->showMessage(pointer);
    } else {
        m_throughput->setData(m_scenario.throughput);
        m_roofline->setData(m_scenario.roofline);
        m_memory->setData(m_scenario.memory);
        m_breakdown->setData(m_scenario.breakdown);
    }
    keepCalibrationWithItsSetup();
    updateFrontier();
    updateTexts();
    emit scenarioChanged();
}

QString BatchingPanel::errorText() const
{
    return m_scenario.error ? m_scenario.error->message : QString();
}

QString BatchingPanel::headlineText() const
{
    return m_headline->text();
}
QString BatchingPanel::detailText() const
{
    return m_detail->text();
}
QString BatchingPanel::takeawayText() const
{
    return m_takeaway->paragraphs().join(QLatin1Char(' '));
}

void BatchingPanel::updateTexts()
{
    const BatchingTexts texts = batchingTexts(m_scenario, m_inputs);
    m_headline->setText(texts.headline);
    m_headline->setColor(texts.error ? ChartTheme::make(m_theme).highlight : QColor());
    // Beside the frontier the detail also names the scheduler its curve runs (where the curve stops is its limit).
    m_detail->setText(frontierShown() && !texts.scheduler.isEmpty()
                          ? texts.detail + QStringLiteral("  \u00b7  ") + texts.scheduler
                          : texts.detail);
    m_takeaway->setParagraphs(texts.takeaway);
    m_takeaway->setVisible(!texts.error);
    // Setting the same text or visibility again would relayout the panel on every slider step: only on change.
    if (m_warnings->paragraphs() != texts.warnings)
        m_warnings->setParagraphs(texts.warnings);
    m_warnings->setColor(ChartTheme::make(m_theme).highlight);
    if (m_warnings->isVisibleTo(this) == texts.warnings.isEmpty())
        m_warnings->setVisible(!texts.warnings.isEmpty());
}

QStringList BatchingPanel::warningTexts() const
{
    return m_warnings->isVisibleTo(this) ? m_warnings->paragraphs() : QStringList();
}

LogSlider* BatchingPanel::batchSlider() const
{
    return m_controls->batchSlider();
}

LogSlider* BatchingPanel::contextSlider() const
{
    return m_controls->contextSlider();
}

QStringList BatchingPanel::visibleTexts() const
{
    QStringList list{m_headline->text(), m_detail->text()};
    list << warningTexts();
    list << m_takeaway->paragraphs();
    list << (frontierShown() ? m_frontier->texts() : m_throughput->texts()) << m_roofline->texts() << m_memory->texts()
         << m_breakdown->texts() << m_cpu->texts();
    if (m_calibrationChart->isVisibleTo(this))
        list << m_calibrationChart->texts();
    for (const QLabel* label : findChildren<QLabel*>())
        list << label->text();
    return list;
}

}  // namespace ridgeline::ui
