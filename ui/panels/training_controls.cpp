#include "ui/panels/training_controls.h"

#include "core/model/catalog/user_catalog.h"
#include "ui/panels/batching_control_util.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/log_slider.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

// The sequence slider's range: a short fine-tuning sequence up to a million-token context.
constexpr std::int64_t kMinSequence = 128;
constexpr std::int64_t kMaxSequence = 1 << 20;
constexpr int kMaxSpinGpus = 100000;     // kMaxTrainingGpus
constexpr int kMaxSpinBatch = 10000000;  // sequences; the core's own limit is higher

}  // namespace

TrainingControls::TrainingControls(QWidget* parent) : QWidget(parent)
{
    m_column = new QVBoxLayout(this);
    m_column->setContentsMargins(0, 0, 0, 0);
    m_column->setSpacing(10);
    createGroups();
    m_column->addStretch(1);
    reloadCatalogs();
    connectControls();
    showRequest(m_shown);
}

QFormLayout* TrainingControls::group(const QString& title)
{
    auto* box = new QGroupBox(title, this);
    box->setFont(pixelFont(17, true));
    auto* form = new QFormLayout(box);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_column->addWidget(box);
    return form;
}

QSpinBox* TrainingControls::spin(const char* name, int minimum, int maximum, const QString& toolTip)
{
    auto* s = new CheckedSpinBox;
    s->setObjectName(QLatin1String(name));
    s->setRange(minimum, maximum);
    s->setGroupSeparatorShown(true);
    s->setKeyboardTracking(false);  // a typed number counts when it is finished (Enter or focus out)
    s->setToolTip(toolTip);
    plain(s);
    return s;
}

QComboBox* TrainingControls::combo(const char* name, const QString& toolTip)
{
    auto* c = new QComboBox;
    c->setObjectName(QLatin1String(name));
    c->setToolTip(toolTip);
    plain(c);
    return c;
}

void TrainingControls::createGroups()
{
    QFormLayout* what = group(tr("Model and GPU"));
    m_model = combo("trainingModel", tr("A model from the catalog (`ridgeline catalog models`)"));
    what->addRow(plain(new QLabel(tr("Model"))), m_model);
    m_gpu = combo("trainingGpu", tr("A GPU from the catalog, with its own interconnect and network"));
    what->addRow(plain(new QLabel(tr("GPU"))), m_gpu);

    QFormLayout* batch = group(tr("Batch"));
    m_sequence = new LogSlider(kMinSequence, kMaxSequence);
    m_sequence->setObjectName(QStringLiteral("trainingSequence"));
    m_sequence->spinBox()->setToolTip(tr("Tokens per sequence"));
    m_sequence->spinBox()->setUnit(tr("tokens"));
    plain(m_sequence);
    batch->addRow(plain(new QLabel(tr("Sequence"))), m_sequence);
    m_microBatch = spin("trainingMicroBatch", 0, kMaxSpinBatch, tr("Sequences per GPU per forward and backward"));
    batch->addRow(plain(new QLabel(tr("Micro-batch"))), m_microBatch);
    m_globalBatch = spin("trainingGlobalBatch", 0, kMaxSpinBatch,
                         tr("Sequences per optimizer step over all GPUs: micro-batch \u00d7 accumulation \u00d7 dp"));
    batch->addRow(plain(new QLabel(tr("Global batch"))), m_globalBatch);

    QFormLayout* policy = group(tr("The cheap moves"));
    m_precision = combo("trainingPrecision", tr("16-bit weights, gradients and activations keep fp32 master weights"));
    for (const PrecisionPolicy p : {PrecisionPolicy::Fp32, PrecisionPolicy::Bf16Mixed, PrecisionPolicy::Fp16Mixed})
        m_precision->addItem(precisionPolicyName(p), static_cast<int>(p));
    policy->addRow(plain(new QLabel(tr("Precision"))), m_precision);
    m_optimizer = combo("trainingOptimizer", tr("AdamW: two fp32 moments; SGD: one; 8-bit Adam: two of one byte"));
    m_optimizer->addItem(tr("AdamW"), static_cast<int>(Optimizer::AdamW));
    m_optimizer->addItem(tr("SGD with momentum"), static_cast<int>(Optimizer::Sgd));
    m_optimizer->addItem(tr("8-bit Adam"), static_cast<int>(Optimizer::Adam8bit));
    policy->addRow(plain(new QLabel(tr("Optimizer"))), m_optimizer);
    m_checkpointing = combo("trainingCheckpointing", tr("Activation checkpointing: recompute in the backward what "
                                                        "the forward does not keep"));
    m_checkpointing->addItem(tr("none"), static_cast<int>(Checkpointing::None));
    m_checkpointing->addItem(tr("selective (attention)"), static_cast<int>(Checkpointing::Selective));
    m_checkpointing->addItem(tr("full (each layer)"), static_cast<int>(Checkpointing::Full));
    m_checkpointing->addItem(tr("op-level (torchtitan)"), static_cast<int>(Checkpointing::SelectiveOp));
    policy->addRow(plain(new QLabel(tr("Checkpointing"))), m_checkpointing);
    m_attention = combo("trainingAttention", tr("Flash: one fused kernel keeps the attention scores on chip; "
                                                "materialised: the scores are written to memory and kept"));
    m_attention->addItem(tr("flash (fused)"), static_cast<int>(AttentionKernel::Flash));
    m_attention->addItem(tr("materialised scores"), static_cast<int>(AttentionKernel::Materialised));
    policy->addRow(plain(new QLabel(tr("Attention"))), m_attention);

    QFormLayout* layout = group(tr("Parallelism"));
    m_gpusPerNode = spin("trainingGpusPerNode", 1, kMaxSpinGpus, tr("GPUs used in each node"));
    layout->addRow(plain(new QLabel(tr("GPUs per node"))), m_gpusPerNode);
    m_nodes = spin("trainingNodes", 1, kMaxSpinGpus, tr("Nodes, joined by the network"));
    layout->addRow(plain(new QLabel(tr("Nodes"))), m_nodes);
    m_tensorParallel = spin("trainingTp", 1, kMaxSpinGpus, tr("Tensor-parallel degree (divides the heads)"));
    layout->addRow(plain(new QLabel(tr("Tensor parallel"))), m_tensorParallel);
    m_pipelineParallel = spin("trainingPp", 1, kMaxSpinGpus, tr("Pipeline stages (at most the layers)"));
    layout->addRow(plain(new QLabel(tr("Pipeline parallel"))), m_pipelineParallel);
    m_zero = combo("trainingZero", tr("What the data-parallel ranks shard"));
    m_zero->addItem(tr("0: nothing sharded"), 0);
    m_zero->addItem(tr("1: optimizer state"), 1);
    m_zero->addItem(tr("2: + gradients"), 2);
    m_zero->addItem(tr("3: + weights (FSDP)"), 3);
    layout->addRow(plain(new QLabel(tr("ZeRO stage"))), m_zero);
}

void TrainingControls::reloadCatalogs()
{
    m_syncing = true;
    m_model->clear();
    for (const ModelSpec& m : allModels())
        m_model->addItem(m.name, m.id);
    m_gpu->clear();
    for (const GpuSpec& g : allGpus())
        m_gpu->addItem(g.name, g.id);
    m_syncing = false;
    showRequest(m_shown);
}

void TrainingControls::showRequest(const TrainingRequest& r)
{
    m_shown = r;
    m_syncing = true;
    selectData(m_model, r.modelId);
    selectData(m_gpu, r.gpuId);
    if (m_sequence->value() != r.sequence)
        m_sequence->setValue(r.sequence);
    setSpin(m_microBatch, static_cast<int>(std::min<std::int64_t>(r.microBatch, kMaxSpinBatch)));
    setSpin(m_globalBatch, static_cast<int>(std::min<std::int64_t>(r.globalBatch, kMaxSpinBatch)));
    selectData(m_precision, static_cast<int>(r.precision));
    selectData(m_optimizer, static_cast<int>(r.optimizer));
    selectData(m_checkpointing, static_cast<int>(r.checkpointing));
    selectData(m_attention, static_cast<int>(r.attention));
    setSpin(m_gpusPerNode, r.gpusPerNode);
    setSpin(m_nodes, r.nodes);
    setSpin(m_tensorParallel, r.tensorParallel);
    setSpin(m_pipelineParallel, r.pipelineParallel);
    selectData(m_zero, r.zeroStage);
    m_syncing = false;
}

void TrainingControls::connectControls()
{
    // Each control edits a copy of the request shown and hands it on; nothing while showRequest() writes them.
    auto changed = [this](auto apply) {
        return [this, apply](auto... args) {
            if (m_syncing)
                return;
            TrainingRequest r = m_shown;
            apply(r, args...);
            emit edited(r);
        };
    };
    auto comboData = [](QComboBox* box) { return box->currentData(); };
    connect(m_model, &QComboBox::activated, this,
            changed([=, this](TrainingRequest& r, int) { r.modelId = comboData(m_model).toString(); }));
    connect(m_gpu, &QComboBox::activated, this,
            changed([=, this](TrainingRequest& r, int) { r.gpuId = comboData(m_gpu).toString(); }));
    connect(m_sequence, &LogSlider::valueChanged, this,
            changed([](TrainingRequest& r, std::int64_t s) { r.sequence = s; }));
    connect(m_microBatch, &QSpinBox::valueChanged, this, changed([](TrainingRequest& r, int b) { r.microBatch = b; }));
    connect(m_globalBatch, &QSpinBox::valueChanged, this,
            changed([](TrainingRequest& r, int b) { r.globalBatch = b; }));
    connect(m_precision, &QComboBox::activated, this, changed([=, this](TrainingRequest& r, int) {
                r.precision = static_cast<PrecisionPolicy>(comboData(m_precision).toInt());
            }));
    connect(m_optimizer, &QComboBox::activated, this, changed([=, this](TrainingRequest& r, int) {
                r.optimizer = static_cast<Optimizer>(comboData(m_optimizer).toInt());
            }));
    connect(m_checkpointing, &QComboBox::activated, this, changed([=, this](TrainingRequest& r, int) {
                r.checkpointing = static_cast<Checkpointing>(comboData(m_checkpointing).toInt());
            }));
    connect(m_attention, &QComboBox::activated, this, changed([=, this](TrainingRequest& r, int) {
                r.attention = static_cast<AttentionKernel>(comboData(m_attention).toInt());
            }));
    connect(m_gpusPerNode, &QSpinBox::valueChanged, this,
            changed([](TrainingRequest& r, int n) { r.gpusPerNode = n; }));
    connect(m_nodes, &QSpinBox::valueChanged, this, changed([](TrainingRequest& r, int n) { r.nodes = n; }));
    connect(m_tensorParallel, &QSpinBox::valueChanged, this,
            changed([](TrainingRequest& r, int n) { r.tensorParallel = n; }));
    connect(m_pipelineParallel, &QSpinBox::valueChanged, this,
            changed([](TrainingRequest& r, int n) { r.pipelineParallel = n; }));
    connect(m_zero, &QComboBox::activated, this,
            changed([=, this](TrainingRequest& r, int) { r.zeroStage = comboData(m_zero).toInt(); }));
}

}  // namespace ridgeline::ui
