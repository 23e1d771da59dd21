#include "ui/talk/talk_actions.h"

#include "core/session/format/bundled_session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/models/session_document.h"
#include "ui/talk/deck_export.h"
#include "ui/talk/presentation_window.h"
#include "ui/talk/speaker_view.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QToolBar>

namespace ridgeline::ui {

TalkActions::TalkActions(QWidget* window, const SessionDocument* document, std::function<Scene()> currentView,
                         std::function<QString()> viewTitle)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_currentView(std::move(currentView)),
      m_viewTitle(std::move(viewTitle))
{
}

Scene rooflineViewScene(const RooflineChart& chart, const QString& selectedKernel)
{
    Scene scene;
    scene.kind = QStringLiteral("view");
    scene.view = QStringLiteral("roofline");
    if (!selectedKernel.isEmpty())
        scene.highlight = QStringList{selectedKernel};
    const PlotRange range = chart.visibleRange();
    if (isLogRange(range.xMin, range.xMax))
        scene.intensityRange = AxisRange{range.xMin, range.xMax};
    if (isLogRange(range.yMin, range.yMax))
        scene.performanceRange = AxisRange{range.yMin, range.yMax};
    scene.hiddenKinds = chart.hiddenKernelKinds();
    // A scene draws one GPU beside the CPU: the first one shown, by its numbers and name.
    if (!chart.extraRoofs().empty()) {
        const NamedRoof& gpu = chart.extraRoofs().front();
        scene.gpu.label = gpu.name;
        scene.gpu.peakTflops = gpu.roof.peakGflops / 1e3;
        scene.gpu.bandwidthTbs = gpu.roof.bandwidthGbps / 1e3;
    }
    return scene;
}

PresentationWindow* TalkActions::presentation() const
{
    return m_presentation.data();
}

SpeakerView* TalkActions::speakerView() const
{
    return m_speakerView.data();
}

void TalkActions::addTo(QMenuBar* menus, QToolBar* toolbar)
{
    QMenu* talk = menus->addMenu(tr("&Talk"));
    QAction* present = talk->addAction(QIcon::fromTheme(QStringLiteral("x-office-presentation")), tr("&Present"), this,
                                       &TalkActions::startPresentation);
    present->setShortcut(QKeySequence(Qt::Key_F5));
    present->setToolTip(tr("The source text's story, one scene per claim, full screen (F5; Esc leaves)"));
    QAction* speaker =
        talk->addAction(tr("Present with Spea&ker View"), this, &TalkActions::startPresentationWithSpeakerView);
    speaker->setShortcut(QKeySequence(Qt::ALT | Qt::Key_F5));
    speaker->setToolTip(
        tr("The slides full screen on the other screen, your notes, the next slide and a clock on "
           "this one (Alt+F5)"));
    talk->addAction(tr("Present &Deck File…"), this, &TalkActions::presentDeckFile);
    talk->setToolTipsVisible(true);  // a disabled Save View as Scene says why
    m_saveView = talk->addAction(tr("&Save View as Scene…"), this, &TalkActions::saveViewAsScene);
    m_saveView->setObjectName(QStringLiteral("saveViewAsSceneAction"));
    setViewSavable(true);
    talk->addAction(tr("&Export Slides as PDF…"), this, &TalkActions::exportSlides);
    if (toolbar) {
        toolbar->addSeparator();
        toolbar->addAction(present);
    }
}

void TalkActions::setViewSavable(bool savable, const QString& why)
{
    if (!m_saveView)
        return;
    m_saveView->setEnabled(savable);
    m_saveView->setToolTip(savable ? tr("Add the current view, with a title and a caption, to a deck file") : why);
}

const Session* TalkActions::talkSession(std::optional<Session>& bundled) const
{
    if (const Session* primary = m_document->primary())
        return primary;
    if (Result<Session> shipped = bundledSession())
        bundled = std::move(shipped).value();
    return bundled ? &*bundled : nullptr;
}

void TalkActions::startPresentation()
{
    const Result<Deck> deck = defaultDeck();
    if (!deck) {
        emit errorOccurred(tr("Cannot present"), deck.error().message);
        return;
    }
    present(deck.value());
}

void TalkActions::startPresentationWithSpeakerView()
{
    const Result<Deck> deck = defaultDeck();
    if (!deck) {
        emit errorOccurred(tr("Cannot present"), deck.error().message);
        return;
    }
    present(deck.value(), true);
}

void TalkActions::present(const Deck& deck, bool withSpeakerView)
{
    std::optional<Session> bundled;
    // Its own top-level window; it deletes itself when the speaker leaves.
    auto* presentation = new PresentationWindow(deck, talkSession(bundled));
    presentation->setAttribute(Qt::WA_DeleteOnClose);
    connect(presentation, &PresentationWindow::finished, presentation, &QWidget::close);
    m_presentation = presentation;
    if (!withSpeakerView) {
        presentation->present();
        return;
    }
    auto* speaker = new SpeakerView(presentation);
    speaker->setAttribute(Qt::WA_DeleteOnClose);
    m_speakerView = speaker;
    QScreen* here = m_window && m_window->screen() ? m_window->screen() : QGuiApplication::primaryScreen();
    QScreen* stage = here;
    for (QScreen* screen : QGuiApplication::screens())
        if (screen != here) {
            stage = screen;
            break;
        }
    presentation->present(stage);
    if (here)
        speaker->setGeometry(here->availableGeometry());
    speaker->show();
    if (stage == here) {
        // One screen (a rehearsal): the notes stay on top; the keys drive the slides behind them.
        speaker->raise();
        speaker->activateWindow();
        emit statusMessage(tr("One screen: the speaker view is in front of the slides; with a second screen the "
                              "slides go there"),
                           8000);
    }
}

void TalkActions::presentDeckFile()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Present Deck"), m_document->directory(),
                                                      tr("Ridgeline decks (*.json)"));
    if (path.isEmpty())
        return;
    const Result<Deck> deck = loadDeck(path);
    if (!deck) {
        emit errorOccurred(tr("Cannot present"), deck.error().message);
        return;
    }
    present(deck.value());
}

std::optional<Error> TalkActions::appendSceneToDeck(Scene scene, const QString& path)
{
    Deck deck;
    deck.title = tr("My talk");
    if (QFileInfo::exists(path)) {
        Result<Deck> existing = loadDeck(path);
        if (!existing)
            return existing.error();  // never overwrite a file that is not a deck
        deck = std::move(existing).value();
    }
    appendScene(deck, std::move(scene));
    return saveDeck(deck, path);
}

void TalkActions::saveViewAsScene()
{
    Scene scene = m_currentView();
    bool ok = false;
    scene.title =
        QInputDialog::getText(m_window, tr("Save View as Scene"), tr("Title:"), QLineEdit::Normal, m_viewTitle(), &ok);
    if (!ok || scene.title.trimmed().isEmpty())
        return;
    scene.caption = QInputDialog::getMultiLineText(
        m_window, tr("Save View as Scene"),
        tr("Caption (numbers as {placeholders}, e.g. {tokens_s}, {step_ms}, {kv_total_gib}, {max_batch}):"), QString(),
        &ok);
    if (!ok)
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Add the Scene to a Deck"), m_document->directory() + QStringLiteral("/talk.json"),
        tr("Ridgeline decks (*.json)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    if (const auto error = appendSceneToDeck(std::move(scene), path)) {
        emit errorOccurred(tr("Scene not saved"), error->message);
        return;
    }
    emit statusMessage(tr("Added the scene to %1").arg(path), 5000);
}

void TalkActions::exportSlides()
{
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export Slides"), m_document->directory(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const Result<Deck> deck = defaultDeck();
    if (!deck) {
        emit errorOccurred(tr("Slides not exported"), deck.error().message);
        return;
    }
    std::optional<Session> bundled;
    if (const auto error = exportDeckPdf(deck.value(), talkSession(bundled), path, QSize(1920, 1080))) {
        emit errorOccurred(tr("Slides not exported"), error->message);
        return;
    }
    emit statusMessage(tr("Wrote %1 slides to %2").arg(deck.value().scenes.size()).arg(path), 5000);
}

}  // namespace ridgeline::ui
