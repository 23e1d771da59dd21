#pragma once
// The batching explorer's controls: model, parameters, precisions, GPU, its peaks, GPU count and link, batch,
// context and the ideal-datasheet switch. They show one InferenceRequest and hand on an edited copy of it.

#include "core/model/inference_request.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSlider;
class QVBoxLayout;

namespace ridgeline::ui {

class LogSlider;

// The GPU counts the slider offers (1, 2, 4 ... 64): the nearest one at or above `gpus`.
int panelGpuCount(int gpus);

class BatchingControls : public QWidget {
    Q_OBJECT
public:
    explicit BatchingControls(QWidget* parent = nullptr);

    // Every control shows the request, without emitting edited().
    void showRequest(const InferenceRequest& request);

    LogSlider* batchSlider() const { return m_batch; }
    LogSlider* contextSlider() const { return m_context; }

signals:
    // A person changed a control: the request shown, with that change.
    void edited(const InferenceRequest& request);

private:
    QFormLayout* group(const QString& title);
    void createModelGroup();
    void createGpuGroup();
    void createWorkloadGroup();
    void connectControls();

    InferenceRequest m_shown;
    bool m_syncing = false;
    QVBoxLayout* m_column = nullptr;
    QComboBox* m_model = nullptr;
    QDoubleSpinBox* m_params = nullptr;  // billions
    QComboBox* m_weights = nullptr;
    QComboBox* m_kv = nullptr;
    QComboBox* m_gpu = nullptr;
    QDoubleSpinBox* m_peak = nullptr;
    QDoubleSpinBox* m_bandwidth = nullptr;
    QDoubleSpinBox* m_memoryGib = nullptr;
    QSlider* m_gpuCount = nullptr;  // index into 1, 2, 4 ... 64
    QLabel* m_gpuCountLabel = nullptr;
    QComboBox* m_link = nullptr;
    LogSlider* m_batch = nullptr;
    LogSlider* m_context = nullptr;
    QCheckBox* m_ideal = nullptr;
};

}  // namespace ridgeline::ui
