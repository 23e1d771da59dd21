#include "ui/panels/batching_controls.h"

#include "core/model/catalog.h"
#include "core/model/links.h"
#include "ui/models/batching_scenario.h"
#include "ui/models/chart_theme.h"
#include "ui/widgets/log_slider.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr std::array kGpuCountSteps = {1, 2, 4, 8, 16, 32, 64};
constexpr std::array kStorageFormats = {NumberFormat::Fp32, NumberFormat::Bf16, NumberFormat::Fp16,
                                        NumberFormat::Fp8,  NumberFormat::Int8, NumberFormat::Int4};
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
    for (std::size_t i = 0; i < kGpuCountSteps.size(); ++i)
        if (kGpuCountSteps[i] >= gpus)
            return static_cast<int>(i);
    return static_cast<int>(kGpuCountSteps.size()) - 1;
}

QWidget* plain(QWidget* w)
{
    w->setFont(pixelFont(16));
    return w;
}

}  // namespace

int panelGpuCount(int gpus)
{
    return kGpuCountSteps[static_cast<std::size_t>(gpuCountIndex(gpus))];
}

BatchingControls::BatchingControls(QWidget* parent) : QWidget(parent)
{
    m_column = new QVBoxLayout(this);
    m_column->setContentsMargins(0, 0, 0, 0);
    m_column->setSpacing(10);
    createModelGroup();
    createGpuGroup();
    createWorkloadGroup();
    connectControls();
}

QFormLayout* BatchingControls::group(const QString& title)
{
    auto* box = new QGroupBox(title, this);
    box->setFont(pixelFont(17, true));
    auto* form = new QFormLayout(box);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_column->addWidget(box);
    return form;
}

void BatchingControls::createModelGroup()
{
    QFormLayout* model = group(tr("Model"));
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("batchingModel"));
    if (const auto& models = builtinModels())
        for (const ModelSpec& m : models.value())
            m_model->addItem(m.name, m.id);
    m_model->addItem(tr("Custom (by parameter count)"), kCustomId);
    model->addRow(plain(new QLabel(tr("Model"))), plain(m_model));
    m_params = new QDoubleSpinBox;
    m_params->setObjectName(QStringLiteral("batchingParams"));
    m_params->setRange(0.0, 1e5);
    m_params->setDecimals(2);
    m_params->setSuffix(tr(" billion"));
    m_params->setKeyboardTracking(false);
    m_params->setToolTip(tr("Parameters of a custom model; shapes follow Llama 2 (MHA, head dim 128)"));
    model->addRow(plain(new QLabel(tr("Parameters"))), plain(m_params));
    m_weights = new QComboBox;
    m_weights->setObjectName(QStringLiteral("batchingWeights"));
    fillFormats(m_weights);
    model->addRow(plain(new QLabel(tr("Weights"))), plain(m_weights));
    m_kv = new QComboBox;
    m_kv->setObjectName(QStringLiteral("batchingKv"));
    fillFormats(m_kv);
    model->addRow(plain(new QLabel(tr("KV cache"))), plain(m_kv));
}

void BatchingControls::createGpuGroup()
{
    QFormLayout* gpu = group(tr("GPU"));
    m_gpu = new QComboBox;
    m_gpu->setObjectName(QStringLiteral("batchingGpu"));
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
    m_peak->setObjectName(QStringLiteral("batchingPeak"));
    m_peak->setToolTip(tr("Dense peak for the weights' format, never the sparse figure"));
    gpu->addRow(plain(new QLabel(tr("Peak"))), m_peak);
    m_bandwidth = spin(tr(" TB/s"), 1e5, 3);
    m_bandwidth->setObjectName(QStringLiteral("batchingBandwidth"));
    m_bandwidth->setToolTip(tr("Memory bandwidth in TB/s (10^12 bytes/s), as datasheets write it"));
    gpu->addRow(plain(new QLabel(tr("Bandwidth"))), m_bandwidth);
    m_memoryGib = spin(tr(" GiB"), 1e8, 1);
    m_memoryGib->setObjectName(QStringLiteral("batchingMemory"));
    m_memoryGib->setToolTip(tr("Capacity in GiB (2^30 bytes): a card sold as 80 GB of HBM holds 80 GiB"));
    gpu->addRow(plain(new QLabel(tr("Memory"))), m_memoryGib);
    auto* countRow = new QWidget;
    auto* countLayout = new QHBoxLayout(countRow);
    countLayout->setContentsMargins(0, 0, 0, 0);
    m_gpuCount = new QSlider(Qt::Horizontal);
    m_gpuCount->setObjectName(QStringLiteral("batchingGpuCount"));
    m_gpuCount->setRange(0, static_cast<int>(kGpuCountSteps.size()) - 1);
    m_gpuCount->setPageStep(1);
    m_gpuCountLabel = new QLabel;
    m_gpuCountLabel->setMinimumWidth(70);
    countLayout->addWidget(m_gpuCount, 1);
    countLayout->addWidget(plain(m_gpuCountLabel));
    gpu->addRow(plain(new QLabel(tr("GPUs"))), countRow);
    m_link = new QComboBox;
    m_link->setObjectName(QStringLiteral("batchingLink"));
    for (const LinkSpec& link : linkCatalog())
        m_link->addItem(link.insideBox ? link.name : tr("%1 (between machines)").arg(link.name), link.id);
    m_link->setToolTip(tr("The link tensor parallelism all-reduces over, twice per layer per step"));
    gpu->addRow(plain(new QLabel(tr("Link"))), plain(m_link));
}

void BatchingControls::createWorkloadGroup()
{
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
    m_ideal->setObjectName(QStringLiteral("batchingIdeal"));
    m_ideal->setToolTip(tr("Off: %1 % of bandwidth and %2 % of peak, as serving engines measure")
                            .arg(kDefaultBandwidthEfficiency * 100.0)
                            .arg(kDefaultComputeEfficiency * 100.0));
    work->addRow(plain(m_ideal));
}

// Each control edits a copy of the request it shows and hands it on; showRequest() writes it back without signals.
void BatchingControls::connectControls()
{
    auto changed = [this](auto apply) {
        return [this, apply](auto... args) {
            if (m_syncing)
                return;
            InferenceRequest edited = m_shown;
            apply(edited, args...);
            emit this->edited(edited);
        };
    };
    connect(m_model, &QComboBox::activated, this,
            changed([this](InferenceRequest& r, int) { r.modelId = m_model->currentData().toString(); }));
    connect(m_params, &QDoubleSpinBox::valueChanged, this, changed([](InferenceRequest& r, double billions) {
                r.customParams = billions * 1e9;
                r.modelId = kCustomId;
            }));
    connect(m_weights, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                r.weights = static_cast<NumberFormat>(m_weights->currentData().toInt());
            }));
    connect(m_kv, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                r.kv = static_cast<NumberFormat>(m_kv->currentData().toInt());
            }));
    // A catalog card brings its own link (the request's empty link).
    connect(m_gpu, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                r.gpuId = m_gpu->currentData().toString();
                r.linkId.clear();
            }));
    auto customGpuChanged = changed([this](InferenceRequest& r, double) {
        r.gpuId = kCustomId;
        r.customPeakTflops = m_peak->value();
        r.customBandwidthTbs = m_bandwidth->value();
        r.customMemoryGib = m_memoryGib->value();
    });
    for (QDoubleSpinBox* s : {m_peak, m_bandwidth, m_memoryGib})
        connect(s, &QDoubleSpinBox::valueChanged, this, customGpuChanged);
    connect(m_gpuCount, &QSlider::valueChanged, this,
            changed([](InferenceRequest& r, int index) { r.gpus = kGpuCountSteps[static_cast<std::size_t>(index)]; }));
    connect(m_link, &QComboBox::activated, this,
            changed([this](InferenceRequest& r, int) { r.linkId = m_link->currentData().toString(); }));
    connect(m_batch, &LogSlider::valueChanged, this, changed([](InferenceRequest& r, std::int64_t b) { r.batch = b; }));
    connect(m_context, &LogSlider::valueChanged, this,
            changed([](InferenceRequest& r, std::int64_t c) { r.context = c; }));
    connect(m_ideal, &QCheckBox::toggled, this,
            changed([](InferenceRequest& r, bool on) { r.efficiency = on ? Efficiency::ideal() : Efficiency{}; }));
}

void BatchingControls::showRequest(const InferenceRequest& in)
{
    m_shown = in;
    m_syncing = true;
    const bool customModel = in.modelId == kCustomId;
    selectData(m_model, in.modelId);
    if (!customModel) {
        // A catalog model shows its own (exact) parameter count; editing it turns it into a custom model.
        if (Result<ModelSpec> model = findModel(in.modelId))
            if (Result<ParamCounts> counts = countParams(model.value()))
                setSpin(m_params, double(counts.value().total) / 1e9);
    } else if (std::isfinite(in.customParams)) {
        setSpin(m_params, in.customParams / 1e9);
    }
    setEnabledIfChanged(m_params, customModel);
    selectData(m_weights, static_cast<int>(in.weights));
    selectData(m_kv, static_cast<int>(in.kv));

    const bool customGpu = in.gpuId == kCustomId;
    selectData(m_gpu, in.gpuId);
    if (customGpu) {
        if (std::isfinite(in.customPeakTflops))
            setSpin(m_peak, in.customPeakTflops);
        if (std::isfinite(in.customBandwidthTbs))
            setSpin(m_bandwidth, in.customBandwidthTbs);
        if (std::isfinite(in.customMemoryGib))
            setSpin(m_memoryGib, in.customMemoryGib);
    } else if (Result<GpuSpec> gpu = findGpu(in.gpuId)) {
        // A catalog card shows its own figures; editing one turns it into a custom card.
        setSpin(m_peak, gpu.value().peakTflops(NumberFormat::Bf16));
        setSpin(m_bandwidth, gpu.value().bandwidthTbs);
        setSpin(m_memoryGib, gpu.value().memoryGib);
    }
    const int countIndex = gpuCountIndex(in.gpus);
    if (m_gpuCount->value() != countIndex)
        m_gpuCount->setValue(countIndex);
    const QString count = in.gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(in.gpus);
    if (m_gpuCountLabel->text() != count)
        m_gpuCountLabel->setText(count);
    selectData(m_link, effectiveLinkId(in));
    setEnabledIfChanged(m_link, in.gpus > 1);
    m_batch->setValue(in.batch);
    m_context->setValue(in.context);
    if (m_ideal->isChecked() != in.ideal())
        m_ideal->setChecked(in.ideal());
    m_syncing = false;
}

}  // namespace ridgeline::ui
