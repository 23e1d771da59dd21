#include "ui/calibrate_dialog.h"

#include "core/bench/calibration/calibration_engine.h"
#include "core/model/llm/engine_catalog.h"

#include "core/bench/bench_importer.h"
#include "core/model/catalog/user_catalog.h"
#include "ui/panels/batching_control_util.h"
#include "ui/widgets/checked_spin_box.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace ridgeline::ui {

namespace {

constexpr qint64 kDescribeMaxBytes = 8 << 20;  // read on adding it up to this size: a few tens of milliseconds

// The batching tab's storage formats and their labels, after "as the files record it".
QComboBox* formatChooser(const QString& name, const QString& unrecorded)
{
    auto* box = new QComboBox;
    box->setObjectName(name);
    box->addItem(unrecorded, -1);
    fillFormats(box);
    return box;
}

std::optional<NumberFormat> chosenFormat(const QComboBox* box)
{
    const int format = box->currentData().toInt();
    return format < 0 ? std::nullopt : std::optional<NumberFormat>(static_cast<NumberFormat>(format));
}

QLineEdit* countField(const QString& name)
{
    auto* field = new QLineEdit;
    field->setObjectName(name);
    field->setPlaceholderText(QCoreApplication::translate("ridgeline::ui::CalibrateDialog",
                                                          "as the files record it; N, or N,N,… one per file"));
    return field;
}

}  // namespace

QString inDialogWords(QString message)
{
    // Longest first: "--input-len N" before "--input-len".
    static const std::pair<const char*, const char*> kWords[] = {
        {"--model ID", "Model"},
        {"--gpu ID", "GPU"},
        {"--tp N", "Tensor parallel"},
        {"--weights FORMAT", "Weights"},
        {"--batch N", "Batch"},
        {"--input-len N", "Prompt tokens"},
        {"--output-len N", "Output tokens"},
        {"--model", "Model"},
        {"--gpu", "GPU"},
        {"--tp", "Tensor parallel"},
        {"--weights", "Weights"},
        {"--kv", "KV cache"},
        {"--batch", "Batch"},
        {"--input-len", "Prompt tokens"},
        {"--output-len", "Output tokens"},
    };
    for (const auto& [option, field] : kWords)
        message.replace(QLatin1String(option), QCoreApplication::translate("ridgeline::ui::CalibrateDialog", field));
    return message;
}

CalibrateDialog::CalibrateDialog(const QString& directory, std::function<void(Calibration)> done, QWidget* parent)
    : QDialog(parent), m_directory(directory), m_done(std::move(done))
{
    setObjectName(QStringLiteral("CalibrateDialog"));
    setWindowTitle(tr("Calibrate the Model on Benchmark Results"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Fits the LLM model's engine terms (fixed times per layer and step, shares of bandwidth and peak) to your "
           "own runs: vllm bench serve / benchmark_serving.py and benchmark_latency.py JSON, SGLang bench_serving "
           "JSONL, GuideLLM reports, llama-bench JSON or CSV. The fit joins the open session; the batching tab draws "
           "your runs over the model's curves before and after it."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_files = new QListWidget;
    m_files->setObjectName(QStringLiteral("calibrateFiles"));
    m_files->setAccessibleName(tr("Benchmark result files"));
    m_files->setAccessibleDescription(tr("The files the fit runs on, each with what it is or why it is none"));
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_files->setMinimumHeight(110);
    layout->addWidget(m_files);
    auto* fileButtons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add Files…"));
    add->setObjectName(QStringLiteral("calibrateAddFiles"));
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName(QStringLiteral("calibrateRemoveFiles"));
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch(1);
    layout->addLayout(fileButtons);
    connect(add, &QPushButton::clicked, this, &CalibrateDialog::chooseFiles);
    connect(remove, &QPushButton::clicked, this, &CalibrateDialog::removeSelectedFiles);

    layout->addWidget(createFacts());
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("calibrateProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_problem->hide();
    layout->addWidget(m_problem);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_fit = buttons->addButton(tr("Fit"), QDialogButtonBox::AcceptRole);
    m_fit->setObjectName(QStringLiteral("calibrateFit"));
    m_fit->setDefault(true);
    m_fit->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &CalibrateDialog::startFit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_watcher = new QFutureWatcher<CalibrationOutcome>(this);
    connect(m_watcher, &QFutureWatcher<CalibrationOutcome>::finished, this, &CalibrateDialog::finishFit);
    resize(640, 600);
}

// A fit still running when the dialog goes finishes on its thread; its result is dropped with the watcher.
CalibrateDialog::~CalibrateDialog() = default;

QWidget* CalibrateDialog::createFacts()
{
    auto* box = new QWidget;
    auto* form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    const QString unrecorded = tr("as the files record it");
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("calibrateModel"));
    m_model->addItem(unrecorded, QString());
    for (const ModelSpec& model : allModels())
        m_model->addItem(isUserModel(model.id) ? tr("%1 (mine)").arg(model.name) : model.name, model.id);
    m_gpu = new QComboBox;
    m_gpu->setObjectName(QStringLiteral("calibrateGpu"));
    m_gpu->addItem(unrecorded, QString());
    for (const GpuSpec& gpu : allGpus())
        m_gpu->addItem(isUserGpu(gpu.id) ? tr("%1 (mine)").arg(gpu.name) : gpu.name, gpu.id);
    m_tp = new CheckedSpinBox;
    m_tp->setObjectName(QStringLiteral("calibrateTp"));
    m_tp->setRange(0, kMaxRunTensorParallel);
    m_tp->setSpecialValueText(unrecorded);  // 0
    m_weights = formatChooser(QStringLiteral("calibrateWeights"), unrecorded);
    m_kv = formatChooser(QStringLiteral("calibrateKv"), tr("as the files record it, else bf16"));
    m_batch = countField(QStringLiteral("calibrateBatch"));
    m_inputLen = countField(QStringLiteral("calibrateInputLen"));
    m_outputLen = countField(QStringLiteral("calibrateOutputLen"));
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("GPU"), m_gpu);
    form->addRow(tr("Tensor parallel"), m_tp);
    form->addRow(tr("Weights"), m_weights);
    form->addRow(tr("KV cache"), m_kv);
    auto* staticNote = new QLabel(tr("A static-batch run (vLLM's benchmark_latency.py records none of these):"));
    staticNote->setWordWrap(true);
    form->addRow(staticNote);
    form->addRow(tr("Batch"), m_batch);
    form->addRow(tr("Prompt tokens"), m_inputLen);
    form->addRow(tr("Output tokens"), m_outputLen);
    m_engineId = new QLineEdit;
    m_engineId->setObjectName(QStringLiteral("calibrateEngineId"));
    m_engineId->setPlaceholderText(tr("optional: an id, e.g. my-vllm-h100"));
    m_engineId->setToolTip(
        tr("Also keep the fit as an engine of your own under this id (engines.json beside your "
           "catalog's GPUs and models): the batching tab, `ridgeline model --engine ID` and "
           "`ridgeline catalog engines` then offer it like the built-in engines"));
    form->addRow(tr("Save as my engine"), m_engineId);
    return box;
}

// What the file is, read at once when it is small: "vLLM latency JSON, 1 run", or why it is no benchmark result
// (the fit would refuse it with the same words). A large file is read when fitted, off the window's thread.
QString CalibrateDialog::describeFile(const QString& path, bool& readable)
{
    readable = true;
    if (QFileInfo(path).size() > kDescribeMaxBytes)
        return tr("read when fitted");
    const Result<BenchImport> read = importBenchFile(path);
    if (!read) {
        readable = false;
        return read.error().message;
    }
    const std::size_t runs = read.value().points.size();
    const QString format = describeBenchFormat(read.value().format);
    return runs == 1 ? tr("%1, 1 run").arg(format) : tr("%1, %2 runs").arg(format).arg(runs);
}

void CalibrateDialog::addFiles(const QStringList& paths)
{
    for (const QString& path : paths) {
        if (files().contains(path))
            continue;
        bool readable = true;
        const QString what = describeFile(path, readable);
        const QString name = QFileInfo(path).fileName();
        auto* item = new QListWidgetItem(readable ? tr("%1  \u00b7  %2").arg(name, what) : name, m_files);
        item->setData(Qt::UserRole, path);
        item->setToolTip(readable ? path : what);
        if (!readable) {
            item->setText(tr("%1  \u00b7  not a benchmark result (hover for why)").arg(name));
            item->setForeground(QColor(0xb3, 0x26, 0x1e));
        }
    }
    if (!paths.isEmpty())
        m_directory = QFileInfo(paths.first()).absolutePath();
    m_fit->setEnabled(m_files->count() > 0 && !isFitting());
}

QStringList CalibrateDialog::files() const
{
    QStringList paths;
    for (int i = 0; i < m_files->count(); ++i)
        paths << m_files->item(i)->data(Qt::UserRole).toString();
    return paths;
}

QString CalibrateDialog::problemText() const
{
    return m_problem->isVisible() ? m_problem->text() : QString();
}

bool CalibrateDialog::isFitting() const
{
    return m_watcher->isRunning();
}

void CalibrateDialog::chooseFiles()
{
    auto* chooser = new QFileDialog(this, tr("Benchmark Results"), m_directory,
                                    tr("Benchmark results (*.json *.jsonl *.csv);;All files (*)"));
    chooser->setObjectName(QStringLiteral("CalibrateFileDialog"));
    chooser->setFileMode(QFileDialog::ExistingFiles);
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    connect(chooser, &QFileDialog::filesSelected, this, &CalibrateDialog::addFiles);
    chooser->open();
}

void CalibrateDialog::removeSelectedFiles()
{
    qDeleteAll(m_files->selectedItems());
    m_fit->setEnabled(m_files->count() > 0 && !isFitting());
}

void CalibrateDialog::say(const QString& problem)
{
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

// The facts as the core takes them, one set per file; nothing (and the problem said) when a field is not a number.
std::optional<std::vector<RunFacts>> CalibrateDialog::runFacts()
{
    const std::size_t count = static_cast<std::size_t>(m_files->count());
    RunFacts shared;
    shared.modelId = m_model->currentData().toString();
    shared.gpuId = m_gpu->currentData().toString();
    if (m_tp->value() > 0)
        shared.tensorParallel = m_tp->value();
    shared.weights = chosenFormat(m_weights);
    shared.kv = chosenFormat(m_kv);
    const auto batches = perFileCounts(m_batch->text(), kMaxBatch, count, tr("Batch"));
    const auto inputs = perFileCounts(m_inputLen->text(), kMaxRunTokens, count, tr("Prompt tokens"));
    const auto outputs = perFileCounts(m_outputLen->text(), kMaxRunTokens, count, tr("Output tokens"));
    for (const auto* counts : {&batches, &inputs, &outputs}) {
        if (!counts->ok()) {
            say(counts->error().message);
            return std::nullopt;
        }
    }
    std::vector<RunFacts> perFile(count, shared);
    for (std::size_t i = 0; i < count; ++i) {
        perFile[i].batch = batches.value()[i];
        perFile[i].inputTokens = inputs.value()[i];
        perFile[i].outputTokens = outputs.value()[i];
    }
    return perFile;
}

void CalibrateDialog::startFit()
{
    if (isFitting() || m_files->count() == 0)
        return;
    std::optional<std::vector<RunFacts>> facts = runFacts();
    if (!facts)
        return;
    say(QString());
    m_fit->setEnabled(false);
    m_fit->setText(tr("Fitting…"));
    setCursor(Qt::BusyCursor);
    const QStringList paths = files();
    const QString generator = QStringLiteral("ridgeline %1 (window)").arg(QCoreApplication::applicationVersion());
    m_watcher->setFuture(QtConcurrent::run([paths, generator, perFile = std::move(*facts)] {
        Result<CalibrationRun> run = runCalibration(paths, BenchFormat::Auto, perFile, FitOptions{}, generator);
        CalibrationOutcome outcome;
        if (run)
            outcome.run = std::move(run).value();
        else
            outcome.problem = inDialogWords(run.error().message);
        return outcome;
    }));
}

void CalibrateDialog::finishFit()
{
    unsetCursor();
    m_fit->setText(tr("Fit"));
    m_fit->setEnabled(m_files->count() > 0);
    CalibrationOutcome outcome = m_watcher->result();
    if (!outcome.run) {
        say(outcome.problem);
        return;
    }
    // An engine that cannot be saved (its id taken or not one --engine takes, the file unreadable) keeps the dialog
    // open with why, and the fit is not added either: nothing changes until the person fixes it.
    if (const QString id = m_engineId->text().trimmed(); !id.isEmpty()) {
        const Result<EngineProfile> engine = engineFromCalibration(outcome.run->record, id);
        const Result<QString> saved = engine ? saveUserEngine(engine.value()) : Result<QString>(engine.error());
        if (!saved) {
            say(saved.error().message);
            return;
        }
    }
    if (m_done)
        m_done(std::move(outcome.run->record));
    accept();
}

}  // namespace ridgeline::ui
