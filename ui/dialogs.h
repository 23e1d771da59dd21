#pragma once
// The window's small dialogs: the export size, a custom GPU roofline, and the import summary.

#include "core/model/roofline.h"

#include <QSize>
#include <QStringList>

#include <optional>

class QMenuBar;
class QWidget;

namespace ridgeline::ui {

struct ExportSize {
    QSize pixels;  // invalid when what was typed is not WIDTHxHEIGHT
    double pixelRatio = 1.0;
};

// Asks for the size and (for PNG) the device pixel ratio, starting from the last ones; nullopt when cancelled.
std::optional<ExportSize> askExportSize(QWidget* parent, ExportSize current, bool png);

// Asks for a GPU's name, dense peak and bandwidth; nullopt when cancelled.
std::optional<NamedRoof> askCustomGpu(QWidget* parent);

// What an import read and skipped, in a window-modal dialog that does not block (open(), not exec()): tests and
// drops never wait on a nested event loop. Its object name is "ImportSummaryDialog".
void showImportSummary(QWidget* parent, const QStringList& lines);

// Help > Keyboard Shortcuts: built from the menus' actions, so the list can never disagree with the keys that work,
// then the roofline chart's own keys (zoom, pan, stepping through the kernels), which no menu holds.
void showShortcuts(QWidget* parent, const QMenuBar* menus);
// Help > About: the version, the OpenBLAS kernel that runs, Qt and the machine.
void showAbout(QWidget* parent);

}  // namespace ridgeline::ui
