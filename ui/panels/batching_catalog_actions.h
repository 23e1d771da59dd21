#pragma once
// What the batching tab does with files (issue 18): "Load model config…" reads a Hugging Face config.json as the
// model (core/model/hf_config.h, the reader `ridgeline model --model-config` uses), and "Save to my catalog…" keeps
// the custom GPU or model in the user's own catalog (core/model/user_catalog.h), after which the GPU and model lists
// and `ridgeline model --gpu ID` know it. Every refusal names the file and the field, in the tab, and changes
// nothing: neither the model shown nor a file on disk.

#include <QObject>
#include <QString>

class QFileDialog;

namespace ridgeline::ui {

class BatchingControls;
class BatchingPanel;

class BatchingCatalogActions : public QObject {
    Q_OBJECT
public:
    BatchingCatalogActions(BatchingPanel* panel, BatchingControls* controls);

    // Opens the file dialog (window-modal, not blocking; object name "LoadModelConfigDialog").
    void loadModelConfig();
    // Reads `path` (a config.json or its folder) and, when it reads, shows it as the model.
    void loadModelConfigFrom(const QString& path);
    // Open the "Save to my catalog" dialog (object name "CatalogEntryDialog") for the custom model or GPU shown.
    void saveModel();
    void saveGpu();

private:
    BatchingPanel* m_panel;
    BatchingControls* m_controls;
    QString m_lastDirectory;
};

}  // namespace ridgeline::ui
