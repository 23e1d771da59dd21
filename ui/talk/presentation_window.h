#pragma once
// Full-screen presentation of a deck: one scene at a time, no chrome, dark and large (the scene is laid out
// 720 px high and scaled to the screen, so at 1080p every font and line is 1.5x its window size).
// PgDown / Space / Right: next; PgUp / Left: previous; 1-9: jump; Home / End; Esc: leave. A left click is
// next, a right click previous, as in slide software; the charts are not interactive on stage.

#include "core/scene/deck.h"
#include "core/session/session.h"
#include "ui/talk/scene_view.h"

#include <QGraphicsView>

#include <vector>

class QGraphicsPixmapItem;
class QGraphicsProxyWidget;
class QScreen;
class QStackedLayout;
class QVariantAnimation;

namespace ridgeline::ui {

class PresentationWindow : public QGraphicsView {
    Q_OBJECT
public:
    // `session` may be null: the scenes that show measurements then say so. It is copied.
    PresentationWindow(const Deck& deck, const Session* session, TalkLook look = {}, QWidget* parent = nullptr);
    ~PresentationWindow() override;

    int sceneCount() const { return static_cast<int>(m_views.size()); }
    int currentScene() const { return m_current; }
    SceneView* sceneView(int index) const;
    SceneView* currentView() const { return sceneView(m_current); }

    // Clamped to the deck; entering a scene starts its animation.
    void setCurrentScene(int index);
    void nextScene();
    void previousScene();
    // Full screen on `screen` (null: the one it is on), no cursor: what F5 does.
    void present(QScreen* screen = nullptr);
    // A cross-fade from the previous slide is running.
    bool transitioning() const { return m_fade != nullptr; }

signals:
    void sceneChanged(int index);
    // The speaker left (Esc or the window was closed).
    void finished();
    // The cross-fade from the previous slide ended (or was cut short by the next key).
    void transitionFinished();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void fitStage();
    void fadeFromCurrentPicture();
    void endFade();

    std::vector<SceneView*> m_views;
    QWidget* m_stage = nullptr;
    QStackedLayout* m_stack = nullptr;
    QGraphicsProxyWidget* m_proxy = nullptr;
    QGraphicsPixmapItem* m_fade = nullptr;  // the previous slide, fading out over the new one
    QVariantAnimation* m_fadeAnimation = nullptr;
    int m_current = -1;
    bool m_finished = false;
};

}  // namespace ridgeline::ui
