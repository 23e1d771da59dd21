#pragma once
// File > Calibrate the Model on Benchmark Results… (in the window): the person's result files
// (vLLM, SGLang, GuideLLM, llama-bench), the facts a file may not record (model, GPU, tensor parallel size, formats;
// a static-batch run's batch and lengths, one value or one per file) and the fit, run on a worker thread through
// core's runCalibration, as `ridgeline calibrate` runs it. A fit that fails says why inside the dialog and changes
// nothing; a fit that succeeds goes to `done` and the dialog closes. Object names: "CalibrateDialog",
// "calibrateFiles", "calibrateAddFiles", "calibrateRemoveFiles", "calibrateModel", "calibrateGpu", "calibrateTp",
// "calibrateWeights", "calibrateKv", "calibrateBatch", "calibrateInputLen", "calibrateOutputLen",
// "calibrateEngineId", "calibrateProblem", "calibrateFit". With an engine id, the fit is also saved as an engine of
// the user's own (core/bench/calibration/calibration_engine.h), as `ridgeline calibrate --save-engine` saves it.

#include "core/bench/calibration/calibration_run.h"

#include <QDialog>
#include <QFutureWatcher>

#include <functional>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace ridgeline::ui {

// What the worker thread hands back: the run, or why there is none.
struct CalibrationOutcome {
    std::optional<CalibrationRun> run;
    QString problem;
};

class CalibrateDialog : public QDialog {
    Q_OBJECT
public:
    // `directory`: where the file dialog starts.
    CalibrateDialog(const QString& directory, std::function<void(Calibration)> done, QWidget* parent);
    ~CalibrateDialog() override;

    void addFiles(const QStringList& paths);
    QStringList files() const;
    // What stopped the last fit (in the dialog's words), or empty.
    QString problemText() const;
    bool isFitting() const;

private:
    QWidget* createFacts();
    static QString describeFile(const QString& path, bool& readable);
    void chooseFiles();
    void removeSelectedFiles();
    void startFit();
    void finishFit();
    void say(const QString& problem);
    std::optional<std::vector<RunFacts>> runFacts();

    QString m_directory;
    std::function<void(Calibration)> m_done;
    QListWidget* m_files = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_gpu = nullptr;
    QSpinBox* m_tp = nullptr;
    QComboBox* m_weights = nullptr;
    QComboBox* m_kv = nullptr;
    QLineEdit* m_batch = nullptr;
    QLineEdit* m_inputLen = nullptr;
    QLineEdit* m_outputLen = nullptr;
    QLineEdit* m_engineId = nullptr;  // set: the fit is also saved as the user's engine of this id
    QLabel* m_problem = nullptr;
    QPushButton* m_fit = nullptr;
    QFutureWatcher<CalibrationOutcome>* m_watcher = nullptr;
};

// The core's words for what a file does not record name the command line's options ("give --batch N"); the dialog
// names its own fields ("give Batch").
QString inDialogWords(QString message);

}  // namespace ridgeline::ui
