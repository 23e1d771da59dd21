#pragma once
// Slides from a deck at an exact size: a multi-page vector PDF (one page per scene), or a directory with one
// PNG or SVG per scene (scene-01-two-kinds.png ...). Each scene is laid out at its design size (720 px
// high) and drawn scaled into the page, so a 1080p slide has the presentation window's proportions. The PDF
// keeps charts and text as vectors; an SVG has its charts as images at the slide's resolution, because Qt
// 6.4's SVG generator drops clipping and chart lines would run off their plots. Animations are in their
// end state.

#include "core/result.h"
#include "core/scene/deck.h"
#include "core/session/session.h"
#include "ui/chart/chart_layout.h"
#include "ui/talk/scene_view.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ridgeline::ui {

enum class DeckFormat { Pdf, Png, Svg };

// "pdf", "png", "svg" (case-insensitive); nullopt for anything else.
std::optional<DeckFormat> parseDeckFormat(const QString& text);

inline constexpr QSize kDefaultSlideSize{1920, 1080};

// "scene-03-cpu-experiment.png": 1-based, two digits, the scene's id made safe for a file name.
QString sceneFileName(const Scene& scene, int index, DeckFormat format);

// One scene drawn at exactly `size` pixels.
QImage renderSceneImage(const Scene& scene, const Session* session, QSize size, TalkLook look = {});

// The layout report (ui/chart/chart_layout.h) of each scene's roofline chart as a slide of `size` draws it, in the
// slide's pixels; nullopt for a scene without one.
std::vector<std::optional<ChartLayout>> deckChartLayouts(const Deck& deck, const Session* session, QSize size,
                                                         TalkLook look = {});
// Those reports as one JSON file per scene in `directory` (scene-01-two-kinds.json ...), all or nothing.
std::optional<Error> exportDeckLayouts(const Deck& deck, const Session* session, const QString& directory, QSize size,
                                       TalkLook look = {});

// The PDF: one page per scene, each page `size` at 96 px per inch.
std::optional<Error> exportDeckPdf(const Deck& deck, const Session* session, const QString& path, QSize size,
                                   TalkLook look = {});
// One file per scene in `directory` (created when missing); `written` receives the paths in order.
std::optional<Error> exportDeckFiles(const Deck& deck, const Session* session, const QString& directory,
                                     DeckFormat format, QSize size, TalkLook look = {}, QStringList* written = nullptr);

}  // namespace ridgeline::ui
