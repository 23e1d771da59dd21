// The roofline chart: series per ceiling and kernel, exact roofs, pixel probes at data coordinates,
// labels that do not overlap. Grabs land in the build tree for a human to look at.

#include "ui/chart/roofline_chart.h"
#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"

#include <QCoreApplication>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

using namespace ridgeline;
using namespace ridgeline::ui;
using ridgeline::fixtures::colorNear;
using ridgeline::fixtures::grabImage;
using ridgeline::fixtures::layoutNow;
using ridgeline::fixtures::outputPath;

namespace {

QLogValueAxis* logAxis(RooflineChart& chart, Qt::Orientation orientation)
{
    const auto axes = chart.chart()->axes(orientation);
    return axes.isEmpty() ? nullptr : qobject_cast<QLogValueAxis*>(axes.first());
}

// Where the key draws an entry's name, in the chart view's viewport: the key is an item of the chart's scene, so a
// click there is what a user's click is.
std::optional<QPoint> legendEntryAt(RooflineChart& chart, const QString& text)
{
    const ChartLegend& legend = chart.legend();
    for (std::size_t i = 0; i < legend.entries().size() && i < legend.entryRects().size(); ++i)
        if (legend.entries()[i].text == text)
            return chart.mapFromScene(chart.chart()->mapToScene(legend.textRect(i).center()));
    return std::nullopt;
}

bool legendEntryDimmed(const RooflineChart& chart, const QString& text)
{
    for (const LegendEntry& entry : chart.legend().entries())
        if (entry.text == text)
            return entry.dimmed;
    return false;
}

}  // namespace

TEST(RooflineChart, OpeningASessionMakesOneSeriesPerCeilingAndOnePointPerKernel)
{
    RooflineChart chart;
    const Session session = fixtures::zen4Session();
    chart.setSessions({session});
    EXPECT_EQ(chart.ceilingSeries().size(),
              static_cast<qsizetype>(session.computeCeilings.size() + session.bandwidthCeilings.size()));
    EXPECT_EQ(chart.kernelPointCount(), static_cast<int>(session.kernels.size()));
    EXPECT_EQ(chart.kernelSeries().size(), 3);  // sgemm, add, decode
}

TEST(RooflineChart, AxesAreLogBaseTenWithUnits)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    QLogValueAxis* x = logAxis(chart, Qt::Horizontal);
    QLogValueAxis* y = logAxis(chart, Qt::Vertical);
    ASSERT_NE(x, nullptr);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(x->base(), 10.0);
    // Plain digits at every decade a GPU overlay reaches: "1000000", never "1e+06"; "0.01" stays short.
    EXPECT_EQ(x->labelFormat(), QStringLiteral("%.10g"));
    EXPECT_EQ(y->labelFormat(), QStringLiteral("%.10g"));
    EXPECT_EQ(QString::asprintf(qPrintable(y->labelFormat()), 1e6), QStringLiteral("1000000"));
    EXPECT_EQ(QString::asprintf(qPrintable(x->labelFormat()), std::pow(10.0, -2.0)), QStringLiteral("0.01"));
    EXPECT_TRUE(x->titleText().contains(QStringLiteral("FLOP/byte")));
    EXPECT_TRUE(y->titleText().contains(QStringLiteral("GFLOP/s")));
    // Every kernel and every ridge is inside the default view.
    EXPECT_LE(x->min(), 1.0 / 12.0);
    EXPECT_GE(x->max(), 4096.0 / 6.0);
    EXPECT_GE(y->max(), 230.0);
}

TEST(RooflineChart, BandwidthRoofEndsExactlyAtItsRidgeVertex)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    QLineSeries* dram = chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("DRAM"));
    ASSERT_NE(dram, nullptr);
    const QList<QPointF> points = dram->points();
    ASSERT_GE(points.size(), 2);
    // The last vertex is the ridge: 230 GFLOP/s / 40 GB/s = 5.75 FLOP/byte, at the compute ceiling.
    EXPECT_DOUBLE_EQ(points.last().x(), 230.0 / 40.0);
    EXPECT_DOUBLE_EQ(points.last().y(), 230.0);
    for (const QPointF& p : points)
        EXPECT_NEAR(p.y(), std::min(230.0, 40.0 * p.x()), 1e-9 * p.y());
}

TEST(RooflineChart, PixelProbesFindTheRoofColourOnTheRoofAndNotAboveIt)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    layoutNow(chart, QSize(1280, 800));
    const QImage image = grabImage(chart);
    image.save(outputPath(QStringLiteral("roofline_probe_light.png")));

    QLineSeries* dram = chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("DRAM"));
    QLineSeries* l1 = chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("L1"));
    QLineSeries* best = chart.ceilingSeries(0, QStringLiteral("compute"), QStringLiteral("fp32 avx512 x2"));
    ASSERT_TRUE(dram && l1 && best);

    // On the DRAM diagonal at 0.2 FLOP/byte (8 GFLOP/s), and well above it (between DRAM and L3).
    EXPECT_TRUE(colorNear(image, chart.viewportPosition({0.2, 8.0}), dram->pen().color()));
    EXPECT_FALSE(colorNear(image, chart.viewportPosition({0.2, 14.0}), dram->pen().color(), 1, 30));
    EXPECT_TRUE(colorNear(image, chart.viewportPosition({0.2, 100.0}), l1->pen().color()));
    // On the flat compute roof, and above it.
    EXPECT_TRUE(colorNear(image, chart.viewportPosition({100.0, 230.0}), best->pen().color()));
    EXPECT_FALSE(colorNear(image, chart.viewportPosition({100.0, 400.0}), best->pen().color(), 1, 30));
    // The ridge corner itself is drawn: no chord cuts below it.
    EXPECT_TRUE(colorNear(image, chart.viewportPosition({5.75, 230.0}), best->pen().color(), 2, 90));
}

TEST(RooflineChart, KernelAndCeilingLabelsAreDrawnWithoutOverlapping)
{
    RooflineChart chart;
    const Session session = fixtures::zen4Session();
    chart.setSessions({session});
    layoutNow(chart, QSize(1920, 1080));
    grabImage(chart).save(outputPath(QStringLiteral("roofline_1080p_light.png")));

    // Each sweep is named once at its end, with its precision, its steps (sizes, batches) beside their dots; the
    // binding roof is named on its line, the lower ones in the legend beside the plot.
    const QStringList labels = chart.visibleLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("sgemm fp32"))) << labels.join(u'|').toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("2048"))) << labels.join(u'|').toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("B=32"))) << labels.join(u'|').toStdString();
    EXPECT_FALSE(labels.contains(QStringLiteral("sgemm 4096")));  // the sweep's name says it once
    EXPECT_TRUE(labels.contains(QStringLiteral("fp32 avx512 x2: 230 GFLOP/s"))) << labels.join(u'|').toStdString();
    EXPECT_TRUE(chart.layoutReport().plot.intersected(chart.roofLegendRect()).isEmpty());
    const std::vector<QRectF> rects = chart.kernelLabelRects();
    EXPECT_GE(rects.size(), 8u);
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            EXPECT_FALSE(rects[i].intersects(rects[j])) << i << " and " << j;
}

TEST(RooflineChart, DarkThemeWithShadingAndIsoLinesRenders)
{
    RooflineChart chart;
    ChartOptions options;
    options.theme = ThemeKind::Dark;
    options.shadeRegions = true;
    options.isoEfficiency = true;
    chart.setOptions(options);
    chart.setSessions({fixtures::zen4Session()});
    layoutNow(chart, QSize(1920, 1080));
    const QImage image = grabImage(chart);
    image.save(outputPath(QStringLiteral("roofline_1080p_dark.png")));
    EXPECT_TRUE(colorNear(image, QPoint(5, 5), chart.theme().background, 0, 10));
    EXPECT_TRUE(chart.visibleLabels().contains(QStringLiteral("80 %")));
}

TEST(RooflineChart, OverlaidSessionsAndExtraRoofsGetTheirOwnSeries)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session(), fixtures::zen4FasterDramSession()});
    chart.setExtraRoofs({{QStringLiteral("Custom GPU"), Roof{19500.0, 1555.0}}});
    EXPECT_EQ(chart.ceilingSeries().size(), 12);
    EXPECT_EQ(chart.extraRoofSeries().size(), 1);
    layoutNow(chart, QSize(1600, 900));
    grabImage(chart).save(outputPath(QStringLiteral("roofline_overlay.png")));
    // The second session's DRAM roof is drawn in its own colour.
    QLineSeries* first = chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("DRAM"));
    QLineSeries* second = chart.ceilingSeries(1, QStringLiteral("bandwidth"), QStringLiteral("DRAM"));
    ASSERT_TRUE(first && second);
    EXPECT_NE(first->pen().color(), second->pen().color());
}

TEST(RooflineChart, AThemeChangeKeepsTheZoomButNewDataResetsIt)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1280, 800));
    const auto* x = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Horizontal).first());
    const double defaultMin = x->min();
    chart.chart()->zoom(2.0);
    const double zoomedMin = x->min();
    ASSERT_GT(zoomedMin, defaultMin);
    ChartOptions dark;
    dark.theme = ThemeKind::Dark;
    chart.setOptions(dark);
    EXPECT_DOUBLE_EQ(x->min(), zoomedMin);
    chart.setHighlightedLevel(QStringLiteral("L3"));
    EXPECT_DOUBLE_EQ(x->min(), zoomedMin);
    chart.resetView();
    EXPECT_DOUBLE_EQ(x->min(), defaultMin);
}

TEST(RooflineChart, ClickingALegendEntryHidesThatKindAndItsLabels)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1600, 900));
    QScatterSeries* decode = chart.kernelSeries().at(2);
    ASSERT_EQ(decode->name(), QStringLiteral("decode"));
    const std::optional<QPoint> entry = legendEntryAt(chart, QStringLiteral("decode"));
    ASSERT_TRUE(entry.has_value());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *entry);
    EXPECT_FALSE(decode->isVisible());
    EXPECT_FALSE(chart.visibleLabels().contains(QStringLiteral("B=1")));
    EXPECT_EQ(legendEntryAt(chart, QStringLiteral("decode")), entry);  // the entry stays, so it can be clicked back
    EXPECT_TRUE(legendEntryDimmed(chart, QStringLiteral("decode")));
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *entry);
    EXPECT_TRUE(decode->isVisible());
    EXPECT_FALSE(legendEntryDimmed(chart, QStringLiteral("decode")));
    EXPECT_TRUE(chart.visibleLabels().contains(QStringLiteral("B=1")));
}

// A hidden kind stays hidden while the sessions stay: a theme change, a highlighted level or a filter rebuilds the
// series, and a kind the user hid does not come back; new sessions show every kind again.
TEST(RooflineChart, AHiddenKindSurvivesRebuildsUntilNewSessionsArrive)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1600, 900));
    chart.setKernelKindVisible(QStringLiteral("decode"), false);
    ChartOptions dark = chart.options();
    dark.theme = ThemeKind::Dark;
    chart.setOptions(dark);
    chart.setHighlightedLevel(QStringLiteral("L2"));
    EXPECT_EQ(chart.hiddenKernelKinds(), QStringList{QStringLiteral("decode")});
    EXPECT_FALSE(chart.kernelSeries().at(2)->isVisible());
    EXPECT_FALSE(chart.visibleLabels().contains(QStringLiteral("B=1")));
    chart.setSessions({fixtures::zen4Session()});
    EXPECT_TRUE(chart.hiddenKernelKinds().isEmpty());
    EXPECT_TRUE(chart.kernelSeries().at(2)->isVisible());
}

// The zoom as plain data: what the axes show, set back per axis; an axis given no valid range keeps its own.
TEST(RooflineChart, TheVisibleRangeIsReadAndSetPerAxis)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1600, 900));
    const PlotRange before = chart.visibleRange();
    EXPECT_TRUE(before.valid());
    chart.setVisibleRange(PlotRange{0.5, 50.0, 0.0, 0.0});
    EXPECT_DOUBLE_EQ(chart.visibleRange().xMin, 0.5);
    EXPECT_DOUBLE_EQ(chart.visibleRange().xMax, 50.0);
    EXPECT_DOUBLE_EQ(chart.visibleRange().yMin, before.yMin);
    EXPECT_DOUBLE_EQ(chart.visibleRange().yMax, before.yMax);
    EXPECT_DOUBLE_EQ(logAxis(chart, Qt::Horizontal)->min(), 0.5);
    chart.resetView();
    EXPECT_DOUBLE_EQ(chart.visibleRange().xMin, before.xMin);
}

// A speaker's quality bar, in the dense chart's design: the example session at slide size names its sweeps and kernels,
// no two labels overlap, and the names left out are counted beside the plot.
TEST(RooflineChart, TheExampleSessionAtSlideSizeNamesItsKernelsWithoutOverlap)
{
    const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    RooflineChart chart;
    chart.setSessions({session.value()});
    EXPECT_EQ(chart.ceilingSeries().size(), static_cast<qsizetype>(session.value().computeCeilings.size() +
                                                                   session.value().bandwidthCeilings.size()));
    EXPECT_EQ(chart.kernelPointCount(), static_cast<int>(session.value().kernels.size()));
    fixtures::layoutNow(chart, QSize(1920, 1080));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("example_1080p.png")));
    const std::vector<QRectF> rects = chart.kernelLabelRects();
    EXPECT_GE(rects.size(), session.value().kernels.size() / 2);
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            EXPECT_FALSE(rects[i].intersects(rects[j])) << i << " and " << j;
}

// Regression: a GPU roof's label is wider than its flat part and used to be dropped.
TEST(RooflineChart, CatalogGpuRoofsAreLabelledOnTheChart)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    chart.setExtraRoofs({{QStringLiteral("NVIDIA H100 SXM5 80GB (bf16)"), Roof{989e3, 3350.0}},
                         {QStringLiteral("NVIDIA L4 (bf16)"), Roof{121e3, 300.0}}});
    fixtures::layoutNow(chart, QSize(1920, 1080));
    const QStringList labels = chart.visibleLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("NVIDIA H100 SXM5 80GB (bf16): 989 TFLOP/s, 3.4 TB/s")))
        << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("NVIDIA L4 (bf16): 121 TFLOP/s, 0.30 TB/s")));
}

namespace {

QStringList kernelSeriesNames(const RooflineChart& chart)
{
    QStringList names;
    for (const QScatterSeries* s : chart.kernelSeries())
        names << s->name();
    return names;
}

}  // namespace

// The precision selector: a click on a precision's legend entry takes its roofs and kernels off the chart, the entry
// stays (dimmed), and a second click brings them back.
TEST(RooflineChart, ClickingAPrecisionInTheLegendHidesItsRoofsAndKernels)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    RooflineChart chart;
    chart.setSessions({xeon.value()});
    fixtures::layoutNow(chart, QSize(1600, 1000));
    ASSERT_TRUE(kernelSeriesNames(chart).contains(QStringLiteral("bf16-gemm")));
    const int ceilingsBefore = static_cast<int>(chart.ceilingSeries().size());

    const std::optional<QPoint> bf16 = legendEntryAt(chart, QStringLiteral("bf16 roofs"));
    ASSERT_TRUE(bf16.has_value());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *bf16);
    QCoreApplication::processEvents();              // the click rebuilds the chart on the next turn of the loop
    fixtures::layoutNow(chart, QSize(1600, 1000));  // and lays its legend out on the one after
    EXPECT_EQ(chart.hiddenPrecisions(), QStringList{QStringLiteral("bf16")});
    EXPECT_FALSE(kernelSeriesNames(chart).contains(QStringLiteral("bf16-gemm")));
    EXPECT_FALSE(kernelSeriesNames(chart).contains(QStringLiteral("decode-bf16")));
    EXPECT_TRUE(kernelSeriesNames(chart).contains(QStringLiteral("sgemm")));
    EXPECT_EQ(static_cast<int>(chart.ceilingSeries().size()),
              ceilingsBefore - 4);  // bf16: avx512_bf16 and amx, x1 and x2
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_without_bf16.png")));

    const std::optional<QPoint> again = legendEntryAt(chart, QStringLiteral("bf16 roofs"));
    ASSERT_TRUE(again.has_value());  // still in the legend, to be clicked back on
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *again);
    QCoreApplication::processEvents();
    EXPECT_TRUE(chart.hiddenPrecisions().isEmpty());
    EXPECT_TRUE(kernelSeriesNames(chart).contains(QStringLiteral("bf16-gemm")));
    EXPECT_EQ(static_cast<int>(chart.ceilingSeries().size()), ceilingsBefore);

    // New sessions show every precision again.
    chart.setPrecisionVisible(QStringLiteral("int8"), false);
    EXPECT_EQ(chart.hiddenPrecisions(), QStringList{QStringLiteral("int8")});
    chart.setSessions({xeon.value()});
    EXPECT_TRUE(chart.hiddenPrecisions().isEmpty());
}

// At slide size the Xeon's fifteen kinds and precisions wrap into rows below the axis title instead of a column
// beside the plot; an entry on the second row is clicked where it is drawn, as is a precision's, which rebuilds the
// chart and its key under the mouse, and the key's entries keep working after it.
TEST(RooflineChart, TheWrappedKeyBelowThePlotTakesClicksOnEveryRow)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    RooflineChart chart;
    chart.setSessions({xeon.value()});
    const QSize size(1280, 800);
    fixtures::layoutNow(chart, size);
    const ChartLayout layout = chart.layoutReport();
    const QRectF key = layout.legends.front();
    EXPECT_GT(key.top(), layout.plot.bottom() + 30.0);  // under the tick labels and the axis title
    EXPECT_LE(key.bottom(), size.height());
    EXPECT_GE(layout.plot.width(), 0.7 * size.width());
    const std::vector<QRectF>& entries = chart.legend().entryRects();
    ASSERT_EQ(entries.size(), chart.legend().entries().size());
    EXPECT_GT(entries.back().top(), entries.front().top());  // two rows

    const std::optional<QPoint> int8 = legendEntryAt(chart, QStringLiteral("decode-int8"));
    ASSERT_TRUE(int8.has_value());
    EXPECT_GT(int8->y(), chart.mapFromScene(chart.chart()->mapToScene(entries.front().center())).y());
    QScatterSeries* decodeInt8 = nullptr;
    for (QScatterSeries* s : chart.kernelSeries())
        if (s->name() == QStringLiteral("decode-int8"))
            decodeInt8 = s;
    ASSERT_NE(decodeInt8, nullptr);
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *int8);
    EXPECT_FALSE(decodeInt8->isVisible());
    EXPECT_EQ(chart.hiddenKernelKinds(), QStringList{QStringLiteral("decode-int8")});

    const std::optional<QPoint> fp16 = legendEntryAt(chart, QStringLiteral("fp16 roofs"));
    ASSERT_TRUE(fp16.has_value());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *fp16);
    QCoreApplication::processEvents();  // the click rebuilds the chart on the next turn of the loop
    fixtures::layoutNow(chart, size);
    EXPECT_EQ(chart.hiddenPrecisions(), QStringList{QStringLiteral("fp16")});
    EXPECT_EQ(chart.hiddenKernelKinds(), QStringList{QStringLiteral("decode-int8")});  // kept through the rebuild
    EXPECT_TRUE(legendEntryDimmed(chart, QStringLiteral("fp16 roofs")));
    EXPECT_TRUE(legendEntryDimmed(chart, QStringLiteral("decode-int8")));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_key_clicked_1280x800.png")));

    const std::optional<QPoint> int8Again = legendEntryAt(chart, QStringLiteral("decode-int8"));
    ASSERT_TRUE(int8Again.has_value());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *int8Again);
    EXPECT_TRUE(chart.hiddenKernelKinds().isEmpty());
    const std::optional<QPoint> fp16Again = legendEntryAt(chart, QStringLiteral("fp16 roofs"));
    ASSERT_TRUE(fp16Again.has_value());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, *fp16Again);
    QCoreApplication::processEvents();
    EXPECT_TRUE(chart.hiddenPrecisions().isEmpty());
    // A click between entries, or on the plot's empty top left, changes nothing.
    const QPointF gap(entries.front().right() + 3.0, entries.front().center().y());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, chart.mapFromScene(chart.chart()->mapToScene(gap)));
    QCoreApplication::processEvents();
    EXPECT_TRUE(chart.hiddenKernelKinds().isEmpty());
    EXPECT_TRUE(chart.hiddenPrecisions().isEmpty());
}

// Ridges per precision. On the Xeon with AMX every shown precision's ridge is marked and named over the
// same DRAM roof: bf16 (the bold roof) at 166 FLOP/byte, fp32 at 37.
TEST(UiRooflineChart, EveryShownPrecisionHasItsRidgeMarkedAndNamed)
{
    const Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok());
    RooflineChart chart;
    chart.setSessions({xeon.value()});
    layoutNow(chart, QSize(1600, 900));
    const QStringList labels = chart.visibleLabels();
    for (const char* ridge : {"bf16 ridge 166 FLOP/byte", "fp32 ridge 37 FLOP/byte", "int8 ridge 2056 OP/byte"})
        EXPECT_TRUE(labels.contains(QLatin1String(ridge))) << ridge << "\n" << labels.join(u'|').toStdString();
    // int8 ceilings count operations: "int8 amx x2: 13 TOP/s", never FLOP/s.
    EXPECT_TRUE(labels.contains(QStringLiteral("int8 amx x2: 13 TOP/s"))) << labels.join(u'|').toStdString();
    for (const QString& label : labels) {
        if (label.startsWith(QLatin1String("int8"))) {
            EXPECT_FALSE(label.contains(QLatin1String("FLOP"))) << label.toStdString();
        }
    }
    grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_ridges_per_precision.png")));

    ChartOptions options = chart.options();
    options.hiddenPrecisions = {QStringLiteral("bf16"), QStringLiteral("int8"), QStringLiteral("fp16"),
                                QStringLiteral("fp64")};
    chart.setOptions(options);
    layoutNow(chart, QSize(1600, 900));
    const QStringList fp32Only = chart.visibleLabels();
    EXPECT_TRUE(fp32Only.contains(QStringLiteral("fp32 ridge 37 FLOP/byte"))) << fp32Only.join(u'|').toStdString();
    EXPECT_FALSE(fp32Only.join(u'|').contains(QStringLiteral("bf16 ridge")));
}
