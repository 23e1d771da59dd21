#pragma once
// One scene of a talk deck on screen: a big title, the scene's chart (the roofline window's chart, the
// batching explorer configured from the scene, or a serving scene's curve) and its caption, filled from the model and
// the measurement by computeSceneFacts. A scene whose facts fail shows the error instead of the caption.
//
// The view is laid out at a "design" size (at least 1280 x 720) and drawn scaled: the presentation window
// and the deck export scale it to the screen or page, so fonts and lines grow with the slide.

#include "core/scene/deck.h"
#include "core/scene/scene_facts.h"
#include "core/session/session.h"
#include "ui/plots/layout/chart_theme.h"

#include <QPointer>
#include <QWidget>

#include <cstdint>
#include <optional>

class QLabel;
class QVariantAnimation;

namespace ridgeline::ui {

class BatchingPanel;
class LinkBars;
class RooflineChart;
class ServingSceneChart;
class TrainingSlide;

// Scenes are laid out at least 1280 x 720 and scaled to the output: x1.5 at 1080p, so a 30 px title is 45 px.
// A 4:3 screen gets a taller layout (1280 x 960 at 1024 x 768), never a narrower one: two charts side by side
// need the width.
inline constexpr int kTalkDesignWidth = 1280;
inline constexpr int kTalkDesignHeight = 720;
inline constexpr int kTalkAnimationMs = 2000;

// "talk" (dark, the default on stage), "dark" or "light".
struct TalkLook {
    ThemeKind theme = ThemeKind::Dark;
    static std::optional<TalkLook> parse(const QString& name);
};

class SceneView : public QWidget {
    Q_OBJECT
public:
    // `session` may be null (scenes that show measurements then say so); it is copied.
    SceneView(const Scene& scene, const Session* session, TalkLook look = {}, QWidget* parent = nullptr);
    ~SceneView() override;

    const Scene& scene() const { return m_scene; }
    // The facts and caption, or the reason there are none.
    const Result<SceneFacts>& facts() const { return m_facts; }
    bool failed() const { return !m_facts.ok(); }
    // What the caption line shows: the filled caption, or the error message.
    QString captionText() const;
    QString titleText() const;

    // "3 / 8" in the corner; total 0 hides it.
    void setPosition(int index, int total);

    // Entering the scene starts its animation (batch 1 -> 256, the KV cache growing), if it has one.
    void enter();
    // Jumps every running animation to its end state (export, leaving the scene).
    void finishAnimation();
    bool animating() const;
    bool hasAnimation() const { return m_animationTo > m_animationFrom; }

    // The widgets shown, for tests; null when the scene does not use them.
    RooflineChart* rooflineChart() const { return m_chart; }
    BatchingPanel* batchingPanel() const { return m_panel; }
    LinkBars* linkBars() const { return m_linkBars; }
    ServingSceneChart* servingChart() const { return m_servingChart; }
    TrainingSlide* trainingSlide() const { return m_trainingSlide; }

    // The scale from design pixels to an output of `size` pixels, and the design size it implies (the output's
    // aspect, at least kTalkDesignWidth x kTalkDesignHeight).
    static double scaleFor(QSize size);
    static QSize designSize(QSize size);

signals:
    // The animation reached its end state.
    void animationFinished();

private:
    QWidget* createRoofline();
    QWidget* createBatching();
    QWidget* createServing();
    QWidget* createMessage(const QString& text);
    void applyBatch(std::int64_t batch);

    Scene m_scene;
    std::optional<Session> m_session;
    TalkLook m_look;
    Result<SceneFacts> m_facts;
    QLabel* m_title = nullptr;
    QLabel* m_caption = nullptr;
    QString m_offScale;  // what the chart shows instead, when the scene's batch or context is off the panel's scales
    QLabel* m_counter = nullptr;
    RooflineChart* m_chart = nullptr;
    BatchingPanel* m_panel = nullptr;
    LinkBars* m_linkBars = nullptr;
    ServingSceneChart* m_servingChart = nullptr;
    TrainingSlide* m_trainingSlide = nullptr;
    QPointer<QVariantAnimation> m_animation;
    std::int64_t m_animationFrom = 0;  // batch
    std::int64_t m_animationTo = 0;
};

}  // namespace ridgeline::ui
