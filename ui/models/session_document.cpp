#include "ui/models/session_document.h"

#include "core/bench/calibration/calibration_record_builder.h"

#include "core/import/import_session.h"
#include "core/import/import_summary.h"
#include "core/import/importer.h"
#include "core/import/kernel/import_device.h"
#include "core/json/strict_reader.h"
#include "core/model/catalog/user_catalog.h"
#include "core/session/format/session_json.h"
#include "ui/models/export_naming.h"
#include "ui/models/settings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QUndoCommand>
#include <QUndoStack>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <optional>

namespace ridgeline::ui {

namespace {

QStringList summaryOf(const std::vector<ImportResult>& imports, const PlacedImports& placed)
{
    QStringList lines;
    for (std::size_t i = 0; i < imports.size(); ++i) {
        if (!lines.isEmpty())
            lines << QString();
        lines << importSummaryLines(imports[i], placed.kernelsOf(i), placed.into.value(static_cast<qsizetype>(i)));
    }
    return lines;
}

}  // namespace

// One kernel taken out of the primary session; undo puts it back where it was.
class RemoveKernelCommand : public QUndoCommand {
public:
    RemoveKernelCommand(SessionDocument* document, int index, KernelResult kernel)
        : m_document(document), m_index(index), m_kernel(std::move(kernel))
    {
        setText(SessionDocument::tr("Remove Kernel %1").arg(m_kernel.name));
    }
    void redo() override { m_document->takeKernel(m_index); }
    void undo() override { m_document->insertKernel(m_index, m_kernel); }

private:
    SessionDocument* m_document;
    int m_index;
    KernelResult m_kernel;
};

// A calibration added to or taken out of the primary session; undo does the other.
class CalibrationCommand : public QUndoCommand {
public:
    CalibrationCommand(SessionDocument* document, int index, Calibration calibration, bool add)
        : m_document(document), m_index(index), m_calibration(std::move(calibration)), m_add(add)
    {
        setText(add ? SessionDocument::tr("Add Calibration") : SessionDocument::tr("Remove Calibration"));
    }
    void redo() override { m_add ? m_document->insertCalibration(m_index, m_calibration) : take(); }
    void undo() override { m_add ? take() : m_document->insertCalibration(m_index, m_calibration); }

private:
    void take() { m_document->takeCalibration(m_index); }
    SessionDocument* m_document;
    int m_index;
    Calibration m_calibration;
    bool m_add;
};

SessionDocument::SessionDocument(Settings* settings, QObject* parent)
    : QObject(parent), m_settings(settings), m_sessions(new SessionListModel(this)), m_undo(new QUndoStack(this))
{
    connect(m_sessions, &SessionListModel::visibilityChanged, this, &SessionDocument::changed);
    connect(m_undo, &QUndoStack::cleanChanged, this, &SessionDocument::titleChanged);
}

bool SessionDocument::isDirty() const
{
    return primary() && (m_dirty || !m_undo->isClean());
}

QString SessionDocument::displayName() const
{
    if (!primary())
        return {};
    if (!m_builtInName.isEmpty())
        return m_builtInName;
    const QString path = currentPath();
    return path.isEmpty() ? tr("Unsaved measurement") : QFileInfo(path).fileName();
}

void SessionDocument::startOver(bool dirty, const QString& builtInName)
{
    m_undo->clear();
    m_undo->setClean();
    m_dirty = dirty;
    m_builtInName = builtInName;
}

void SessionDocument::editPrimary(const std::function<void(Session&)>& edit)
{
    OpenSession first = m_sessions->sessions().front();
    edit(first.session);
    m_sessions->replace(0, std::move(first));
    emit changed();
    emit titleChanged();
}

void SessionDocument::takeKernel(int index)
{
    editPrimary([index](Session& s) { s.kernels.erase(s.kernels.begin() + index); });
}

void SessionDocument::insertKernel(int index, const KernelResult& kernel)
{
    editPrimary([&](Session& s) { s.kernels.insert(s.kernels.begin() + index, kernel); });
}

bool SessionDocument::removeKernel(int index)
{
    const Session* session = primary();
    if (!session || index < 0 || index >= static_cast<int>(session->kernels.size()))
        return false;
    m_undo->push(new RemoveKernelCommand(this, index, session->kernels[static_cast<std::size_t>(index)]));
    return true;
}

void SessionDocument::showBuiltIn(const Session& session, const QString& name)
{
    m_sessions->setSessions({OpenSession{session, QString(), true}});
    startOver(false, name);
    emit replaced();
    emit changed();
    emit titleChanged();
}

const Session* SessionDocument::primary() const
{
    return m_sessions->sessions().empty() ? nullptr : &m_sessions->sessions().front().session;
}

QString SessionDocument::currentPath() const
{
    return m_sessions->sessions().empty() ? QString() : m_sessions->sessions().front().path;
}

QString SessionDocument::directory() const
{
    return defaultDirectory(m_settings->lastDirectory(), QStringLiteral("json"));
}

void SessionDocument::markDirty(bool dirty)
{
    m_dirty = dirty;
    emit titleChanged();
}

bool SessionDocument::open(const QString& path, const QString& errorTitle)
{
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        emit errorOccurred(errorTitle.isEmpty() ? tr("Cannot open session") : errorTitle, loaded.error().message);
        m_settings->removeRecentFile(path);
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_sessions->setSessions({OpenSession{std::move(loaded).value(), absolute, true}});
    m_settings->addRecentFile(absolute);
    m_settings->setLastDirectory(QFileInfo(absolute).absolutePath());
    startOver(false);
    emit replaced();
    emit changed();
    emit titleChanged();
    emit statusMessage(tr("Opened %1").arg(absolute), 4000);
    return true;
}

bool SessionDocument::addOverlay(const QString& path)
{
    if (m_sessions->sessions().empty())
        return open(path);
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        emit errorOccurred(tr("Cannot add overlay"), loaded.error().message);
        return false;
    }
    m_sessions->append(OpenSession{std::move(loaded).value(), QFileInfo(path).absoluteFilePath(), true});
    m_settings->addRecentFile(QFileInfo(path).absoluteFilePath());
    emit changed();
    return true;
}

void SessionDocument::closeAll()
{
    if (m_sessions->sessions().empty())
        return;
    cancelImport();
    m_sessions->setSessions({});
    startOver(false);
    emit replaced();
    emit changed();
    emit titleChanged();
}

bool SessionDocument::removeOverlay(int row)
{
    if (row < 1 || row >= m_sessions->rowCount())
        return false;
    const OpenSession& overlay = m_sessions->sessions()[static_cast<std::size_t>(row)];
    const QString name = fileOrTitle(overlay);
    m_sessions->remove(row);
    emit changed();
    emit statusMessage(tr("Took %1 off the chart").arg(name), 4000);
    return true;
}

void SessionDocument::setSession(const Session& session, const QString& path)
{
    m_sessions->setSessions({OpenSession{session, path, true}});
    startOver(path.isEmpty());
    emit replaced();
    emit changed();
    emit titleChanged();
}

bool SessionDocument::save(const QString& path)
{
    if (m_sessions->sessions().empty())
        return false;
    if (const std::optional<Error> error = saveSession(m_sessions->sessions().front().session, path)) {
        emit errorOccurred(tr("Cannot save session"), error->message);
        return false;
    }
    OpenSession first = m_sessions->sessions().front();
    first.path = QFileInfo(path).absoluteFilePath();
    m_sessions->replace(0, first);
    m_settings->addRecentFile(first.path);
    m_builtInName.clear();
    m_undo->setClean();
    markDirty(false);
    emit statusMessage(tr("Saved %1").arg(first.path), 4000);
    return true;
}

bool SessionDocument::importFiles(const QStringList& paths)
{
    if (paths.isEmpty())
        return false;
    // As `ridgeline import` reads them: likwid files with a group each of one run merge into one import.
    Result<std::vector<ImportResult>> read = ridgeline::importFiles(paths);
    if (!read) {
        emit errorOccurred(tr("Nothing imported"), read.error().message);
        return false;
    }
    std::vector<ImportResult> imports = std::move(read).value();
    m_pending.reset();  // a new import replaces a question nobody answered
    if (const int without = kernelsWithoutGpu(imports); without > 0) {
        const QStringList names = unmatchedDeviceNames(imports);
        m_pending = PendingImport{std::move(imports), paths};
        emit gpuQuestion(without, names);
        return true;
    }
    return addImports(std::move(imports), paths);
}

void SessionDocument::addCalibration(Calibration calibration)
{
    const qsizetype points = calibration.points.size();
    if (const Session* first = primary()) {
        m_undo->push(
            new CalibrationCommand(this, static_cast<int>(first->calibrations.size()), std::move(calibration), true));
    } else {
        m_sessions->setSessions(
            {OpenSession{sessionWithCalibration(std::nullopt, std::move(calibration)), QString(), true}});
        startOver(true);
        emit replaced();
        emit changed();
        emit titleChanged();
    }
    emit statusMessage(points == 1 ? tr("Calibrated the model on 1 run: kept in the session (unsaved)")
                                   : tr("Calibrated the model on %1 runs: kept in the session (unsaved)").arg(points),
                       6000);
}

void SessionDocument::setEngine(const QString& engine)
{
    const Session* session = primary();
    if (!session || session->engine == engine)
        return;
    editPrimary([&engine](Session& s) { s.engine = engine; });
    markDirty(true);
}

bool SessionDocument::removeCalibration(int index)
{
    const Session* session = primary();
    if (!session || index < 0 || index >= static_cast<int>(session->calibrations.size()))
        return false;
    m_undo->push(new CalibrationCommand(this, index, session->calibrations[static_cast<std::size_t>(index)], false));
    return true;
}

void SessionDocument::takeCalibration(int index)
{
    editPrimary([index](Session& s) { s.calibrations.erase(s.calibrations.begin() + index); });
}

void SessionDocument::insertCalibration(int index, const Calibration& calibration)
{
    editPrimary([&](Session& s) { s.calibrations.insert(s.calibrations.begin() + index, calibration); });
}

void SessionDocument::answerGpu(const QString& gpuId)
{
    if (!m_pending)
        return;
    PendingImport pending = std::move(*m_pending);
    m_pending.reset();
    if (gpuId.isEmpty()) {
        for (ImportResult& import : pending.imports) {
            const int without = kernelsWithoutGpu({import});
            if (without > 0)
                import.notes.append((without == 1 ? tr("1 kernel") : tr("%1 kernels").arg(without)) +
                                    tr(" kept without a roof: no GPU was chosen"));
        }
    } else {
        const Result<GpuSpec> gpu = findGpu(gpuId);
        if (!gpu) {
            emit errorOccurred(tr("Nothing imported"), gpu.error().message);
            return;
        }
        assignGpu(pending.imports, gpu.value(), QStringLiteral("chosen on import"));
    }
    addImports(std::move(pending.imports), pending.paths);
}

void SessionDocument::cancelImport()
{
    if (!m_pending)
        return;
    m_pending.reset();
    emit statusMessage(tr("Import cancelled: nothing was imported"), 6000);
}

bool SessionDocument::addImports(std::vector<ImportResult> imports, const QStringList& paths)
{
    const Session* first = primary();
    // Each import goes where core/import/import_session.h says: the primary session, or a session of its own
    // machine, shown as an overlay beside the primary (or as the primary when none is open).
    PlacedImports placed = placeImportsMovingKernels(first ? std::optional<Session>(*first) : std::nullopt, imports);
    // Said before the sessions move into the document: the kernels are read from them.
    const QStringList summary = summaryOf(imports, placed);
    std::size_t kernels = 0;
    for (std::size_t i = 0; i < imports.size(); ++i)
        kernels += placed.kernelsOf(i).size();
    const bool wasEmpty = first == nullptr;
    if (wasEmpty) {
        std::vector<OpenSession> opened;
        for (Session& session : placed.sessions)
            opened.push_back(OpenSession{std::move(session), QString(), true});
        m_sessions->setSessions(std::move(opened));
        startOver(true);
        emit replaced();
    } else {
        const bool primaryChanged =
            std::find(placed.sessionOf.begin(), placed.sessionOf.end(), 0) != placed.sessionOf.end();
        if (primaryChanged) {
            OpenSession updated = m_sessions->sessions().front();
            updated.session = std::move(placed.sessions.front());
            m_sessions->replace(0, std::move(updated));
            // The kernels' order changed under the removals the stack remembers: they can no longer be undone.
            startOver(true, m_builtInName);
        }
        for (std::size_t i = 1; i < placed.sessions.size(); ++i)
            m_sessions->append(OpenSession{std::move(placed.sessions[i]), QString(), true});
    }
    m_settings->setLastDirectory(QFileInfo(paths.first()).absolutePath());
    emit changed();
    emit titleChanged();

    const QString from = imports.size() == 1 ? imports.front().fileName : tr("%1 files").arg(imports.size());
    emit statusMessage(kernels == 0 ? tr("Imported the ceilings in %1").arg(from)
                                    : tr("Imported %n kernel(s) from %1", nullptr, static_cast<int>(kernels)).arg(from),
                       6000);
    emit imported(summary);
    return true;
}

bool SessionDocument::isSessionFile(const QString& path)
{
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return false;
    QFile file(path);
    if (file.size() > kMaxSessionFileBytes || !file.open(QIODevice::ReadOnly))
        return true;  // the loader refuses it with the reason
    const QByteArray bytes = file.readAll();
    const Result<JsonNode> root = parseStrictObject(bytes);
    if (!root)
        return bytes.contains(Session::kFormat.toUtf8());
    const JsonNode* format = root.value().find(u"format");
    return format && format->string() == Session::kFormat;
}

QStringList SessionDocument::droppedFiles(const QMimeData* mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        // likwid-perfctr's -O output goes to stdout, which scripts redirect to .log or .txt files; SGLang and
        // llama-bench write benchmark results as JSON Lines.
        for (const QLatin1String suffix : {QLatin1String(".json"), QLatin1String(".csv"), QLatin1String(".log"),
                                           QLatin1String(".txt"), QLatin1String(".jsonl")})
            if (path.endsWith(suffix, Qt::CaseInsensitive)) {
                files << path;
                break;
            }
    }
    return files;
}

}  // namespace ridgeline::ui
