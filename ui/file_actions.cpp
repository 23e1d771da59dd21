#include "ui/file_actions.h"

#include "core/bench/bench_importer.h"
#include "core/session/format/session_json.h"
#include "ui/calibrate_dialog.h"
#include "ui/chart/chart_export.h"
#include "ui/chart/roofline_chart.h"
#include "ui/compare_dialog.h"
#include "ui/dialogs.h"
#include "ui/models/export_naming.h"
#include "ui/models/session_document.h"
#include "ui/models/settings.h"
#include "ui/panels/batching_controls.h"
#include "ui/panels/batching_export.h"
#include "ui/panels/batching_panel.h"
#include "ui/panels/training_export.h"
#include "ui/panels/training_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

namespace ridgeline::ui {

namespace {

const QString kSessionFilter = QStringLiteral("Ridgeline sessions (*.json);;All files (*)");

}  // namespace

FileActions::FileActions(QWidget* window, SessionDocument* document, Settings* settings, RooflineChart* chart,
                         BatchingPanel* batching, TrainingPanel* training)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_settings(settings),
      m_chart(chart),
      m_batching(batching),
      m_training(training)
{
    connect(m_settings, &Settings::recentFilesChanged, this, &FileActions::updateRecentMenu);
    connect(m_document, &SessionDocument::changed, this, &FileActions::updateCompareMenu);
    connect(m_settings, &Settings::changed, this, [this] {
        if (m_compare)
            m_compare->setTheme(m_settings->theme());
    });
}

void FileActions::addTo(QMenuBar* menus)
{
    QMenu* file = menus->addMenu(tr("&File"));
    m_openAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this, &FileActions::open);
    m_openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction* overlay = file->addAction(tr("&Add Overlay…"), this, &FileActions::onAddOverlay);
    overlay->setToolTip(tr("Draw another session (another machine, or before/after) on the same chart"));
    m_compareAction = file->addAction(tr("Co&mpare With…"), this, &FileActions::onCompareWith);
    m_compareAction->setObjectName(QStringLiteral("compareWithAction"));
    m_compareAction->setToolTip(
        tr("Before/after: the open session against another session file, per ceiling and kernel"));
    m_compareOpenMenu = file->addMenu(tr("Compare With Open &Session"));
    m_compareOpenMenu->setObjectName(QStringLiteral("compareOpenMenu"));
    QAction* importAction = file->addAction(tr("&Import Profile…"), this, &FileActions::onImport);
    importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    importAction->setToolTip(
        tr("Put kernels from Nsight Compute, likwid or a plain CSV (or ERT ceilings) on the "
           "chart"));
    QAction* calibrateAction =
        file->addAction(tr("Ca&librate the Model on Benchmark Results…"), this, [this] { calibrate(); });
    calibrateAction->setObjectName(QStringLiteral("calibrateAction"));
    calibrateAction->setToolTip(
        tr("Fit the LLM model to your vLLM, SGLang, GuideLLM or llama-bench results and keep the fit in the session"));
    file->addSeparator();
    m_saveAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save"), this, [this] { save(); });
    m_saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = file->addAction(tr("Save &As…"), this, [this] { saveAs(); });
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_closeAction = file->addAction(tr("&Close Session"), this, &FileActions::closeSession);
    m_closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));  // the platform's Close may be Ctrl+F4 alone
    m_closeAction->setToolTip(tr("Close the open session and its overlays (asks first if it has unsaved changes)"));
    m_removeOverlayMenu = file->addMenu(tr("&Remove Overlay"));
    m_removeOverlayMenu->setObjectName(QStringLiteral("removeOverlayMenu"));
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export Roofline"));
    m_exportPng = m_exportMenu->addAction(tr("PNG image…"), this,
                                          [this] { onExport(tr("PNG images (*.png)"), QStringLiteral("png")); });
    m_exportPng->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportMenu->addAction(tr("SVG drawing…"), this,
                            [this] { onExport(tr("SVG drawings (*.svg)"), QStringLiteral("svg")); });
    m_exportMenu->addAction(tr("PDF document…"), this,
                            [this] { onExport(tr("PDF documents (*.pdf)"), QStringLiteral("pdf")); });
    m_exportCsv = m_exportMenu->addAction(tr("CSV of the points…"), this,
                                          [this] { onExport(tr("CSV files (*.csv)"), QStringLiteral("csv")); });
    m_copy = file->addAction(tr("&Copy Chart"), this, &FileActions::onCopy);
    m_copy->setShortcut(QKeySequence::Copy);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), m_window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();
    updateExportMenu();
    updateCompareMenu();
}

void FileActions::setExportTarget(ExportTarget target)
{
    m_target = target;
    updateExportMenu();
}

void FileActions::updateExportMenu()
{
    if (!m_exportMenu)
        return;
    switch (m_target) {
        case ExportTarget::Batching:
            m_exportMenu->setTitle(tr("&Export Batching Charts"));
            m_exportPng->setText(tr("PNG image of the batching charts…"));
            m_exportCsv->setText(tr("CSV of the throughput curve…"));
            m_copy->setText(tr("&Copy Batching Charts"));
            break;
        case ExportTarget::Training:
            m_exportMenu->setTitle(tr("&Export Training Step"));
            m_exportPng->setText(tr("PNG image of the training step…"));
            m_exportCsv->setText(tr("CSV of the step's memory and time…"));
            m_copy->setText(tr("&Copy Training Step"));
            break;
        case ExportTarget::Roofline:
            m_exportMenu->setTitle(tr("&Export Roofline"));
            m_exportPng->setText(tr("PNG image…"));
            m_exportCsv->setText(tr("CSV of the points…"));
            m_copy->setText(tr("&Copy Chart"));
            break;
    }
}

bool FileActions::maybeSave(const QString& action)
{
    if (!m_document->isDirty())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                    tr("“%1” has changes that are not saved.").arg(m_document->displayName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("UnsavedChangesBox"));
    box.setInformativeText(tr("Save them before %1? If you discard them, they are lost.").arg(action));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    switch (box.exec()) {
        case QMessageBox::Save:
            return save();
        case QMessageBox::Discard:
            return true;
        default:
            return false;
    }
}

void FileActions::open()
{
    if (!maybeSave(tr("opening another session")))
        return;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open Session"), m_document->directory(), kSessionFilter);
    if (!path.isEmpty())
        m_document->open(path);
}

void FileActions::onAddOverlay()
{
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Add Session as Overlay"), m_document->directory(), kSessionFilter);
    if (!path.isEmpty())
        m_document->addOverlay(path);
}

void FileActions::onCompareWith()
{
    if (!m_document->primary())
        return;
    // Not the native dialog: the same one everywhere, and one the tests can type a path into.
    auto* dialog = new QFileDialog(m_window, tr("Compare With Session"), m_document->directory(), kSessionFilter);
    dialog->setObjectName(QStringLiteral("CompareWithDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &FileActions::compareWithFile);
    dialog->open();
}

bool FileActions::compareWithFile(const QString& path)
{
    if (!m_document->primary())
        return false;
    const Result<Session> loaded = loadSession(path);
    if (!loaded) {
        // The loader's message names the file and the reason.
        emit errorOccurred(tr("Cannot compare"),
                           tr("Not compared: %1\nThe open session is unchanged.").arg(loaded.error().message));
        return false;
    }
    showComparison(QFileInfo(path).fileName(), loaded.value());
    return true;
}

void FileActions::compareWithOpen(int row)
{
    const std::vector<OpenSession>& open = m_document->model()->sessions();
    if (row <= 0 || row >= static_cast<int>(open.size()))
        return;
    const OpenSession& after = open[static_cast<std::size_t>(row)];
    showComparison(after.path.isEmpty() ? after.session.title : QFileInfo(after.path).fileName(), after.session);
}

void FileActions::showComparison(const QString& afterName, const Session& after)
{
    const QString path = m_document->currentPath();
    const QString beforeName = path.isEmpty() ? tr("unsaved measurement") : QFileInfo(path).fileName();
    if (!m_compare) {
        m_compare = new CompareDialog(m_window);
        m_compare->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_compare->setTheme(m_settings->theme());
    m_compare->setSides({*m_document->primary(), beforeName}, {after, afterName});
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
}

void FileActions::closeSession()
{
    if (!m_document->primary() || !maybeSave(tr("closing it")))
        return;
    m_document->closeAll();
}

void FileActions::updateCompareMenu()
{
    if (!m_compareOpenMenu)
        return;
    m_closeAction->setEnabled(m_document->primary() != nullptr);
    m_compareAction->setEnabled(m_document->primary() != nullptr);
    m_compareOpenMenu->clear();
    const std::vector<OpenSession>& open = m_document->model()->sessions();
    for (int row = 1; row < static_cast<int>(open.size()); ++row) {
        const OpenSession& overlay = open[static_cast<std::size_t>(row)];
        const QString name = fileOrTitle(overlay);
        m_compareOpenMenu->addAction(name, this, [this, row] { compareWithOpen(row); })
            ->setToolTip(tr("The open session before, %1 after").arg(name));
    }
    m_compareOpenMenu->setEnabled(open.size() > 1);
    m_removeOverlayMenu->clear();
    for (int row = 1; row < static_cast<int>(open.size()); ++row) {
        const OpenSession& overlay = open[static_cast<std::size_t>(row)];
        const QString name = fileOrTitle(overlay);
        m_removeOverlayMenu->addAction(name, this, [this, row] { m_document->removeOverlay(row); });
    }
    m_removeOverlayMenu->setEnabled(open.size() > 1);
}

bool FileActions::save()
{
    if (!m_document->primary())
        return false;
    if (m_document->currentPath().isEmpty())
        return saveAs();
    return m_document->save(m_document->currentPath());
}

bool FileActions::saveAs()
{
    const Session* primary = m_document->primary();
    if (!primary)
        return false;
    const QString suggested =
        QDir(m_document->directory()).filePath(defaultFileName(primary->title, {}, QStringLiteral("json")));
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save Session"), suggested, kSessionFilter);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return m_document->save(path);
}

QString FileActions::exportSubject() const
{
    if (m_target == ExportTarget::Training) {
        const std::optional<TrainingView>& view = m_training->view();
        return view ? trainingSubject(view->config) : QStringLiteral("training");
    }
    if (m_target == ExportTarget::Batching) {
        const BatchingScenario& scenario = m_batching->scenario();
        return scenario.error ? QStringLiteral("llm") : tr("%1 on %2").arg(scenario.modelName, scenario.gpuName);
    }
    const Session* primary = m_document->primary();
    return primary ? primary->title : QString();
}

void FileActions::onExport(const QString& filter, const QString& suffix)
{
    const QString what = m_target == ExportTarget::Training   ? QStringLiteral("training")
                         : m_target == ExportTarget::Batching ? QStringLiteral("batching")
                                                              : QStringLiteral("roofline");
    const QString suggested = QDir(defaultDirectory(m_settings->lastExportDirectory(), suffix))
                                  .filePath(defaultFileName(exportSubject(), what, suffix));
    QString path = QFileDialog::getSaveFileName(m_window, m_exportMenu->title().remove(u'&'), suggested, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    ExportSize size{m_settings->exportSize(), m_settings->exportPixelRatio()};
    if (suffix != QLatin1String("csv")) {
        // Size and pixel ratio, remembered: a speaker exports the same slide size every time.
        const std::optional<ExportSize> asked = askExportSize(m_window, size, suffix == QLatin1String("png"));
        if (!asked)
            return;
        if (!asked->pixels.isValid()) {
            emit errorOccurred(tr("Cannot export"), tr("The size must be WIDTHxHEIGHT, e.g. 1920x1080."));
            return;
        }
        size = *asked;
        m_settings->setExportSize(size.pixels);
        m_settings->setExportPixelRatio(size.pixelRatio);
    }
    if (const std::optional<Error> error = exportCurrent(path, size.pixels, size.pixelRatio)) {
        emit errorOccurred(tr("Cannot export"), error->message);
        return;
    }
    m_settings->setLastExportDirectory(QFileInfo(path).absolutePath());
    emit statusMessage(tr("Exported %1").arg(path), 4000);
    emit exported(path, m_target);
}

std::optional<Error> FileActions::exportCurrent(const QString& path, QSize size, double ratio) const
{
    const Session* primary = m_document->primary();
    switch (m_target) {
        case ExportTarget::Batching:
            return exportBatching(
                {m_batching->inputs(), primary ? std::optional<Session>(*primary) : std::nullopt, m_batching->theme()},
                path, size, ratio);
        case ExportTarget::Training:
            return exportTraining({m_training->request(), m_training->theme()}, path, size, ratio);
        case ExportTarget::Roofline:
            break;
    }
    return exportChart(ChartContent::of(*m_chart), path, size, ratio);
}

QImage FileActions::renderCurrent(QSize size, double ratio) const
{
    const Session* primary = m_document->primary();
    switch (m_target) {
        case ExportTarget::Batching:
            return renderBatchingImage(
                {m_batching->inputs(), primary ? std::optional<Session>(*primary) : std::nullopt, m_batching->theme()},
                size, ratio);
        case ExportTarget::Training:
            return renderTrainingImage({m_training->request(), m_training->theme()}, size, ratio);
        case ExportTarget::Roofline:
            break;
    }
    return renderChartImage(ChartContent::of(*m_chart), size, ratio);
}

void FileActions::onCopy()
{
    // The picture at the size the tab has on screen: what the person sees is what they paste.
    const QWidget* shown = m_target == ExportTarget::Training   ? static_cast<const QWidget*>(m_training)
                           : m_target == ExportTarget::Batching ? static_cast<const QWidget*>(m_batching)
                                                                : static_cast<const QWidget*>(m_chart);
    QApplication::clipboard()->setImage(renderCurrent(shown->size(), m_window->devicePixelRatioF()));
    emit statusMessage(tr("Chart copied to the clipboard"), 3000);
}

void FileActions::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (const QString& path : files)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave(tr("opening another session")))
                                m_document->open(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!files.isEmpty());
}

void FileActions::calibrate(const QStringList& benchmarkFiles)
{
    auto* dialog = new CalibrateDialog(
        m_document->directory(),
        [this](Calibration calibration) {
            m_document->addCalibration(std::move(calibration));
            m_batching->controls()->reloadCatalogs();  // an engine the dialog saved joins the engine choice
            if (const Session* session = m_document->primary(); session && !session->calibrations.empty())
                m_batching->showNewestCalibration(session->calibrations.back());
            emit calibrated();
        },
        m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->addFiles(benchmarkFiles);
    dialog->open();
}

QStringList FileActions::takeBenchmarkResults(QStringList& files)
{
    QStringList results;
    for (qsizetype i = files.size() - 1; i >= 0; --i) {
        if (benchFormatOfFile(files[i])) {
            results.prepend(files[i]);
            files.removeAt(i);
        }
    }
    return results;
}

void FileActions::onImport()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        m_window, tr("Import Profile"), m_document->directory(),
        tr("Profiler output (*.csv *.json *.log *.txt);;Nsight Compute, likwid, rocprof-compute or plain CSV (*.csv);;"
           "likwid-perfctr output (*.log *.txt *.csv);;ERT roofline (*.json);;All files (*)"));
    QStringList profiles = paths;
    // A serving engine's benchmark result is no profile: it goes to the Calibrate dialog.
    if (const QStringList results = takeBenchmarkResults(profiles); !results.isEmpty())
        calibrate(results);
    if (!profiles.isEmpty())
        m_document->importFiles(profiles);
}

}  // namespace ridgeline::ui
