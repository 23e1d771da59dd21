#pragma once
// The Talk menu: present the default deck (F5) or a deck file full screen with the primary session's numbers,
// save the current view as a scene of a deck file, and export the slides as a PDF.

#include "core/scene/deck.h"
#include "core/session/session.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QAction;
class QMenuBar;
class QToolBar;
class QWidget;

namespace ridgeline::ui {

class PresentationWindow;
class RooflineChart;
class SessionDocument;
class SpeakerView;

// The roofline as the chart shows it, as a scene (kind "view", view "roofline"): the selected kernel, the zoom
// (both log axes), the kinds hidden from the legend and the first GPU drawn beside the CPU.
Scene rooflineViewScene(const RooflineChart& chart, const QString& selectedKernel);

class TalkActions : public QObject {
    Q_OBJECT
public:
    // `currentView` gives the window's view as a scene and `viewTitle` a title to offer for it; `window` parents
    // the dialogs.
    TalkActions(QWidget* window, const SessionDocument* document, std::function<Scene()> currentView,
                std::function<QString()> viewTitle);

    // The Talk menu at the end of the menu bar, Present on the toolbar.
    void addTo(QMenuBar* menus, QToolBar* toolbar);

    // F5: the default deck full screen, with the primary session's measurements (or the bundled one's).
    void startPresentation();
    // Alt+F5: the same, with the speaker view (notes, next slide, clock) on the window's screen and the slides on
    // another screen when there is one.
    void startPresentationWithSpeakerView();
    void present(const Deck& deck, bool withSpeakerView = false);
    PresentationWindow* presentation() const;
    SpeakerView* speakerView() const;
    // Talk > Save View as Scene, on for a tab a scene can show; off with `why` as its tooltip for one it cannot.
    void setViewSavable(bool savable, const QString& why = {});
    QAction* saveViewAction() const { return m_saveView; }
    // Adds the scene to the deck file (a new deck when there is none); a file that is not a deck is never
    // overwritten. nullopt on success.
    static std::optional<Error> appendSceneToDeck(Scene scene, const QString& path);

signals:
    void errorOccurred(const QString& title, const QString& message);
    void statusMessage(const QString& text, int milliseconds);

private:
    void presentDeckFile();
    void saveViewAsScene();
    void exportSlides();
    // The session the measured scenes show: the primary one, else the bundled measurement.
    const Session* talkSession(std::optional<Session>& bundled) const;

    QWidget* m_window = nullptr;
    const SessionDocument* m_document = nullptr;
    std::function<Scene()> m_currentView;
    std::function<QString()> m_viewTitle;
    QAction* m_saveView = nullptr;
    QPointer<PresentationWindow> m_presentation;  // while a talk is on screen
    QPointer<SpeakerView> m_speakerView;          // while a talk with the speaker view is on screen
};

}  // namespace ridgeline::ui
