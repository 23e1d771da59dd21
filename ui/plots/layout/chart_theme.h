#pragma once
// Colours, pens and fonts of the roofline and bandwidth charts, light and dark. Sized for a 1080p projector:
// no text under 12 pt, no line under 2 px.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

namespace ridgeline::ui {

enum class ThemeKind { Light, Dark };

// The house font at a pixel size (not a point size: the same chart goes to screens, images, SVG and PDF, whose
// dpi differ). 16 px is 12 pt at 96 dpi, the smallest text a projector audience can read.
QFont pixelFont(int pixelSize, bool bold = false);

// "light" / "dark" (case-insensitive); anything else is nullopt-like: returns false.
bool parseThemeKind(const QString& text, ThemeKind* kind);
QString themeKindName(ThemeKind kind);

struct ChartTheme {
    ThemeKind kind = ThemeKind::Light;
    QColor background;
    QColor plotBackground;
    QColor text;
    QColor mutedText;
    QColor grid;
    QColor minorGrid;
    QColor computeRoof;    // every compute ceiling; the best one is drawn bold
    QColor memoryRegion;   // shading left of the ridge
    QColor computeRegion;  // shading right of the ridge
    QColor isoEfficiency;
    QColor highlight;    // ring around the selected kernel
    QColor regression;   // a figure that got worse (the before/after comparison): text on `background`
    QColor improvement;  // a figure that got better

    QFont titleFont;
    QFont axisTitleFont;
    QFont axisLabelFont;
    QFont ceilingLabelFont;
    QFont kernelLabelFont;
    QFont legendFont;

    double boldRoofWidth = 3.5;  // px
    double roofWidth = 2.0;
    double markerSize = 13.0;

    static ChartTheme make(ThemeKind kind);

    // Bandwidth roof colour per memory level (L1 .. DRAM); unknown levels get the DRAM colour.
    QColor bandwidthColor(const QString& level) const;
    // Kernel colour per kind ("sgemm", "add", "decode" ...), stable across sessions.
    QColor kernelColor(const QString& kind) const;
    // Colour of overlaid session `index` (0 is the primary session).
    QColor sessionColor(int index) const;
    // Colour of an extra named roof (GPU, custom) number `index`.
    QColor extraRoofColor(int index) const;
    // A faint wash of `color` behind a table row, readable under text in this theme.
    QColor rowTint(const QColor& color) const;
};

// The palette of the whole window in a theme (docks, tables, menus, dialogs), made from the chart's colours so that
// the window and its chart read as one surface. The light theme keeps the system's palette, so this is for dark.
QPalette windowPalette(ThemeKind kind);

// WCAG 2 contrast ratio of two colours, 1 (same luminance) to 21 (black on white). Lines and marks that must be
// seen need at least 3; text 4.5.
double contrastRatio(const QColor& a, const QColor& b);
// `color`, darkened (on a light background) or lightened (on a dark one) until text in it reads: contrast 4.5.
QColor readableOn(const QColor& color, const QColor& background);

// `from` with this theme's window, text, base and button colours: widgets beside the charts (the batching
// explorer's controls, the comparison table) in the charts' light or dark.
QPalette themedPalette(const ChartTheme& theme, QPalette from);

}  // namespace ridgeline::ui
