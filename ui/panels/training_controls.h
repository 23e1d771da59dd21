#pragma once
// The Training tab's controls: model and GPU from the catalogs, sequence length, micro-batch and global batch, the
// precision policy, the optimizer, activation checkpointing, and the parallel layout (GPUs per node, nodes, tensor
// and pipeline parallel, ZeRO stage). They show one TrainingRequest and hand on an edited copy of it; the batch
// fields take 0 too, so that the core, not the spin box, says why it is refused.

#include "ui/plots/training/training_view.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QSpinBox;
class QVBoxLayout;

namespace ridgeline::ui {

class LogSlider;

class TrainingControls : public QWidget {
    Q_OBJECT
public:
    explicit TrainingControls(QWidget* parent = nullptr);

    // Every control shows the request, without emitting edited().
    void showRequest(const TrainingRequest& request);
    // The model and GPU lists again (the user's catalog changed).
    void reloadCatalogs();

    QComboBox* model() const { return m_model; }
    QComboBox* gpu() const { return m_gpu; }
    LogSlider* sequence() const { return m_sequence; }
    QSpinBox* microBatch() const { return m_microBatch; }
    QSpinBox* globalBatch() const { return m_globalBatch; }
    QComboBox* precision() const { return m_precision; }
    QComboBox* optimizer() const { return m_optimizer; }
    QComboBox* checkpointing() const { return m_checkpointing; }
    QComboBox* attention() const { return m_attention; }
    QSpinBox* gpusPerNode() const { return m_gpusPerNode; }
    QSpinBox* nodes() const { return m_nodes; }
    QSpinBox* tensorParallel() const { return m_tensorParallel; }
    QSpinBox* pipelineParallel() const { return m_pipelineParallel; }
    QComboBox* zero() const { return m_zero; }

signals:
    // A person changed a control: the request shown, with that change.
    void edited(const TrainingRequest& request);

private:
    QFormLayout* group(const QString& title);
    QSpinBox* spin(const char* name, int minimum, int maximum, const QString& toolTip);
    QComboBox* combo(const char* name, const QString& toolTip);
    void createGroups();
    void connectControls();

    TrainingRequest m_shown;
    bool m_syncing = false;
    QVBoxLayout* m_column = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_gpu = nullptr;
    LogSlider* m_sequence = nullptr;
    QSpinBox* m_microBatch = nullptr;
    QSpinBox* m_globalBatch = nullptr;
    QComboBox* m_precision = nullptr;
    QComboBox* m_optimizer = nullptr;
    QComboBox* m_checkpointing = nullptr;
    QComboBox* m_attention = nullptr;
    QSpinBox* m_gpusPerNode = nullptr;
    QSpinBox* m_nodes = nullptr;
    QSpinBox* m_tensorParallel = nullptr;
    QSpinBox* m_pipelineParallel = nullptr;
    QComboBox* m_zero = nullptr;
};

}  // namespace ridgeline::ui
