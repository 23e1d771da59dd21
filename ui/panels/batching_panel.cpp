#include "ui/panels/batching_panel.h"

#include "core/model/units.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/panels/log_slider.h"
#include "ui/panels/text_block.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr std::array kGpuCounts = {1, 2, 4, 8, 16, 32, 64};
constexpr std::array kStorageFormats = {NumberFormat::Fp32, NumberFormat::Bf16, NumberFormat::Fp16,
                                        NumberFormat::Fp8,  NumberFormat::Int8, NumberFormat::Int4};
constexpr int kControlsWidth = 420;
constexpr int kSideBySideWidth = 1500;       // narrower panels stack the two charts
constexpr int kStackedMinimumHeight = 1500;  // two charts of 400 pixels, the memory bar and the CPU chart

QFont pixelFont(int pixels, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

void fillFormats(QComboBox* box)
{
    for (const NumberFormat f : kStorageFormats)
        box->addItem(numberFormatName(f), static_cast<int>(f));
}

void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    if (index >= 0 && index != box->currentIndex())
        box->setCurrentIndex(index);
}

// Setting a control to the value it already shows still repaints it (and its group box): skip that.
void setSpin(QDoubleSpinBox* spin, double value)
{
    if (std::fabs(spin->value() - value) > 0.5 * std::pow(10.0, -spin->decimals()))
        spin->setValue(value);
}

void setEnabledIfChanged(QWidget* widget, bool enabled)
{
    if (widget->isEnabled() != enabled)
        widget->setEnabled(enabled);
}

int gpuCountIndex(int gpus)
{
    for (std::size_t i = 0; i < kGpuCounts.size(); ++i)
        if (kGpuCounts[i] >= gpus)
            return static_cast<int>(i);
    return static_cast<int>(kGpuCounts.size()) - 1;
}

QString times(double ratio)
{
    return QStringLiteral("\u00d7%1").arg(formatSignificant(ratio));
}

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
        m_charts->setRowStretch(0, 3);
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

QWidget* BatchingPanel::createControls()
{
    auto* controls = new QWidget(this);
    controls->setFixedWidth(kControlsWidth);
    controls->setFont(pixelFont(16));
    auto* column = new QVBoxLayout(controls);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(10);

    auto group = [&](const QString& title) {
        auto* box = new QGroupBox(title, controls);
        box->setFont(pixelFont(17, true));
        auto* form = new QFormLayout(box);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        column->addWidget(box);
        return form;
    };
    auto plain = [](QWidget* w) {
        w->setFont(pixelFont(16));
        return w;
    };

    // Model
    QFormLayout* model = group(tr("Model"));
    m_model = new QComboBox;
    if (const auto& models = builtinModels())
        for (const ModelSpec& m : models.value())
            m_model->addItem(m.name, m.id);
    m_model->addItem(tr("Custom (by parameter count)"), kCustomId);
    model->addRow(plain(new QLabel(tr("Model"))), plain(m_model));
    m_params = new QDoubleSpinBox;
    m_params->setRange(0.0, 1e5);
    m_params->setDecimals(2);
    m_params->setSuffix(tr(" billion"));
    m_params->setKeyboardTracking(false);
    m_params->setToolTip(tr("Parameters of a custom model; shapes follow Llama 2 (MHA, head dim 128)"));
    model->addRow(plain(new QLabel(tr("Parameters"))), plain(m_params));
    m_weights = new QComboBox;
    fillFormats(m_weights);
    model->addRow(plain(new QLabel(tr("Weights"))), plain(m_weights));
    m_kv = new QComboBox;
    fillFormats(m_kv);
    model->addRow(plain(new QLabel(tr("KV cache"))), plain(m_kv));

    // GPU
    QFormLayout* gpu = group(tr("GPU"));
    m_gpu = new QComboBox;
    if (const auto& gpus = builtinGpus())
        for (const GpuSpec& g : gpus.value())
            m_gpu->addItem(g.name, g.id);
    m_gpu->addItem(tr("Custom GPU"), kCustomId);
    gpu->addRow(plain(new QLabel(tr("GPU"))), plain(m_gpu));
    auto spin = [&](const QString& suffix, double maximum, int decimals) {
        auto* s = new QDoubleSpinBox;
        s->setRange(0.0, maximum);
        s->setDecimals(decimals);
        s->setSuffix(suffix);
        s->setKeyboardTracking(false);
        plain(s);
        return s;
    };
    m_peak = spin(tr(" TFLOP/s"), 1e7, 1);
    m_peak->setToolTip(tr("Dense peak for the weights' format, never the sparse figure"));
    gpu->addRow(plain(new QLabel(tr("Peak"))), m_peak);
    m_bandwidth = spin(tr(" TB/s"), 1e5, 3);
    m_bandwidth->setToolTip(tr("Memory bandwidth in TB/s (10^12 bytes/s), as datasheets write it"));
    gpu->addRow(plain(new QLabel(tr("Bandwidth"))), m_bandwidth);
    m_memoryGib = spin(tr(" GiB"), 1e8, 1);
    m_memoryGib->setToolTip(tr("Capacity in GiB (2^30 bytes): a card sold as 80 GB of HBM holds 80 GiB"));
    gpu->addRow(plain(new QLabel(tr("Memory"))), m_memoryGib);
    auto* countRow = new QWidget;
    auto* countLayout = new QHBoxLayout(countRow);
    countLayout->setContentsMargins(0, 0, 0, 0);
    m_gpuCount = new QSlider(Qt::Horizontal);
    m_gpuCount->setRange(0, static_cast<int>(kGpuCounts.size()) - 1);
    m_gpuCount->setPageStep(1);
    m_gpuCountLabel = new QLabel;
    m_gpuCountLabel->setMinimumWidth(70);
    countLayout->addWidget(m_gpuCount, 1);
    countLayout->addWidget(plain(m_gpuCountLabel));
    gpu->addRow(plain(new QLabel(tr("GPUs"))), countRow);
    m_link = new QComboBox;
    for (const LinkSpec& link : linkCatalog())
        m_link->addItem(link.insideBox ? link.name : tr("%1 (between machines)").arg(link.name), link.id);
    m_link->setToolTip(tr("The link tensor parallelism all-reduces over, twice per layer per step"));
    gpu->addRow(plain(new QLabel(tr("Link"))), plain(m_link));

    // Workload
    QFormLayout* work = group(tr("Decode step"));
    m_batch = new LogSlider(kPanelMinBatch, kPanelMaxBatch);
    plain(m_batch);
    m_batch->spinBox()->setToolTip(tr("Sequences decoded together in one step"));
    work->addRow(plain(new QLabel(tr("Batch"))), m_batch);
    m_context = new LogSlider(kPanelMinContext, kPanelMaxContext);
    plain(m_context);
    m_context->spinBox()->setToolTip(tr("Tokens each sequence has in its KV cache"));
    work->addRow(plain(new QLabel(tr("Context"))), m_context);
    m_ideal = new QCheckBox(tr("Ideal datasheet (100 % efficiency)"));
    m_ideal->setToolTip(tr("Off: %1 % of bandwidth and %2 % of peak, as serving engines measure")
                            .arg(kDefaultBandwidthEfficiency * 100.0)
                            .arg(kDefaultComputeEfficiency * 100.0));
    work->addRow(plain(m_ideal));
    column->addWidget(m_takeaway);
    column->addStretch(1);

    // Each control writes its input and recomputes; syncControls() writes them back without signals.
    auto changed = [this](auto apply) {
        return [this, apply](auto... args) {
            if (m_syncing)
                return;
            apply(args...);
            syncControls();
            recompute();
        };
    };
    connect(m_model, &QComboBox::activated, this,
            changed([this](int) { m_inputs.modelId = m_model->currentData().toString(); }));
    connect(m_params, &QDoubleSpinBox::valueChanged, this, changed([this](double billions) {
                m_inputs.customParams = billions * 1e9;
                m_inputs.modelId = kCustomId;
            }));
    connect(m_weights, &QComboBox::activated, this,
            changed([this](int) { m_inputs.weights = static_cast<NumberFormat>(m_weights->currentData().toInt()); }));
    connect(m_kv, &QComboBox::activated, this,
            changed([this](int) { m_inputs.kv = static_cast<NumberFormat>(m_kv->currentData().toInt()); }));
    connect(m_gpu, &QComboBox::activated, this, &BatchingPanel::onGpuActivated);
    auto customGpuChanged = changed([this](double) {
        m_inputs.gpuId = kCustomId;
        m_inputs.customPeakTflops = m_peak->value();
        m_inputs.customBandwidthTbs = m_bandwidth->value();
        m_inputs.customMemoryGib = m_memoryGib->value();
    });
    for (QDoubleSpinBox* s : {m_peak, m_bandwidth, m_memoryGib})
        connect(s, &QDoubleSpinBox::valueChanged, this, customGpuChanged);
    connect(m_gpuCount, &QSlider::valueChanged, this,
            changed([this](int index) { m_inputs.gpus = kGpuCounts[static_cast<std::size_t>(index)]; }));
    connect(m_link, &QComboBox::activated, this,
            changed([this](int) { m_inputs.linkId = m_link->currentData().toString(); }));
    connect(m_batch, &LogSlider::valueChanged, this, changed([this](std::int64_t b) { m_inputs.batch = b; }));
    connect(m_context, &LogSlider::valueChanged, this, changed([this](std::int64_t c) { m_inputs.context = c; }));
    connect(m_ideal, &QCheckBox::toggled, this,
            changed([this](bool on) { m_inputs.efficiency = on ? Efficiency::ideal() : Efficiency{}; }));
    return controls;
}

void BatchingPanel::onGpuActivated(int)
{
    if (m_syncing)
        return;
    setGpu(m_gpu->currentData().toString());
}

void BatchingPanel::syncControls()
{
    // Batch, context and GPU count stay on their controls' scales; everything else goes to the model as is.
    m_inputs.batch = std::clamp(m_inputs.batch, kPanelMinBatch, kPanelMaxBatch);
    m_inputs.context = std::clamp(m_inputs.context, kPanelMinContext, kPanelMaxContext);
    m_inputs.gpus = kGpuCounts[static_cast<std::size_t>(gpuCountIndex(m_inputs.gpus))];
    m_syncing = true;
    const bool customModel = m_inputs.modelId == kCustomId;
    selectData(m_model, m_inputs.modelId);
    if (!customModel) {
        // A catalog model shows its own (exact) parameter count; editing it turns it into a custom model.
        if (Result<ModelSpec> model = findModel(m_inputs.modelId))
            if (Result<ParamCounts> counts = countParams(model.value()))
                setSpin(m_params, double(counts.value().total) / 1e9);
    } else if (std::isfinite(m_inputs.customParams)) {
        setSpin(m_params, m_inputs.customParams / 1e9);
    }
    setEnabledIfChanged(m_params, customModel);
    selectData(m_weights, static_cast<int>(m_inputs.weights));
    selectData(m_kv, static_cast<int>(m_inputs.kv));

    const bool customGpu = m_inputs.gpuId == kCustomId;
    selectData(m_gpu, m_inputs.gpuId);
    if (customGpu) {
        if (std::isfinite(m_inputs.customPeakTflops))
            setSpin(m_peak, m_inputs.customPeakTflops);
        if (std::isfinite(m_inputs.customBandwidthTbs))
            setSpin(m_bandwidth, m_inputs.customBandwidthTbs);
        if (std::isfinite(m_inputs.customMemoryGib))
            setSpin(m_memoryGib, m_inputs.customMemoryGib);
    } else if (Result<GpuSpec> gpu = findGpu(m_inputs.gpuId)) {
        // A catalog card shows its own figures; editing one turns it into a custom card.
        setSpin(m_peak, gpu.value().peakTflops(NumberFormat::Bf16));
        setSpin(m_bandwidth, gpu.value().bandwidthTbs);
        setSpin(m_memoryGib, gpu.value().memoryGib);
    }
    const int countIndex = gpuCountIndex(m_inputs.gpus);
    if (m_gpuCount->value() != countIndex)
        m_gpuCount->setValue(countIndex);
    const QString count = m_inputs.gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(m_inputs.gpus);
    if (m_gpuCountLabel->text() != count)
        m_gpuCountLabel->setText(count);
    selectData(m_link, effectiveLinkId(m_inputs));
    setEnabledIfChanged(m_link, m_inputs.gpus > 1);
    m_batch->setValue(m_inputs.batch);
    m_context->setValue(m_inputs.context);
    if (m_ideal->isChecked() != m_inputs.ideal())
        m_ideal->setChecked(m_inputs.ideal());
    m_syncing = false;
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
    const ChartTheme t = ChartTheme::make(m_theme);
    if (m_scenario.error) {
        m_headline->setText(tr("Cannot evaluate these inputs"));
        m_headline->setColor(t.highlight);
        QString message = m_scenario.error->message;
        if (!message.isEmpty())
            message[0] = message[0].toUpper();
        m_detail->setText(
            tr("%1. Change an input: the charts come back as soon as the model accepts it.").arg(message));
        m_takeaway->setParagraphs({});
        m_takeaway->hide();
        return;
    }
    m_takeaway->show();
    m_headline->setColor(QColor());
    const InferenceReport& r = m_scenario.report;
    const InferenceRequest& in = m_inputs;
    const QString bound = r.step.bound == Bound::Memory ? tr("memory-bound") : tr("compute-bound");
    m_headline->setText(tr("%1 tokens/s  \u00b7  %2 per step  \u00b7  %3 at %4 FLOP/byte")
                            .arg(formatSignificant(r.tokensPerSecond), formatSeconds(r.step.seconds), bound,
                                 formatSignificant(r.step.intensity)) +
                        (r.memory.fits ? QString()
                                       : tr("  \u00b7  does not fit (max batch %1)")
                                             .arg(formatGrouped(double(m_scenario.memory.maxFittingBatch)))));
    const QString efficiency = in.ideal() ? tr("ideal datasheet")
                                          : tr("%1 % of bandwidth, %2 % of peak")
                                                .arg(formatSignificant(r.efficiency.bandwidth * 100.0, 2),
                                                     formatSignificant(r.efficiency.compute * 100.0, 2));
    const QString gpus = r.gpus > 1
                             ? tr("%1 \u00d7 %2 over %3").arg(r.gpus).arg(m_scenario.gpuName, m_scenario.linkName)
                             : m_scenario.gpuName;
    QString detail = tr("%1 on %2  \u00b7  %3 weights, %4 KV  \u00b7  batch %5 \u00d7 %6 tokens  \u00b7  %7 "
                        "(ridge %8 FLOP/byte)  \u00b7  %9 tokens/s per sequence")
                         .arg(m_scenario.modelName, gpus, numberFormatName(in.weights), numberFormatName(in.kv),
                              formatGrouped(double(in.batch)), formatGrouped(double(in.context)), efficiency,
                              formatSignificant(r.ridgeFlopPerByte), formatSignificant(r.tokensPerSecondPerSequence));
    if (r.gpus > 1)
        detail += tr("  \u00b7  all-reduces %1 % of the step").arg(formatSignificant(r.commFraction * 100.0, 2));
    for (const QString& note : r.notes)
        detail += QStringLiteral("  \u00b7  ") + note;
    m_detail->setText(detail);

    // The takeaway box: the source text's argument, with this configuration's numbers.
    const ThroughputData& th = m_scenario.throughput;
    const BatchSample* one = nullptr;
    for (const BatchSample& s : th.curve)
        if (s.batch == 1)
            one = &s;
    QStringList items;
    items << tr("Every step streams the weights once, whatever the batch: %1 per GPU.")
                 .arg(formatGB(double(r.step.weightBytes), 2));
    if (one && in.batch > 1)
        items << tr("From batch 1 to %1: tokens/s %2, time per step %3.")
                     .arg(formatGrouped(double(in.batch)), times(r.tokensPerSecond / one->tokensPerSecond),
                          times(r.step.seconds / one->stepSeconds));
    else if (one)
        items << tr("Batch 1 does %1 FLOP per byte read: the arithmetic units wait on memory.")
                     .arg(formatSignificant(one->intensity));
    if (r.kneeBatch && *r.kneeBatch <= kPanelMaxBatch)
        items << tr("Compute-bound from batch %1 at this context; beyond it tokens/s flattens.")
                     .arg(formatGrouped(double(*r.kneeBatch)));
    else
        items << tr("Never compute-bound at %1 tokens: each sequence's KV reads grow as fast as its FLOPs.")
                     .arg(formatGrouped(double(in.context)));
    const MemoryBarData& m = m_scenario.memory;
    const QString cacheVsWeights = m.kvBytes > m.weightsBytes ? tr("the cache, not the model, fills the card")
                                                              : tr("the weights still take most of the card");
    items << tr("Each sequence carries %1 of KV cache; %2 of them take %3 against %4 of weights: %5.")
                 .arg(formatMemory(double(m.kvBytesPerSequence)), formatGrouped(double(in.batch)),
                      formatGiB(double(m.kvBytes)), formatGiB(double(m.weightsBytes)), cacheVsWeights);
    items << (m.maxFittingBatch > 0
                  ? tr("Largest batch that fits at this context: %1.").arg(formatGrouped(double(m.maxFittingBatch)))
                  : tr("Not even one sequence fits at this context."));
    m_takeaway->setParagraphs(items);
}

QStringList BatchingPanel::visibleTexts() const
{
    QStringList list{m_headline->text(), m_detail->text()};
    list << m_takeaway->paragraphs();
    list << m_throughput->texts() << m_roofline->texts() << m_memory->texts() << m_cpu->texts();
    for (const QLabel* label : findChildren<QLabel*>())
        list << label->text();
    return list;
}

}  // namespace ridgeline::ui
