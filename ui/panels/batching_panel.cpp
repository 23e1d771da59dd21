#include "ui/panels/batching_panel.h"

#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/models/batching_texts.h"
#include "ui/panels/batching_controls.h"
#include "ui/widgets/log_slider.h"
#include "ui/widgets/text_block.h"

#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace ridgeline::ui {

namespace {

constexpr int kControlsWidth = 420;
constexpr int kSideBySideWidth = 1500;       // narrower panels stack the two charts
constexpr int kStackedMinimumHeight = 1500;  // two charts of 400 pixels, the memory bar and the CPU chart

}  // namespace

BatchingPanel::BatchingPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("BatchingPanel"));
    m_inputs.batch = 16;
    m_inputs.context = 8192;

    // Painted text blocks of fixed height: new numbers repaint them without relaying out the window.
    m_headline = new TextBlock(1, this);
    m_headline->setFont(pixelFont(24, true));
    m_detail = new TextBlock(2, this);
    m_detail->setFont(pixelFont(17));
    // Shown only when there is something to warn about; two lines hold the longest two warnings.
    m_warnings = new TextBlock(2, this);
    m_warnings->setFont(pixelFont(17, true));
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
}

BatchingPanel::~BatchingPanel() = default;

void BatchingPanel::arrangeCharts(bool stacked)
{
    // Side by side on a wide screen; on a laptop the two charts stack, each as wide as the panel, rather
    // than shrink until their labels no longer fit (the panel scrolls vertically).
    m_stacked = stacked;
    for (QWidget* chart : {static_cast<QWidget*>(m_throughput), static_cast<QWidget*>(m_roofline),
                           static_cast<QWidget*>(m_memory), static_cast<QWidget*>(m_cpu)})
        m_charts->removeWidget(chart);
    for (int row = 0; row < 4; ++row)
        m_charts->setRowStretch(row, 0);
    if (stacked) {
        m_charts->addWidget(m_throughput, 0, 0, 1, 2);
        m_charts->addWidget(m_roofline, 1, 0, 1, 2);
        m_charts->addWidget(m_memory, 2, 0, 1, 2);
        m_charts->addWidget(m_cpu, 3, 0, 1, 2);
        m_charts->setRowStretch(0, 3);
        m_charts->setRowStretch(1, 3);
        m_charts->setRowStretch(3, 2);
    } else {
        m_charts->addWidget(m_throughput, 0, 0);
        m_charts->addWidget(m_roofline, 0, 1);
        m_charts->addWidget(m_memory, 1, 0, 1, 2);
        m_charts->addWidget(m_cpu, 2, 0, 1, 2);
        // The two charts above need the height for their vertical axis titles; the CPU's curve is one line.
        m_charts->setRowStretch(0, 5);
        m_charts->setRowStretch(2, 2);
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
        arrangeCharts(stacked);
        // Stacked charts need more height: the scroll area around the panel learns it from here.
        setMinimumHeight(stacked ? kStackedMinimumHeight : 0);
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
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    m_controls = new BatchingControls(column);
    connect(m_controls, &BatchingControls::edited, this, [this](const InferenceRequest& request) {
        m_inputs = request;
        syncControls();
        recompute();
    });
    layout->addWidget(m_controls);
    layout->addWidget(m_takeaway);
    layout->addStretch(1);
    scroll->setWidget(column);
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
    m_inputs.efficiency = ideal ? Efficiency::ideal() : Efficiency{};
    syncControls();
    recompute();
}

void BatchingPanel::setSession(const Session& session)
{
    m_cpu->setData(predictCpuBatching(session));
}

void BatchingPanel::clearSession()
{
    CpuBatchingData none;
    none.reason = tr("Open or measure a session to see this CPU's batching curve.");
    m_cpu->setData(none);
}

void BatchingPanel::setTheme(ThemeKind theme)
{
    m_theme = theme;
    m_throughput->setTheme(theme);
    m_roofline->setTheme(theme);
    m_memory->setTheme(theme);
    m_cpu->setTheme(theme);
    applyPalette();
    updateTexts();
}

void BatchingPanel::applyPalette()
{
    const ChartTheme t = ChartTheme::make(m_theme);
    QPalette p = palette();
    const bool dark = m_theme == ThemeKind::Dark;
    const QColor base = dark ? QColor(0x2a, 0x2d, 0x33) : QColor(0xff, 0xff, 0xff);
    const QColor button = dark ? QColor(0x33, 0x37, 0x3e) : QColor(0xf0, 0xf0, 0xf0);
    p.setColor(QPalette::Window, t.background);
    p.setColor(QPalette::WindowText, t.text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, button);
    p.setColor(QPalette::Text, t.text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, t.text);
    p.setColor(QPalette::Highlight, t.sessionColor(0));
    p.setColor(QPalette::HighlightedText, dark ? QColor(0x10, 0x10, 0x10) : QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, t.text);
    p.setColor(QPalette::Disabled, QPalette::Text, t.mutedText);
    p.setColor(QPalette::Disabled, QPalette::WindowText, t.mutedText);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, t.mutedText);
    p.setColor(QPalette::Mid, t.grid);
    setPalette(p);
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
    } else {
        m_throughput->setData(m_scenario.throughput);
        m_roofline->setData(m_scenario.roofline);
        m_memory->setData(m_scenario.memory);
    }
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
    m_detail->setText(texts.detail);
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
    list << m_throughput->texts() << m_roofline->texts() << m_memory->texts() << m_cpu->texts();
    for (const QLabel* label : findChildren<QLabel*>())
        list << label->text();
    return list;
}

}  // namespace ridgeline::ui
