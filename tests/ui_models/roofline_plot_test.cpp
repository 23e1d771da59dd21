// The roofline chart's plot data and its marks, without a widget: what buildRooflinePlot draws from a session
// and where annotateRoofline puts the text, for a plot area of a given size (ui/models/roofline_*.h).

#include "ui/plots/roofline/roofline_plot.h"
#include "tests/ui_models/test_session.h"
#include "ui/plots/layout/log_scale.h"
#include "ui/plots/roofline/kernel_presentation.h"
#include "ui/plots/roofline/roof_labels.h"
#include "ui/plots/roofline/roofline_decorations.h"
#include "ui/plots/roofline/roofline_labels.h"

#include "core/model/units.h"
#include "core/session/format/session_json.h"
#include "core/session/mixed_precision.h"
#include "core/session/session_roof.h"

#include <QRegularExpression>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

struct Built {
    std::vector<Session> sessions;
    std::vector<NamedRoof> extra;
    ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    RooflinePlot plot;

    explicit Built(std::vector<Session> s, ChartOptions options = {}, QString filter = {})
        : sessions(std::move(s)),
          plot(buildRooflinePlot({&sessions, &extra, options, QString(), std::move(filter)}, theme))
    {
    }

    RooflineView view(QRectF area, std::vector<bool> shown = {}) const
    {
        RooflineView v;
        v.plot = &plot;
        v.sessions = &sessions;
        v.extraRoofs = &extra;
        v.mapping = {area, plot.defaultRange};
        v.groupShown = shown.empty() ? std::vector<bool>(plot.groups.size(), true) : std::move(shown);
        return v;
    }
};

const PlotRoof* roofNamed(const RooflinePlot& plot, RoofKind kind, const QString& name)
{
    for (const PlotRoof& roof : plot.roofs)
        if (roof.kind == kind && roof.name == name)
            return &roof;
    return nullptr;
}

}  // namespace

TEST(RooflinePlot, EveryCeilingIsARoofAndTheMemoryRoofIsBold)
{
    const Built b({fixtures::zen4Session()});
    const PlotRoof* fp32 = roofNamed(b.plot, RoofKind::Compute, QStringLiteral("fp32 avx512 x2"));
    const PlotRoof* fp64 = roofNamed(b.plot, RoofKind::Compute, QStringLiteral("fp64 avx512 x2"));
    const PlotRoof* dram = roofNamed(b.plot, RoofKind::Bandwidth, QStringLiteral("DRAM"));
    const PlotRoof* l1 = roofNamed(b.plot, RoofKind::Bandwidth, QStringLiteral("L1"));
    ASSERT_TRUE(fp32 && fp64 && dram && l1);
    EXPECT_EQ(fp32->pen.widthF(), b.theme.boldRoofWidth);  // the best compute ceiling
    EXPECT_LT(fp64->pen.widthF(), b.theme.boldRoofWidth);
    // fp64's own best ceiling binds fp64 kernels: drawn solid (thinner than the bold roof) and named at its end.
    EXPECT_EQ(fp64->pen.style(), Qt::SolidLine);
    EXPECT_EQ(dram->pen.widthF(), b.theme.boldRoofWidth);  // THE memory roof (session_roof.h)
    EXPECT_LT(l1->pen.widthF(), b.theme.boldRoofWidth);
    // A bandwidth roof ends at its ridge with the best compute ceiling: 230 / 40 = 5.75 FLOP/byte.
    EXPECT_NEAR(dram->vertices.back().x(), 5.75, 1e-9);
    EXPECT_NEAR(dram->vertices.back().y(), 230.0, 1e-9);
    ASSERT_TRUE(b.plot.ridge.has_value());
    EXPECT_NEAR(b.plot.ridge->intensity, 5.75, 1e-12);
}

TEST(RooflinePlot, KernelsGroupByKindAndTheDefaultRangeHoldsThemAll)
{
    const Built b({fixtures::zen4Session()});
    QStringList kinds;
    std::size_t points = 0;
    for (const KernelGroup& g : b.plot.groups) {
        EXPECT_FALSE(g.dimmed);
        if (g.carriesLegend)
            kinds << g.kind;
        points += g.points.size();
        for (const QPointF& p : g.points) {
            EXPECT_GT(p.x(), b.plot.defaultRange.xMin);
            EXPECT_LT(p.x(), b.plot.defaultRange.xMax);
            EXPECT_GT(p.y(), b.plot.defaultRange.yMin);
            EXPECT_LT(p.y(), b.plot.defaultRange.yMax);
        }
    }
    EXPECT_EQ(kinds, (QStringList{QStringLiteral("sgemm"), QStringLiteral("add"), QStringLiteral("decode")}));
    EXPECT_EQ(points, b.sessions.front().kernels.size());
    EXPECT_TRUE(b.plot.legendVisible);
    EXPECT_TRUE(b.plot.defaultRange.valid());
}

TEST(RooflinePlot, AnErrorBarPassesThroughItsPointEvenWhereTheFilesFiguresDisagree)
{
    // A session's kernel whose FLOPs (1) disagree with its GFLOP/s (6.37) and intensity, as a fuzzed file had: the bar
    // of its runs' spread is drawn around the point, and the chart's range does not stretch six decades down for it.
    Session s = fixtures::zen4Session();
    KernelResult& add = *std::find_if(s.kernels.begin(), s.kernels.end(),
                                      [](const KernelResult& k) { return k.kind == QLatin1String("add"); });
    const double agreeing = add.flops;
    add.seconds = 6.58e-4;
    add.spread = Spread{5.24e-4, 6.58e-4, 4.54e-3};
    add.gflops = agreeing / add.seconds / 1e9;
    const auto [low, high] = gflopsRange(add);
    EXPECT_DOUBLE_EQ(low, agreeing / add.spread.max / 1e9);  // where the figures agree: FLOPs over each run's time
    EXPECT_DOUBLE_EQ(high, agreeing / add.spread.min / 1e9);
    add.flops = 1;
    const auto [disagreeingLow, disagreeingHigh] = gflopsRange(add);
    EXPECT_LT(disagreeingLow, add.gflops);
    EXPECT_GT(disagreeingHigh, add.gflops);
    EXPECT_DOUBLE_EQ(disagreeingHigh / disagreeingLow, add.spread.max / add.spread.min);
    const Built b({s});
    EXPECT_GT(b.plot.defaultRange.yMin, 0.01 * add.gflops * add.seconds / add.spread.max);
}

TEST(RooflinePlot, TheFilterFadesTheOthersIntoOneGroupFirst)
{
    const Built b({fixtures::zen4Session()}, {}, QStringLiteral("sgemm"));
    ASSERT_FALSE(b.plot.groups.empty());
    EXPECT_TRUE(b.plot.groups.front().dimmed);
    EXPECT_EQ(b.plot.groups.front().points.size(), b.sessions.front().kernels.size() - 4);
    std::size_t full = 0;
    for (const KernelGroup& g : b.plot.groups)
        full += g.dimmed ? 0 : g.points.size();
    EXPECT_EQ(full, 4u);
}

TEST(RooflinePlot, ShadingAndIsoLinesFollowThePrimaryRoof)
{
    ChartOptions options;
    options.shadeRegions = true;
    options.isoEfficiency = true;
    const Built b({fixtures::zen4Session()}, options);
    ASSERT_EQ(b.plot.regions.size(), 2u);
    EXPECT_NEAR(b.plot.regions[0].upper.back().x(), 5.75, 1e-9);  // memory-bound up to the ridge
    int iso = 0;
    for (const PlotRoof& roof : b.plot.roofs)
        iso += roof.kind == RoofKind::Iso ? 1 : 0;
    EXPECT_EQ(iso, 2);
}

TEST(PlotMapping, CornersOfTheRangeAreCornersOfThePlot)
{
    const PlotMapping m{QRectF(50, 20, 1000, 600), PlotRange{0.1, 1000.0, 1.0, 1000.0}};
    EXPECT_NEAR(m.toPixel({0.1, 1.0}).x(), 50.0, 1e-9);
    EXPECT_NEAR(m.toPixel({0.1, 1.0}).y(), 620.0, 1e-9);
    EXPECT_NEAR(m.toPixel({1000.0, 1000.0}).x(), 1050.0, 1e-9);
    EXPECT_NEAR(m.toPixel({1000.0, 1000.0}).y(), 20.0, 1e-9);
    EXPECT_NEAR(m.toPixel({10.0, 31.622776601683793}).x(), 550.0, 1e-9);  // log-scaled: decades are equal
    EXPECT_NEAR(m.toPixel({10.0, 31.622776601683793}).y(), 320.0, 1e-9);
    EXPECT_DOUBLE_EQ(decadeBelow(230.0), 100.0);
    EXPECT_DOUBLE_EQ(decadeAbove(230.0), 1000.0);
}

// What every log axis is given: Qt Charts overflowed its stack on a range from an overflowed ridge (1e308 FLOP/byte).
TEST(LogAxisRange, AnAxisHoldsStillWhileItsDataStaysInsideAndWithinADecadeOfItsEnds)
{
    const LogRange shown{10.0, 1e4};
    // Data that moved inside: the axis stays.
    EXPECT_EQ(steadyLogRange(shown, {100.0, 1e3}), shown);
    EXPECT_EQ(steadyLogRange(shown, {10.0, 1e4}), shown);
    // Data past either end: the axis takes the wanted range.
    EXPECT_EQ(steadyLogRange(shown, {1.0, 1e3}), (LogRange{1.0, 1e3}));
    EXPECT_EQ(steadyLogRange(shown, {100.0, 1e5}), (LogRange{100.0, 1e5}));
    // Data that shrank more than a decade from an end: the axis tightens rather than leave the curve small.
    EXPECT_EQ(steadyLogRange(shown, {1e3, 1e4}), (LogRange{1e3, 1e4}));
    EXPECT_EQ(steadyLogRange(shown, {10.0, 100.0}), (LogRange{10.0, 100.0}));
    EXPECT_EQ(steadyLogRange(shown, {1e3, 1e4}, 2.0), shown);
    // No current range worth keeping (a fresh axis, a broken one): the wanted one.
    EXPECT_EQ(steadyLogRange({0.0, 1.0}, {2.0, 3.0}), (LogRange{2.0, 3.0}));
    EXPECT_EQ(steadyLogRange({1.0, std::numeric_limits<double>::infinity()}, {2.0, 3.0}), (LogRange{2.0, 3.0}));
}

TEST(LogAxisRange, NonFiniteEmptyAndAstronomicalRangesBecomeOnesAnAxisCanShow)
{
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double denormal = std::numeric_limits<double>::denorm_min();
    for (const auto& [low, high] : std::vector<std::pair<double, double>>{{0.1, inf},
                                                                          {nan, 10.0},
                                                                          {0.0, 100.0},
                                                                          {-1.0, 1.0},
                                                                          {denormal, 1e308},
                                                                          {1e-305 / 2.5, 1e308 * 5.0},
                                                                          {5.0, 5.0},
                                                                          {1e300, 1e301},
                                                                          {denormal, denormal},
                                                                          {100.0, 1.0}}) {
        const LogAxisRange range = safeLogAxisRange(low, high);
        EXPECT_TRUE(isLogRange(range.low, range.high)) << low << " .. " << high;
        EXPECT_GE(range.low, kLogAxisFloor);
        EXPECT_LE(range.high, kLogAxisCeiling);
        EXPECT_GE(range.high / range.low, 1.5) << low << " .. " << high;
    }
    // A range an axis can show is handed on unchanged.
    const LogAxisRange usual = safeLogAxisRange(0.04, 5000.0);
    EXPECT_EQ(usual.low, 0.04);
    EXPECT_EQ(usual.high, 5000.0);
    EXPECT_EQ(safeLogAxisRange(100.0, 1.0).low, 1.0);
    EXPECT_EQ(safeLogAxisRange(5.0, 5.0).low, 0.5);
    EXPECT_EQ(safeLogAxisRange(5.0, 5.0).high, 50.0);
}

TEST(LogGrid, MajorsAtThePowersOfTheBaseAndMinorsAtTheirWholeMultiples)
{
    // The throughput chart's batch axis: base 4 from 0.75 to 5,529.6 (4,096 x 1.35).
    const std::vector<LogGridLine> batch = logGridLines(0.75, 5529.6, 4.0);
    std::vector<double> majors, minors;
    for (const LogGridLine& line : batch)
        (line.major ? majors : minors).push_back(line.value);
    EXPECT_EQ(majors, (std::vector<double>{1, 4, 16, 64, 256, 1024, 4096}));
    EXPECT_EQ(minors.front(), 0.75) << "3 x 0.25 is the range's edge; 2 x 0.25 is below it";
    EXPECT_EQ(minors.size(), 13u) << "0.75, then 2 and 3 times each power from 1 to 1,024; 8,192 is beyond";
    // Base 10 over a range that starts and ends on powers (0.1 from pow): both ends are lines.
    const std::vector<LogGridLine> decades = logGridLines(0.1, 1e4, 10.0);
    EXPECT_DOUBLE_EQ(decades.front().value, 0.1);
    EXPECT_TRUE(decades.front().major);
    EXPECT_DOUBLE_EQ(decades.back().value, 1e4);
    EXPECT_EQ(decades.size(), 6u + 5u * 8u);
    EXPECT_TRUE(std::is_sorted(decades.begin(), decades.end(),
                               [](const LogGridLine& a, const LogGridLine& b) { return a.value < b.value; }));
    // Ranges a log axis cannot show draw nothing; a range of thousands of decades, its majors only, then nothing.
    EXPECT_TRUE(logGridLines(0.0, 10.0, 10.0).empty());
    EXPECT_TRUE(logGridLines(10.0, 1.0, 10.0).empty());
    EXPECT_TRUE(logGridLines(1.0, std::numeric_limits<double>::infinity(), 10.0).empty());
    EXPECT_TRUE(logGridLines(1.0, 10.0, 1.0).empty());
    const std::vector<LogGridLine> wide = logGridLines(1e-150, 1e150, 10.0);
    EXPECT_EQ(wide.size(), 301u);
    EXPECT_TRUE(std::all_of(wide.begin(), wide.end(), [](const LogGridLine& l) { return l.major; }));
    EXPECT_TRUE(logGridLines(1e-300, 1e300, 10.0).empty());
}

TEST(RooflineLabels, RoofsRidgeAndKernelsAreLabelledWithoutTextOverText)
{
    const Built b({fixtures::zen4Session()});
    const RooflineAnnotations a = annotateRoofline(b.view(QRectF(80, 40, 1400, 800)), b.theme);
    QStringList texts;
    for (const AnnotationText& t : a.texts)
        texts << t.text;
    EXPECT_TRUE(texts.contains(QStringLiteral("fp32 avx512 x2: 230 GFLOP/s"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("DRAM  40 GB/s"))) << texts.join(u'|').toStdString();
    // A ridge per precision: fp32's at 230 / 40, fp64's at 115 / 40.
    EXPECT_TRUE(texts.contains(QStringLiteral("fp32 ridge 5.8 FLOP/byte"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("fp64 ridge 2.9 FLOP/byte"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("sgemm 4096"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("B=16"))) << texts.join(u'|').toStdString();
    ASSERT_GE(a.kernelLabelRects.size(), 10u);
    for (std::size_t i = 0; i < a.kernelLabelRects.size(); ++i) {
        EXPECT_TRUE(QRectF(80, 40, 1400, 800).contains(a.kernelLabelRects[i]));
        for (std::size_t j = i + 1; j < a.kernelLabelRects.size(); ++j)
            EXPECT_FALSE(a.kernelLabelRects[i].intersects(a.kernelLabelRects[j])) << i << " and " << j;
    }
    // Error bars and the ridge's dotted line go under the dots.
    EXPECT_FALSE(a.under.empty());
}

// Two machines' roofs in the window's plot (1600 x 1000 with its docks): most roof labels find no place on their
// lines, and a legend of them all would cover half the dots. The legend keeps every solid roof, covers no dot, and
// counts the dashed roofs it leaves to the pointer; each roof is named on its line, in the legend or in that count.
TEST(RooflineLabels, TwoMachinesRoofsLeaveEveryDotUncoveredAndTheLegendCountsWhatItLeavesOut)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Built b({fixtures::zen4Session(), xeon.value()});
    const RooflineView view = b.view(QRectF(116, 129, 1100, 510));
    const RooflineAnnotations a = annotateRoofline(view, b.theme);
    ASSERT_FALSE(a.roofLegend.isEmpty());
    const double radius = baseMarkerRadius(b.theme);
    int dots = 0;
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef ref) {
        const KernelResult& k = view.kernel(ref);
        const QPointF centre = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
        if (!view.mapping.plot.contains(centre))
            return;
        ++dots;
        EXPECT_FALSE(a.roofLegend.intersects(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)))
            << k.name.toStdString() << " of session " << ref.session;
    });
    EXPECT_GE(dots, 30);

    std::vector<bool> named(b.plot.roofs.size(), false);
    for (const RoofLabel& label : a.roofLabels)
        named[label.roof] = true;
    int left = 0, solid = 0;
    for (std::size_t r = 0; r < b.plot.roofs.size(); ++r) {
        const PlotRoof& roof = b.plot.roofs[r];
        if (roof.kind == RoofKind::Iso || !roofInView(roof, view.mapping))
            continue;
        if (roof.pen.style() == Qt::SolidLine) {
            ++solid;
            EXPECT_TRUE(named[r]) << roof.name.toStdString() << " of session " << roof.session;
        }
        left += named[r] ? 0 : 1;
    }
    EXPECT_GE(solid, 6);  // each machine's top compute roof and its read bandwidths
    ASSERT_GT(left, 0);
    const QString count = QStringLiteral("+%1 dashed roofs: point at a line to read it").arg(left);
    EXPECT_TRUE(std::any_of(a.texts.begin(), a.texts.end(), [&](const AnnotationText& t) { return t.text == count; }))
        << count.toStdString();

    // One machine in a large plot: its legend has room and leaves nothing out.
    const Built one({fixtures::zen4Session()});
    for (const AnnotationText& t : annotateRoofline(one.view(QRectF(80, 40, 1400, 800)), one.theme).texts)
        EXPECT_FALSE(t.text.contains(QLatin1String("dashed roof"))) << t.text.toStdString();
}

// Every decode sweep, the low-precision ones too, names itself at its first point and labels the rest by batch:
// three sweeps of nine steps spelt out in full crowd their names away from their dots.
TEST(RooflineLabels, EachDecodeSweepIsNamedOnceAndItsOtherStepsByBatch)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Built b({xeon.value()});
    QStringList texts;
    for (const AnnotationText& t : annotateRoofline(b.view(QRectF(80, 40, 1700, 900)), b.theme).texts)
        texts << t.text;
    for (const QString& sweep : {QStringLiteral("decode fp32"), QStringLiteral("decode bf16"),
                                 QStringLiteral("decode int8"), QStringLiteral("decode")}) {
        const QString first = sweep + QStringLiteral(" B=1");
        EXPECT_EQ(texts.count(first), 1) << first.toStdString();
        EXPECT_FALSE(texts.contains(sweep + QStringLiteral(" B=16"))) << sweep.toStdString();
    }
    EXPECT_EQ(texts.count(QStringLiteral("B=16")), 4) << texts.join(u'|').toStdString();  // one per sweep
}

// A plot too small for all its kernels' names (a laptop's window) draws none over another text or a dot: the names
// with no room are counted in a note, and every name is either drawn or counted.
TEST(RooflineLabels, NamesWithNoRoomAreCountedNotDrawnOverOtherText)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Built b({xeon.value()});
    const RooflineView view = b.view(QRectF(116, 129, 580, 230));
    const RooflineAnnotations a = annotateRoofline(view, b.theme);
    int named = 0;
    view.forEachShownKernel(
        [&](const KernelGroup&, std::size_t, KernelRef ref) { named += b.plot.beforeKernel(ref) ? 0 : 1; });
    ASSERT_GE(a.kernelLabelRects.size(), 2u);
    const std::size_t drawn = a.kernelLabelRects.size() - 1;  // the note is the last box
    int counted = -1;
    for (const AnnotationText& t : a.texts) {
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^(\\d+) kernel names had no room: point at a dot$")).match(t.text);
        if (m.hasMatch())
            counted = m.captured(1).toInt();
    }
    ASSERT_GT(counted, 0);
    // Arrow percentages are boxes among the names; without arrows in view every box is a kernel's name.
    EXPECT_LE(static_cast<int>(drawn) + counted, named + 2);
    EXPECT_GE(static_cast<int>(drawn) + counted, named);
    for (std::size_t i = 0; i < drawn; ++i)
        for (std::size_t j = i + 1; j < drawn; ++j)
            EXPECT_FALSE(a.kernelLabelRects[i].intersects(a.kernelLabelRects[j])) << i << " and " << j;

    for (const AnnotationText& t : annotateRoofline(b.view(QRectF(80, 40, 1700, 900)), b.theme).texts)
        EXPECT_FALSE(t.text.contains(QLatin1String("had no room"))) << t.text.toStdString();

    // In the window's plot (1600 x 1000) no leader runs further than a fifth of the plot's diagonal: a name that
    // could only sit further from its dot is counted instead of tied to it across the chart.
    const QRectF window(116, 129, 1100, 510);
    const RooflineAnnotations w = annotateRoofline(b.view(window), b.theme);
    const QPen leader(b.theme.mutedText, 1.5);
    int leaders = 0;
    for (std::size_t i = 0; i + w.legendLines.size() < w.over.size(); ++i)
        if (w.over[i].pen == leader) {
            ++leaders;
            EXPECT_LE(w.over[i].line.length(), 0.2 * std::hypot(window.width() - 8, window.height() - 8) + 1.0);
        }
    EXPECT_GE(leaders, 5);
}

TEST(RooflineLabels, AHiddenKindLosesItsLabelsAndMarks)
{
    const Built b({fixtures::zen4Session()});
    std::vector<bool> shown;
    for (const KernelGroup& g : b.plot.groups)
        shown.push_back(g.kind != QLatin1String("decode"));
    const RooflineAnnotations a = annotateRoofline(b.view(QRectF(80, 40, 1400, 800), shown), b.theme);
    for (const AnnotationText& t : a.texts)
        EXPECT_FALSE(t.text.startsWith(QLatin1String("B=")) || t.text.startsWith(QLatin1String("decode")))
            << t.text.toStdString();
}

TEST(RooflineLabels, APlotTooSmallForTextGetsNone)
{
    const Built b({fixtures::zen4Session()});
    const RooflineAnnotations a = annotateRoofline(b.view(QRectF(0, 0, 8, 8)), b.theme);
    EXPECT_TRUE(a.texts.empty());
    EXPECT_TRUE(a.under.empty());
    EXPECT_TRUE(a.kernelLabelRects.empty());
}

// The source text's mixed-precision claim on the chart: one arrow from the largest sgemm to the bf16
// product of the same n, labelled with the measured ratio; gone when either kind is hidden.
TEST(RooflineDecorations, TheMixedPrecisionPairIsAnArrowLabelledWithItsRatio)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Built b({xeon.value()});
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(b.sessions.front());
    ASSERT_FALSE(pairs.empty());
    const MixedPrecisionPair largest = *std::max_element(
        pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.bf16->flops < y.bf16->flops; });
    EXPECT_EQ(largest.bf16->size, QStringLiteral("4096x4096"));
    EXPECT_GT(largest.speedup(), 1.5);  // AMX against AVX-512 fp32
    const QString expected = QStringLiteral("bf16 \u00d7%1").arg(formatSignificant(largest.speedup(), 2));

    const QRectF area(0, 0, 1600, 1000);
    auto labels = [&](const RooflineView& view) {
        QStringList texts;
        for (const ArrowLabel& label : decorateRoofline(view, b.theme).arrowLabels)
            texts << label.text;
        return texts;
    };
    const QStringList shown = labels(b.view(area));
    EXPECT_EQ(shown.count(expected), 1) << shown.join(QStringLiteral(" | ")).toStdString();

    std::vector<bool> withoutBf16(b.plot.groups.size(), true);
    for (std::size_t g = 0; g < b.plot.groups.size(); ++g)
        withoutBf16[g] = b.plot.groups[g].kind != QLatin1String("bf16-gemm");
    EXPECT_FALSE(labels(b.view(area, withoutBf16)).contains(expected));
}

// Roofs per precision with a selector in the legend: a session of several precisions names each in the
// legend; hiding some takes their roofs and kernels off, and the memory roofs and the ridge follow the best
// precision still shown.
TEST(RooflinePlot, HiddenPrecisionsLoseTheirRoofsAndKernelsAndTheRidgeFollowsTheRest)
{
    Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Built all({xeon.value()});
    QStringList entries;
    for (const PlotRoof& roof : all.plot.roofs)
        if (!roof.precisionEntry.isEmpty()) {
            entries << roof.precisionEntry;
            EXPECT_TRUE(roof.inLegend);
            EXPECT_EQ(roof.legendName, roof.precisionEntry + QStringLiteral(" roofs"));
        }
    entries.sort();
    EXPECT_EQ(entries, QStringLiteral("bf16 fp16 fp32 fp64 int8").split(QLatin1Char(' ')));
    ASSERT_TRUE(all.plot.ridge.has_value());
    EXPECT_NEAR(all.plot.ridge->peakGflops, 1042.0, 0.1);  // bf16 amx x2 over DRAM
    EXPECT_EQ(all.plot.ridge->precision, QStringLiteral("bf16"));
    // Ridges per precision: each other precision's best ceiling over the same DRAM roof.
    const double dramGbps = all.plot.ridge->peakGflops / all.plot.ridge->intensity;
    QStringList ridgePrecisions;
    for (const RidgeMarker& ridge : all.plot.precisionRidges) {
        ridgePrecisions << ridge.precision;
        EXPECT_NEAR(ridge.intensity, ridge.peakGflops / dramGbps, 1e-9) << ridge.precision.toStdString();
        EXPECT_NEAR(ridge.peakGflops, bestComputeCeiling(xeon.value(), ridge.precision)->gflops, 1e-9);
    }
    ridgePrecisions.sort();
    EXPECT_EQ(ridgePrecisions, QStringLiteral("fp16 fp32 fp64 int8").split(QLatin1Char(' ')));

    ChartOptions options;
    options.hiddenPrecisions = {QStringLiteral("bf16"), QStringLiteral("int8")};
    const Built some({xeon.value()}, options);
    EXPECT_EQ(some.plot.hiddenPrecisionEntries, QStringLiteral("bf16 int8").split(QLatin1Char(' ')));
    for (const PlotRoof& roof : some.plot.roofs) {
        const bool hiddenRoof = roof.kind == RoofKind::Compute && (roof.name.startsWith(QStringLiteral("bf16")) ||
                                                                   roof.name.startsWith(QStringLiteral("int8")));
        EXPECT_FALSE(hiddenRoof) << roof.name.toStdString();
    }
    for (const KernelGroup& group : some.plot.groups)
        for (const KernelRef ref : group.refs) {
            const QString precision = some.sessions[0].kernels[static_cast<std::size_t>(ref.kernel)].precision;
            EXPECT_TRUE(precision == QLatin1String("fp32") || precision == QLatin1String("fp64"))
                << group.kind.toStdString();
        }
    // The best shown is fp32 avx2 x2 at 230.4 GFLOP/s: the DRAM roof (6.26 GB/s) turns flat there.
    ASSERT_TRUE(some.plot.ridge.has_value());
    EXPECT_NEAR(some.plot.ridge->peakGflops, 230.4, 0.1);
    ASSERT_EQ(some.plot.precisionRidges.size(), 2u) << "fp16 and fp64 beside fp32; none for the hidden ones";
    for (const RidgeMarker& ridge : some.plot.precisionRidges)
        EXPECT_TRUE(ridge.precision == QLatin1String("fp16") || ridge.precision == QLatin1String("fp64"));
    const PlotRoof* dram = roofNamed(some.plot, RoofKind::Bandwidth, QStringLiteral("DRAM triad"));
    ASSERT_NE(dram, nullptr);
    EXPECT_NEAR(dram->vertices.back().y(), 230.4, 0.1);
    EXPECT_NEAR(dram->vertices.back().x(), some.plot.ridge->intensity, 1e-9);

    // Everything hidden: no compute roof, no ridge, every entry still there to be clicked back on.
    options.hiddenPrecisions = entries;
    const Built none({xeon.value()}, options);
    EXPECT_FALSE(none.plot.ridge.has_value());
    QStringList hiddenEntries = none.plot.hiddenPrecisionEntries;
    hiddenEntries.sort();
    EXPECT_EQ(hiddenEntries, entries);
    EXPECT_TRUE(std::none_of(none.plot.roofs.begin(), none.plot.roofs.end(),
                             [](const PlotRoof& r) { return r.kind == RoofKind::Compute; }));
    // One precision only (the Zen 4 fixture has fp32 and fp64) still gets the selector; a single one would not.
    const Built zen4({fixtures::zen4Session()});
    EXPECT_TRUE(std::any_of(zen4.plot.roofs.begin(), zen4.plot.roofs.end(),
                            [](const PlotRoof& r) { return r.precisionEntry == QLatin1String("fp64"); }));
}
