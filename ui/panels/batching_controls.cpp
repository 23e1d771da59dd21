#include "ui/panels/batching_controls.h"

#include "core/model/catalog/links.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/engine_catalog.h"
#include "ui/panels/batching_advanced.h"
#include "ui/panels/batching_control_util.h"
#include "ui/plots/batching/batching_scenario.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/log_slider.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr std::array kGpuCountSteps = {1, 2, 4, 8, 16, 32, 64};
constexpr int kCalibratedEntry = -1;  // the engine combo's entry for a calibration's fitted terms

int gpuCountIndex(int gpus)
{
    for (std::size_t i = 0; i < kGpuCountSteps.size(); ++i)
        if (kGpuCountSteps[i] >= gpus)
            return static_cast<int>(i);
    return static_cast<int>(kGpuCountSteps.size()) - 1;
}

QLabel* statusLabel(const char* name)
{
    auto* label = new QLabel;
    label->setObjectName(QLatin1String(name));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    plain(label);
    return label;
}

// An error in the warning colour; anything else in the panel's own text colour (an empty palette inherits it).
void showStatus(QLabel* label, const QString& text, bool error)
{
    label->setText(text);
    QPalette palette;
    if (error)
        palette.setColor(QPalette::WindowText, ChartTheme::make(ThemeKind::Light).highlight);
    label->setPalette(palette);
    label->setVisible(!text.isEmpty());
}

// The engine `id` as the request's: its terms come from the profile for the card; the same engine again keeps the
// version a session named. Generic is the default choice, the measured terms, as `ridgeline model` without --engine.
void chooseEngine(InferenceRequest& r, const QString& id)
{
    if (id == kGenericEngineId) {
        setEngineChoice(r, EngineChoice::Measured);
        return;
    }
    if (const Result<EngineSelection> was = selectEngine(r.engine);
        r.engine.isEmpty() || !was || was.value().profile->id != id)
        r.engine = id;
    r.efficiency = Efficiency{};
    r.terms = EngineTerms::measured();
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
    m_advanced = new BatchingAdvancedControls(this);
    m_column->addWidget(m_advanced);
    reloadCatalogs();
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
    model->addRow(plain(new QLabel(tr("Model"))), plain(m_model));
    m_params = new CheckedDoubleSpinBox;
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
    auto* buttons = new QWidget;
    auto* row = new QHBoxLayout(buttons);
    row->setContentsMargins(0, 0, 0, 0);
    m_loadConfig = new QPushButton(tr("Load model config\u2026"));
    m_loadConfig->setObjectName(QStringLiteral("batchingLoadConfig"));
    m_loadConfig->setToolTip(tr("A Hugging Face config.json (dense, GQA, MoE, MLA) as the model"));
    m_saveModel = new QPushButton(tr("Save to my catalog\u2026"));
    m_saveModel->setObjectName(QStringLiteral("batchingSaveModel"));
    row->addWidget(plain(m_loadConfig));
    row->addWidget(plain(m_saveModel));
    model->addRow(buttons);
    m_modelStatus = statusLabel("batchingModelStatus");
    model->addRow(m_modelStatus);
}

void BatchingControls::createGpuGroup()
{
    QFormLayout* gpu = group(tr("GPU"));
    m_gpu = new QComboBox;
    m_gpu->setObjectName(QStringLiteral("batchingGpu"));
    gpu->addRow(plain(new QLabel(tr("GPU"))), plain(m_gpu));
    auto spin = [&](const QString& suffix, double maximum, int decimals) {
        auto* s = new CheckedDoubleSpinBox;
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
    m_saveGpu = new QPushButton(tr("Save to my catalog\u2026"));
    m_saveGpu->setObjectName(QStringLiteral("batchingSaveGpu"));
    m_saveGpu->setToolTip(tr("Keep this custom GPU in your own catalog, beside the bundled cards"));
    gpu->addRow(plain(m_saveGpu));
    m_gpuStatus = statusLabel("batchingGpuStatus");
    gpu->addRow(m_gpuStatus);
}

void BatchingControls::createWorkloadGroup()
{
    QFormLayout* work = group(tr("Decode step"));
    m_batch = new LogSlider(kPanelMinBatch, kPanelMaxBatch);
    plain(m_batch);
    m_batch->spinBox()->setToolTip(tr("Sequences decoded together in one step"));
    m_batch->spinBox()->setUnit(tr("sequences"));
    work->addRow(plain(new QLabel(tr("Batch"))), m_batch);
    m_context = new LogSlider(kPanelMinContext, kPanelMaxContext);
    plain(m_context);
    m_context->spinBox()->setToolTip(tr("Tokens each sequence has in its KV cache"));
    m_context->spinBox()->setUnit(tr("tokens"));
    work->addRow(plain(new QLabel(tr("Context"))), m_context);
    m_engine = new QComboBox;
    m_engine->setObjectName(QStringLiteral("batchingEngine"));
    m_engine->setToolTip(
        tr("The serving engine whose terms the model uses (`ridgeline model --engine`, `ridgeline catalog engines`): "
           "generic is the measured defaults, fitted on published serving measurements; an engine changes the terms "
           "its published figures show to differ, for the card's memory. Plain: %1 % of bandwidth and %2 % of peak, "
           "no fixed times. Ideal: the datasheet.")
            .arg(kDefaultBandwidthEfficiency * 100.0)
            .arg(kDefaultComputeEfficiency * 100.0));
    work->addRow(plain(new QLabel(tr("Engine"))), plain(m_engine));
    m_decodeStep = work;
}

void BatchingControls::addDecodeStepRow(const QString& label, QWidget* field)
{
    m_decodeStep->addRow(plain(new QLabel(label)), plain(field));
}

void BatchingControls::reloadCatalogs()
{
    m_syncing = true;
    m_model->clear();
    for (const ModelSpec& m : allModels())
        m_model->addItem(isUserModel(m.id) ? tr("%1 (mine)").arg(m.name) : m.name, m.id);
    m_model->addItem(tr("Custom (by parameter count)"), kCustomId);
    m_gpu->clear();
    for (const GpuSpec& g : allGpus())
        m_gpu->addItem(isUserGpu(g.id) ? tr("%1 (mine)").arg(g.name) : g.name, g.id);
    m_gpu->addItem(tr("Custom GPU"), kCustomId);
    fillEngines();
    m_syncing = false;
    showRequest(m_shown);
}

// The catalog's engines by id (with the versions their profiles rest on; the user's own marked), then the plain
// roofline, the datasheet and a calibration's fit by their ints.
void BatchingControls::fillEngines()
{
    m_engine->clear();
    for (const EngineProfile& e : allEngines()) {
        const QString versions = versionRange(e);
        const QString text = e.isGeneric()        ? tr("generic (measured engine terms)")
                             : isUserEngine(e.id) ? tr("%1 (mine)").arg(e.name)
                             : versions.isEmpty() ? e.name
                                                  : tr("%1 %2").arg(e.name, versions);
        m_engine->addItem(text, e.id);
    }
    m_engine->addItem(tr("Plain roofline (%1 %, %2 %)")
                          .arg(kDefaultBandwidthEfficiency * 100.0)
                          .arg(kDefaultComputeEfficiency * 100.0),
                      static_cast<int>(EngineChoice::Plain));
    m_engine->addItem(tr("Ideal datasheet (100 %)"), static_cast<int>(EngineChoice::Ideal));
    if (m_calibrated)
        m_engine->addItem(tr("Fitted to %1").arg(m_calibratedName), kCalibratedEntry);
}

void BatchingControls::setCalibratedTerms(const std::optional<EngineTerms>& terms, const QString& name)
{
    m_calibrated = terms;
    m_calibratedName = name;
    m_syncing = true;
    const int index = m_engine->findData(kCalibratedEntry);
    if (index >= 0)
        m_engine->removeItem(index);
    if (terms)
        m_engine->addItem(tr("Fitted to %1").arg(name), kCalibratedEntry);
    m_syncing = false;
    showEngine(m_shown);
}

void BatchingControls::showModelStatus(const QString& text, bool error)
{
    showStatus(m_modelStatus, text, error);
}

void BatchingControls::showGpuStatus(const QString& text, bool error)
{
    showStatus(m_gpuStatus, text, error);
}

QString BatchingControls::modelStatus() const
{
    return m_modelStatus->isVisibleTo(this) ? m_modelStatus->text() : QString();
}

QString BatchingControls::gpuStatus() const
{
    return m_gpuStatus->isVisibleTo(this) ? m_gpuStatus->text() : QString();
}

// Each control edits a copy of the request it shows and hands it on; showRequest() writes it back without signals.
void BatchingControls::connectControls()
{
    auto changed = [this](auto apply) {
        return requestEdit(m_syncing, m_shown, apply, [this](const InferenceRequest& r) { emit edited(r); });
    };
    connect(m_model, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                const QString id = m_model->currentData().toString();
                if (id == kCustomShapeEntry) {
                    r.modelId = kCustomId;  // the shape the request carries
                    return;
                }
                r.modelId = id;
                if (id == kCustomId)
                    r.customShape.reset();  // by parameter count
            }));
    connect(m_params, &QDoubleSpinBox::valueChanged, this, changed([](InferenceRequest& r, double billions) {
                r.customParams = billions * 1e9;
                r.modelId = kCustomId;
                r.customShape.reset();
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
    connect(m_engine, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                const QVariant entry = m_engine->currentData();
                if (entry.typeId() == QMetaType::QString) {
                    chooseEngine(r, entry.toString());
                    return;
                }
                const int choice = entry.toInt();
                if (choice == kCalibratedEntry && m_calibrated) {
                    r.engine.clear();
                    r.efficiency = Efficiency{};
                    r.terms = m_calibrated;
                } else {
                    setEngineChoice(r, static_cast<EngineChoice>(choice));
                }
            }));
    connect(m_advanced, &BatchingAdvancedControls::edited, this, [this](const InferenceRequest& r) {
        if (!m_syncing)
            emit edited(r);
    });
    connect(m_loadConfig, &QPushButton::clicked, this, &BatchingControls::loadModelConfigRequested);
    connect(m_saveModel, &QPushButton::clicked, this, &BatchingControls::saveModelRequested);
    connect(m_saveGpu, &QPushButton::clicked, this, &BatchingControls::saveGpuRequested);
}

void BatchingControls::showModel(const InferenceRequest& in)
{
    // A custom shape (a loaded config.json, edited experts) has an entry of its own while the request carries it.
    const int shapeIndex = m_model->findData(kCustomShapeEntry);
    if (in.customShape) {
        const QString text = tr("%1 (custom shape)").arg(in.customShape->name);
        if (shapeIndex < 0)
            m_model->addItem(text, kCustomShapeEntry);
        else if (m_model->itemText(shapeIndex) != text)
            m_model->setItemText(shapeIndex, text);
    } else if (shapeIndex >= 0) {
        m_model->removeItem(shapeIndex);
    }
    const bool custom = in.modelId == kCustomId;
    selectData(m_model, custom && in.customShape ? kCustomShapeEntry : in.modelId);
    // Every model shows its exact parameter count; editing it turns it into a custom model of that count.
    if (custom && !in.customShape) {
        if (std::isfinite(in.customParams))
            setSpin(m_params, in.customParams / 1e9);
    } else if (const Result<ModelSpec> model = resolveModelSpec(in)) {
        if (const Result<ParamCounts> counts = countParams(model.value()))
            setSpin(m_params, double(counts.value().total) / 1e9);
    }
    setEnabledIfChanged(m_params, custom && !in.customShape);
    setEnabledIfChanged(m_saveModel, custom);
    selectData(m_weights, static_cast<int>(in.weights));
    selectData(m_kv, static_cast<int>(in.kv));
}

void BatchingControls::showGpu(const InferenceRequest& in)
{
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
    setEnabledIfChanged(m_saveGpu, customGpu);
    const int countIndex = gpuCountIndex(in.gpus);
    if (m_gpuCount->value() != countIndex)
        m_gpuCount->setValue(countIndex);
    const QString count = in.gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(in.gpus);
    if (m_gpuCountLabel->text() != count)
        m_gpuCountLabel->setText(count);
    selectData(m_link, effectiveLinkId(in));
    setEnabledIfChanged(m_link, in.gpus > 1);
}

void BatchingControls::showEngine(const InferenceRequest& in)
{
    QVariant entry;
    const std::optional<EngineChoice> choice = engineChoiceOf(in);
    if (!in.engine.isEmpty()) {
        if (const Result<EngineSelection> engine = selectEngine(in.engine))
            entry = engine.value().profile->id;
    } else if (choice == EngineChoice::Measured) {
        entry = kGenericEngineId;
    } else if (choice) {
        entry = static_cast<int>(*choice);
    } else if (m_calibrated && in.terms == *m_calibrated) {
        entry = kCalibratedEntry;
    }
    const int index = entry.isValid() ? m_engine->findData(entry) : -1;
    if (index != m_engine->currentIndex()) {
        const bool syncing = m_syncing;
        m_syncing = true;
        m_engine->setCurrentIndex(index);
        m_syncing = syncing;
    }
}

void BatchingControls::showRequest(const InferenceRequest& in)
{
    m_shown = in;
    m_syncing = true;
    showModel(in);
    showGpu(in);
    m_batch->setValue(in.batch);
    m_context->setValue(in.context);
    showEngine(in);
    m_advanced->showRequest(in);
    m_syncing = false;
}

}  // namespace ridgeline::ui
