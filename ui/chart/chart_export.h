#pragma once
// Exports of the roofline chart at an exact size: PNG (with a device-pixel ratio), SVG, PDF, plus CSV of
// the plotted points. Each export renders a fresh, hidden copy of the chart laid out at the requested size,
// so the window on screen is never resized or repainted.

#include "core/result.h"
#include "ui/chart/roofline_chart.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace ridgeline::ui {

// What a chart shows, without a widget: enough to build an identical chart anywhere.
struct ChartContent {
    std::vector<Session> sessions;
    std::vector<NamedRoof> extraRoofs;
    ChartOptions options;
    QString highlightedLevel;

    static ChartContent of(const RooflineChart& chart);
};

enum class ExportFormat { Png, Svg, Pdf, Csv };
// From the file's suffix (case-insensitive); nullopt for anything else.
std::optional<ExportFormat> exportFormatForPath(const QString& path);

// `size` is in logical pixels (SVG/PDF: 1 px = 1/96 in); the PNG has size x devicePixelRatio pixels.
// `layout`, when given, receives the layout report of the very chart drawn (chart_layout.h), in logical pixels.
// The content is taken by value and handed on to the chart drawn: a caller that moves it in (the command line,
// with a session of a million kernels) holds its sessions once, not twice.
QImage renderChartImage(ChartContent content, QSize size, double devicePixelRatio = 1.0, ChartLayout* layout = nullptr);
std::optional<Error> exportChart(ChartContent content, const QString& path, QSize size, double devicePixelRatio = 1.0,
                                 ChartLayout* layout = nullptr);
std::optional<Error> exportPng(ChartContent content, const QString& path, QSize size, double devicePixelRatio,
                               ChartLayout* layout = nullptr);
std::optional<Error> exportSvg(ChartContent content, const QString& path, QSize size, ChartLayout* layout = nullptr);
std::optional<Error> exportPdf(ChartContent content, const QString& path, QSize size, ChartLayout* layout = nullptr);
// The layout report of the chart an export of this size draws.
ChartLayout chartLayoutAt(ChartContent content, QSize size);
// One row per ceiling, kernel and extra roof: the numbers behind the picture.
std::optional<Error> exportCsv(const ChartContent& content, const QString& path);
QByteArray chartCsv(const ChartContent& content);

// "1920x1080" -> QSize; an invalid QSize for anything else.
QSize parseSize(const QString& text);

}  // namespace ridgeline::ui
