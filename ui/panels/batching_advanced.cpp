#include "ui/panels/batching_advanced.h"

#include "core/model/catalog/links.h"
#include "ui/panels/batching_control_util.h"
#include "ui/widgets/checked_spin_box.h"

#include <QFormLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

constexpr int kMaxShapeInput = 1'000'000;
constexpr int kMaxPanelParallel = 64;

QSpinBox* intSpin(const char* name, int minimum, int maximum, const QString& special, const QString& tip)
{
    auto* spin = new CheckedSpinBox;
    spin->setObjectName(QLatin1String(name));
    spin->setRange(minimum, maximum);
    spin->setKeyboardTracking(false);
    if (!special.isEmpty())
        spin->setSpecialValueText(special);
    spin->setToolTip(tip);
    plain(spin);
    return spin;
}

}  // namespace

BatchingAdvancedControls::BatchingAdvancedControls(QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);
    m_toggle = new QToolButton;
    m_toggle->setObjectName(QStringLiteral("batchingAdvancedToggle"));
    m_toggle->setCheckable(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setAutoRaise(true);
    m_toggle->setFont(pixelFont(17, true));
    m_toggle->setToolTip(tr("Mixture of experts, expert parallelism, speculative decoding, nodes, attention format"));
    column->addWidget(m_toggle);
    m_body = new QWidget;
    m_body->setObjectName(QStringLiteral("batchingAdvanced"));
    auto* form = new QFormLayout(m_body);
    form->setContentsMargins(8, 0, 0, 0);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    createControls(form);
    m_body->hide();
    column->addWidget(m_body);
    connect(m_toggle, &QToolButton::toggled, this, [this](bool open) {
        m_toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_body->setVisible(open);
    });
    connectControls();
}

bool BatchingAdvancedControls::isExpanded() const
{
    return m_toggle->isChecked();
}

void BatchingAdvancedControls::createControls(QFormLayout* form)
{
    auto row = [form](const QString& label, QWidget* field) { form->addRow(plain(new QLabel(label)), plain(field)); };
    m_attention = new QComboBox;
    m_attention->setObjectName(QStringLiteral("batchingAttentionWeights"));
    m_attention->addItem(tr("same as weights"), -1);
    fillFormats(m_attention);
    m_attention->setToolTip(tr("Format of the attention projections (q, k, v, o), as --attention-weights"));
    row(tr("Attention weights"), m_attention);
    m_decodeAttention = new QComboBox;
    m_decodeAttention->setObjectName(QStringLiteral("batchingDecodeAttention"));
    m_decodeAttention->addItem(tr("grouped"), static_cast<int>(DecodeAttention::Grouped));
    m_decodeAttention->addItem(tr("per query head"), static_cast<int>(DecodeAttention::PerQueryHead));
    m_decodeAttention->setToolTip(
        tr("How decode attention reads a KV head its query heads share: once (grouped: FlashAttention, FlashInfer, "
           "XQA), or again for each query head from the cache (TensorRT-LLM's masked MHA through 0.9) "
           "(--decode-attention)"));
    row(tr("Decode attention"), m_decodeAttention);
    m_experts = intSpin("batchingExperts", 0, kMaxShapeInput, tr("dense"),
                        tr("Routed experts per MoE layer (--experts); editing makes a custom shape of this model"));
    row(tr("Experts"), m_experts);
    m_active = intSpin("batchingActiveExperts", 0, kMaxShapeInput, QString(),
                       tr("Experts each token is routed to (--active-experts)"));
    row(tr("Active experts"), m_active);
    m_shared = intSpin("batchingSharedExperts", 0, kMaxShapeInput, QString(),
                       tr("Experts every token uses (--shared-experts)"));
    row(tr("Shared experts"), m_shared);
    m_expertFfn = intSpin("batchingExpertFfn", 0, kMaxShapeInput, QString(),
                          tr("Inner size of one routed expert's FFN (--ffn of a custom MoE)"));
    row(tr("Expert FFN width"), m_expertFfn);
    m_ep = intSpin("batchingEp", 1, kMaxPanelParallel, QString(),
                   tr("Experts spread over this many of the GPUs (--ep); it divides the GPU count and the experts"));
    row(tr("Expert parallel"), m_ep);
    m_specTokens = intSpin("batchingSpecTokens", 0, kMaxSpeculativeTokens, tr("off"),
                           tr("Speculative decoding: draft tokens proposed per step, K (--spec-tokens)"));
    row(tr("Draft tokens K"), m_specTokens);
    m_specAcceptance = new CheckedDoubleSpinBox;
    m_specAcceptance->setObjectName(QStringLiteral("batchingSpecAcceptance"));
    m_specAcceptance->setRange(0.0, kMaxSpeculativeTokens + 1.0);
    m_specAcceptance->setDecimals(2);
    m_specAcceptance->setSingleStep(0.1);
    m_specAcceptance->setKeyboardTracking(false);
    m_specAcceptance->setToolTip(
        tr("Mean tokens gained per step, the accepted drafts plus one: 1 to K + 1 (--spec-acceptance)"));
    row(tr("Acceptance A"), m_specAcceptance);
    m_network = new QComboBox;
    m_network->setObjectName(QStringLiteral("batchingNetwork"));
    m_network->addItem(tr("the card's own"), QString());
    for (const LinkSpec& link : linkCatalog())
        if (!link.insideBox)
            m_network->addItem(link.name, link.id);
    m_network->setToolTip(tr("Network between nodes when the GPUs are more than one node holds (--network)"));
    row(tr("Network"), m_network);
    m_gpusPerNode = intSpin("batchingGpusPerNode", 0, kMaxTensorParallel, tr("the card's domain"),
                            tr("GPUs in one node (--gpus-per-node); default: the card's interconnect domain"));
    row(tr("GPUs per node"), m_gpusPerNode);
}

// The MoE fields over the model shown: a custom shape derived from it, every layer a MoE layer when it was dense.
void BatchingAdvancedControls::applyMoe(InferenceRequest& r) const
{
    Result<ModelSpec> base = resolveModelSpec(r);
    if (!base)
        return;  // the panel already shows why the model does not resolve
    ModelSpec m = std::move(base).value();
    const bool wasMoe = m.isMoe();
    m.paramsOverride = 0;  // the shape, not a count, decides from here on
    if (m.id != kCustomId) {
        m.name = tr("%1 (custom MoE)").arg(m.name);
        m.id = kCustomId;
        m.source = tr("%1, experts edited in the batching tab").arg(m.source);
    }
    m.experts = m_experts->value();
    if (m.experts == 0) {
        m.activeExperts = m.sharedExperts = m.moeFfn = m.sharedExpertFfn = m.denseLayers = 0;
        m.routerBias = false;
    } else {
        // A dense model turned MoE: top-2 routing and the dense FFN's width per expert until the person says more.
        m.activeExperts = wasMoe || m_active->value() > 0 ? m_active->value() : std::min(2, m.experts);
        m.sharedExperts = m_shared->value();
        m.moeFfn = wasMoe || m_expertFfn->value() > 0 ? m_expertFfn->value() : m.ffn;
    }
    r.modelId = kCustomId;
    r.customShape = m;
}

void BatchingAdvancedControls::connectControls()
{
    auto changed = [this](auto apply) {
        return requestEdit(m_syncing, m_shown, apply, [this](const InferenceRequest& r) { emit edited(r); });
    };
    connect(m_attention, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                const int format = m_attention->currentData().toInt();
                r.attentionWeights =
                    format < 0 ? std::nullopt : std::optional<NumberFormat>(static_cast<NumberFormat>(format));
            }));
    connect(m_decodeAttention, &QComboBox::activated, this, changed([this](InferenceRequest& r, int) {
                r.decodeAttention = static_cast<DecodeAttention>(m_decodeAttention->currentData().toInt());
            }));
    for (QSpinBox* spin : {m_experts, m_active, m_shared, m_expertFfn})
        connect(spin, &QSpinBox::valueChanged, this, changed([this](InferenceRequest& r, int) { applyMoe(r); }));
    connect(m_ep, &QSpinBox::valueChanged, this, changed([](InferenceRequest& r, int ep) { r.expertParallel = ep; }));
    auto speculative = changed([this](InferenceRequest& r, auto) {
        const int tokens = m_specTokens->value();
        // Off, the acceptance is the one token a plain step makes, whatever the box still shows.
        r.speculative = SpeculativeDecoding{tokens, tokens > 0 ? m_specAcceptance->value() : 1.0};
    });
    connect(m_specTokens, &QSpinBox::valueChanged, this, speculative);
    connect(m_specAcceptance, &QDoubleSpinBox::valueChanged, this, speculative);
    connect(m_network, &QComboBox::activated, this,
            changed([this](InferenceRequest& r, int) { r.networkLinkId = m_network->currentData().toString(); }));
    connect(m_gpusPerNode, &QSpinBox::valueChanged, this,
            changed([](InferenceRequest& r, int perNode) { r.gpusPerNode = perNode > 0 ? perNode : -1; }));
}

QString BatchingAdvancedControls::toggleText(const InferenceRequest& in) const
{
    int set = 0;
    set += in.attentionWeights.has_value();
    set += in.customShape.has_value() && in.modelId == kCustomId && in.customShape->isMoe();
    set += in.expertParallel > 1;
    set += in.speculative.enabled();
    set += !in.networkLinkId.isEmpty();
    set += in.gpusPerNode > 0;
    set += in.decodeAttention != DecodeAttention::Grouped;
    return set == 0 ? tr("Advanced: MoE, EP, speculative, nodes") : tr("Advanced (%1 set)").arg(set);
}

void BatchingAdvancedControls::showRequest(const InferenceRequest& in)
{
    m_shown = in;
    m_syncing = true;
    selectData(m_attention, in.attentionWeights ? static_cast<int>(*in.attentionWeights) : -1);
    selectData(m_decodeAttention, static_cast<int>(in.decodeAttention));
    if (const Result<ModelSpec> model = resolveModelSpec(in)) {
        const ModelSpec& m = model.value();
        setSpin(m_experts, m.experts);
        setSpin(m_active, m.activeExperts);
        setSpin(m_shared, m.sharedExperts);
        setSpin(m_expertFfn, m.moeFfn);
        for (QSpinBox* spin : {m_active, m_shared, m_expertFfn})
            setEnabledIfChanged(spin, m.isMoe());
    }
    setSpin(m_ep, in.expertParallel);
    setSpin(m_specTokens, in.speculative.tokens);
    setSpin(m_specAcceptance, in.speculative.enabled() ? in.speculative.acceptance : 1.0);
    setEnabledIfChanged(m_specAcceptance, in.speculative.enabled());
    selectData(m_network, in.networkLinkId);
    setSpin(m_gpusPerNode, std::max(0, in.gpusPerNode));
    const QString text = toggleText(in);
    if (m_toggle->text() != text)
        m_toggle->setText(text);
    m_syncing = false;
}

}  // namespace ridgeline::ui
