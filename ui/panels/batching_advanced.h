#pragma once
// The batching tab's "Advanced" group: what `ridgeline model` can express beyond the main controls:
// the attention projections' format, the mixture-of-experts shape (experts, active, shared, expert FFN width),
// expert parallelism, speculative decoding (draft tokens K, acceptance A) and tensor parallelism across nodes
// (the network between them, GPUs per node). Folded away by default behind a toggle that says how many of them
// are set. Editing the MoE shape turns the model into a custom shape derived from the one shown.

#include "core/model/llm/inference_request.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QToolButton;

namespace ridgeline::ui {

class BatchingAdvancedControls : public QWidget {
    Q_OBJECT
public:
    explicit BatchingAdvancedControls(QWidget* parent = nullptr);

    // Every control shows the request (its model's MoE shape), without emitting edited().
    void showRequest(const InferenceRequest& request);
    bool isExpanded() const;
    QToolButton* toggle() const { return m_toggle; }

signals:
    void edited(const InferenceRequest& request);

private:
    void createControls(QFormLayout* form);
    void connectControls();
    void applyMoe(InferenceRequest& request) const;
    QString toggleText(const InferenceRequest& request) const;

    InferenceRequest m_shown;
    bool m_syncing = false;
    QToolButton* m_toggle = nullptr;
    QWidget* m_body = nullptr;
    QComboBox* m_attention = nullptr;
    QComboBox* m_decodeAttention = nullptr;
    QSpinBox* m_experts = nullptr;
    QSpinBox* m_active = nullptr;
    QSpinBox* m_shared = nullptr;
    QSpinBox* m_expertFfn = nullptr;
    QSpinBox* m_ep = nullptr;
    QSpinBox* m_specTokens = nullptr;
    QDoubleSpinBox* m_specAcceptance = nullptr;
    QComboBox* m_network = nullptr;
    QSpinBox* m_gpusPerNode = nullptr;
};

}  // namespace ridgeline::ui
