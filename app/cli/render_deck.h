#pragma once
// `ridgeline render --deck DECK.json [SESSION.json] --out talk.pdf | DIR/ [--format png|svg] [--size 1920x1080]
// [--theme talk]`: the talk's slides without a window. Needs a QApplication (offscreen when there is no display).
// The session is best given as a positional file: QApplication consumes a "--session" argument (X11 session
// management) before the command sees it.

#include <QSize>
#include <QString>
#include <QTextStream>

namespace ridgeline::cli {

// deckPath empty or "default": the built-in deck. sessionPath empty: no session (measured scenes say so).
// outPath ending in .pdf: one multi-page PDF; otherwise a directory with one `format` file per scene
// (format "png" when empty). theme: "talk" (the default when empty), "dark" or "light".
// layoutDir, when not empty: a directory that receives each scene's layout report as JSON (ui/chart/chart_layout.h).
// Returns the exit code: 0 written, 1 failed (a message on err), 2 bad arguments.
int renderDeck(const QString& deckPath, const QString& sessionPath, const QString& outPath, const QString& format,
               QSize size, const QString& theme, const QString& layoutDir, QTextStream& out, QTextStream& err);

}  // namespace ridgeline::cli
