#pragma once
// What the batching tab does with files: "Load model config…" reads a Hugging Face config.json as the
// model (core/model/hf/hf_config.h, the reader `ridgeline model --model-config` uses), and "Save to my catalog…" keeps
// the custom GPU or model in the user's own catalog (core/model/catalog/user_catalog.h), after which the GPU and model
// lists and `ridgeline model --gpu ID` know it. Every refusal names the file and the field, in the tab, and changes
// nothing: neither the model shown nor a file on disk.

#include "core/model/llm/inference_request.h"

#include <QObject>
#include <QString>

#include <functional>

class QFileDialog;
class QWidget;

namespace ridgeline::ui {

class BatchingControls;

// The request the tab shows, read and replaced whole: the actions work on it without knowing the panel.
struct ShownRequest {
    std::function<InferenceRequest()> get;
    std::function<void(const InferenceRequest&)> set;
};

class BatchingCatalogActions : public QObject {
    Q_OBJECT
public:
    // `parent` owns the actions and their dialogs.
    BatchingCatalogActions(QWidget* parent, ShownRequest shown, BatchingControls* controls);

    // Opens the file dialog (window-modal, not blocking; object name "LoadModelConfigDialog").
    void loadModelConfig();
    // Reads `path` (a config.json or its folder) and, when it reads, shows it as the model.
    void loadModelConfigFrom(const QString& path);
    // Open the "Save to my catalog" dialog (object name "CatalogEntryDialog") for the custom model or GPU shown.
    void saveModel();
    void saveGpu();

private:
    QWidget* m_parent;
    ShownRequest m_shown;
    BatchingControls* m_controls;
    QString m_lastDirectory;
};

}  // namespace ridgeline::ui
