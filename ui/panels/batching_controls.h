#pragma once
// The batching explorer's controls: model (catalog, custom by parameter count, a custom shape from a Hugging Face
// config.json or edited experts), precisions, GPU, its peaks, GPU count and link, batch, context, the engine terms
// and, folded away, what else `ridgeline model` can express (batching_advanced.h). They show one InferenceRequest
// and hand on an edited copy of it; loading a config and saving to the user's catalog are asked of the panel.

#include "core/model/llm/inference_request.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSlider;
class QVBoxLayout;

namespace ridgeline::ui {

class BatchingAdvancedControls;
class LogSlider;

// The GPU counts the slider offers (1, 2, 4 ... 64): the nearest one at or above `gpus`.
int panelGpuCount(int gpus);

// The model combo's entry for a custom shape (a loaded config.json, edited experts); "custom" is the model of a
// given parameter count.
inline const QString kCustomShapeEntry = QStringLiteral("custom-shape");

class BatchingControls : public QWidget {
    Q_OBJECT
public:
    explicit BatchingControls(QWidget* parent = nullptr);

    // Every control shows the request, without emitting edited().
    void showRequest(const InferenceRequest& request);
    // The model and GPU lists again (the user's catalog changed).
    void reloadCatalogs();
    // A calibration's fitted terms the engine choice offers (nullopt: none), with its name.
    void setCalibratedTerms(const std::optional<EngineTerms>& terms, const QString& name);
    // A line under the model or GPU group: what was loaded or saved, or why not (error: in the warning colour).
    void showModelStatus(const QString& text, bool error);
    void showGpuStatus(const QString& text, bool error);
    QString modelStatus() const;
    QString gpuStatus() const;

    LogSlider* batchSlider() const { return m_batch; }
    LogSlider* contextSlider() const { return m_context; }
    BatchingAdvancedControls* advanced() const { return m_advanced; }
    // A row under the engine in the decode step's group, for a choice the panel owns (which chart fills a slot).
    void addDecodeStepRow(const QString& label, QWidget* field);

signals:
    // A person changed a control: the request shown, with that change.
    void edited(const InferenceRequest& request);
    void loadModelConfigRequested();
    void saveModelRequested();
    void saveGpuRequested();

private:
    QFormLayout* group(const QString& title);
    void createModelGroup();
    void createGpuGroup();
    void createWorkloadGroup();
    void connectControls();
    void showModel(const InferenceRequest& in);
    void showGpu(const InferenceRequest& in);
    void showEngine(const InferenceRequest& in);
    void fillEngines();

    InferenceRequest m_shown;
    bool m_syncing = false;
    std::optional<EngineTerms> m_calibrated;
    QString m_calibratedName;
    QVBoxLayout* m_column = nullptr;
    QComboBox* m_model = nullptr;
    QDoubleSpinBox* m_params = nullptr;  // billions
    QComboBox* m_weights = nullptr;
    QComboBox* m_kv = nullptr;
    QPushButton* m_loadConfig = nullptr;
    QPushButton* m_saveModel = nullptr;
    QLabel* m_modelStatus = nullptr;
    QComboBox* m_gpu = nullptr;
    QDoubleSpinBox* m_peak = nullptr;
    QDoubleSpinBox* m_bandwidth = nullptr;
    QDoubleSpinBox* m_memoryGib = nullptr;
    QSlider* m_gpuCount = nullptr;  // index into 1, 2, 4 ... 64
    QLabel* m_gpuCountLabel = nullptr;
    QComboBox* m_link = nullptr;
    QPushButton* m_saveGpu = nullptr;
    QLabel* m_gpuStatus = nullptr;
    LogSlider* m_batch = nullptr;
    LogSlider* m_context = nullptr;
    QComboBox* m_engine = nullptr;
    QFormLayout* m_decodeStep = nullptr;
    BatchingAdvancedControls* m_advanced = nullptr;
};

}  // namespace ridgeline::ui
