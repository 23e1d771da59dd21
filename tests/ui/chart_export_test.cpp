// Exports write files of exactly the requested size, in every format.

#include "ui/chart/chart_export.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <algorithm>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

ChartContent zen4Content(ThemeKind theme = ThemeKind::Light)
{
    ChartContent content;
    content.sessions = {fixtures::zen4Session()};
    content.options.theme = theme;
    return content;
}

}  // namespace

TEST(UiExport, PngHasTheRequestedSizeTimesTheDevicePixelRatio)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    ASSERT_FALSE(exportChart(zen4Content(), path, QSize(800, 500), 2.0).has_value());
    const QImage image(path);
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    image.save(fixtures::outputPath(QStringLiteral("export_800x500_dpr2.png")));
}

// Defence behind the loaders' physical rule: a session built in code with a roof whose ridge is 1e308 FLOP/byte made
// Qt Charts overflow its stack on the log axis. The chart clamps every range it hands on, and draws.
TEST(UiExport, ARoofWithAnAstronomicalRidgeStillDraws)
{
    ChartContent content = zen4Content();
    for (BandwidthCeiling& ceiling : content.sessions.front().bandwidthCeilings)
        ceiling.gbps = 1e-305;
    content.extraRoofs.push_back(NamedRoof{QStringLiteral("absurd"), Roof{1e9, 5e-324}});
    const QImage image = renderChartImage(content, QSize(800, 500));
    EXPECT_EQ(image.size(), QSize(800, 500));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    EXPECT_FALSE(exportChart(content, dir.filePath(QStringLiteral("absurd.svg")), QSize(800, 500)).has_value());
}

TEST(UiExport, SlideSizedPngIsFullHd)
{
    const QString path = fixtures::outputPath(QStringLiteral("export_1920x1080.png"));
    ASSERT_FALSE(exportChart(zen4Content(), path, QSize(1920, 1080)).has_value());
    EXPECT_EQ(QImage(path).size(), QSize(1920, 1080));
}

TEST(UiExport, SvgDeclaresTheRequestedSize)
{
    const QString path = fixtures::outputPath(QStringLiteral("export.svg"));
    ASSERT_FALSE(exportChart(zen4Content(ThemeKind::Dark), path, QSize(1280, 720)).has_value());
    QSvgRenderer renderer(path);
    ASSERT_TRUE(renderer.isValid());
    EXPECT_EQ(renderer.viewBox(), QRect(0, 0, 1280, 720));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();
    // The physical size says 1280 px at 96 dpi (338.667 mm), so slide tools import it at the intended size.
    EXPECT_TRUE(svg.contains("width=\"338.667mm\"")) << svg.left(200).toStdString();
    EXPECT_TRUE(svg.contains("GFLOP/s"));  // text stays text: searchable, editable on a slide
}

TEST(UiExport, PdfPageIsTheRequestedSize)
{
    const QString path = fixtures::outputPath(QStringLiteral("export.pdf"));
    ASSERT_FALSE(exportChart(zen4Content(), path, QSize(1280, 720)).has_value());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF"));
    // 1280 x 720 px at 96 dpi = 960 x 540 pt.
    static const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
    const QRegularExpressionMatch match = mediaBox.match(QString::fromLatin1(pdf));
    ASSERT_TRUE(match.hasMatch());
    EXPECT_NEAR(match.captured(1).toDouble(), 960.0, 1.0);
    EXPECT_NEAR(match.captured(2).toDouble(), 540.0, 1.0);
}

TEST(UiExport, CsvHasOneRowPerCeilingAndKernel)
{
    const ChartContent content = zen4Content();
    const QList<QByteArray> lines = chartCsv(content).trimmed().split('\n');
    const Session& s = content.sessions.front();
    EXPECT_EQ(lines.size(),
              static_cast<qsizetype>(1 + s.computeCeilings.size() + s.bandwidthCeilings.size() + s.kernels.size()));
    EXPECT_TRUE(lines.first().startsWith("session,machine,type,name"));
}

TEST(UiExport, UnknownFormatAndBadSizeAreRefusedWithAReason)
{
    QTemporaryDir dir;
    const auto unknown = exportChart(zen4Content(), dir.filePath(QStringLiteral("chart.bmp")), QSize(800, 600));
    ASSERT_TRUE(unknown.has_value());
    EXPECT_TRUE(unknown->message.contains(QStringLiteral(".png")));
    EXPECT_TRUE(exportChart(zen4Content(), dir.filePath(QStringLiteral("a.png")), QSize(0, 600)).has_value());
    EXPECT_EQ(parseSize(QStringLiteral("1920x1080")), QSize(1920, 1080));
    EXPECT_FALSE(parseSize(QStringLiteral("1920")).isValid());
}

namespace {

// Strongly coloured pixels (roof and kernel colours; tick labels and titles are grey or black) in `band`.
int colouredPixels(const QImage& image, const QRect& band)
{
    int count = 0;
    for (int y = std::max(band.top(), 0); y <= std::min(band.bottom(), image.height() - 1); ++y)
        for (int x = std::max(band.left(), 0); x <= std::min(band.right(), image.width() - 1); ++x)
            count += QColor(image.pixel(x, y)).hsvSaturation() > 90 ? 1 : 0;
    return count;
}

}  // namespace

// QSvgGenerator writes no clip paths, so the roofs ran across the tick labels and past the plot in an SVG.
// Left and right of the plot, where only the axis and its labels belong, an SVG shows no roof colour, as the PNG.
TEST(UiExport, SvgLinesStopAtThePlotAsThePngsDo)
{
    ChartContent content = zen4Content();
    content.options.shadeRegions = true;
    // The roof legend beside the plot has coloured strokes of its own; here only the roofs' lines are looked for.
    content.options.legendBeside = false;
    content.extraRoofs = {NamedRoof{QStringLiteral("H100 SXM (bf16)"), Roof{989000.0, 3350.0}}};
    const QSize size(1280, 720);
    const QString svgPath = fixtures::outputPath(QStringLiteral("export_clipped.svg"));
    const QString pngPath = fixtures::outputPath(QStringLiteral("export_clipped.png"));
    ASSERT_FALSE(exportChart(content, svgPath, size).has_value());
    ASSERT_FALSE(exportChart(content, pngPath, size).has_value());
    QSvgRenderer renderer(svgPath);
    ASSERT_TRUE(renderer.isValid());
    QImage svg(size, QImage::Format_ARGB32);
    svg.fill(Qt::white);
    QPainter painter(&svg);
    renderer.render(&painter);
    painter.end();
    svg.save(fixtures::outputPath(QStringLiteral("export_clipped_svg.png")));

    // The plot area of a chart laid out at the export's size.
    RooflineChart chart;
    chart.setOptions(content.options);
    chart.setExtraRoofs(content.extraRoofs);
    chart.setSessions(content.sessions);
    fixtures::layoutNow(chart, size);
    const QRect plot = chart.chart()->plotArea().toAlignedRect();
    const QRect left(0, plot.top(), plot.left() - 3, plot.height());
    const QRect right(plot.right() + 4, plot.top(), size.width() - plot.right() - 4, plot.height());
    const QImage png(pngPath);
    EXPECT_EQ(colouredPixels(png, left) + colouredPixels(png, right), 0) << "the PNG, for reference";
    EXPECT_EQ(colouredPixels(svg, left), 0) << "left of the plot, across the tick labels";
    EXPECT_EQ(colouredPixels(svg, right), 0) << "right of the plot";
    // Still drawn inside: the GPU's roof and the CPU's roofs are there.
    EXPECT_GT(colouredPixels(svg, plot), 2000);
}

// A roof highlighted at the window (a cache level picked on the staircase) does not leak into an export.
TEST(UiExport, AHighlightedRoofStaysOutOfTheExport)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(900, 600));
    const QImage plain = renderChartImage(ChartContent::of(chart), QSize(900, 600));
    chart.setHighlightedLevel(QStringLiteral("L2"));
    ASSERT_EQ(chart.highlightedLevel(), QStringLiteral("L2"));
    EXPECT_NE(fixtures::grabImage(chart), plain) << "the window shows the highlight";
    EXPECT_TRUE(ChartContent::of(chart).highlightedLevel.isEmpty());
    EXPECT_EQ(renderChartImage(ChartContent::of(chart), QSize(900, 600)), plain);
}
