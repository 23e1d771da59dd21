// The chart's key in rows below the axis title, and the strip's roof rows beside the plot: entries stay inside
// their width, never overlap, wrap into the fewest rows and share them evenly; a roof's name and value share a line
// when they fit, and a name is never cut in its middle. A key folded to one row keeps the kinds of dots first; a strip
// too short for every roof keeps the binding roofs and bandwidths and counts the lower roofs it leaves out.

#include "ui/plots/layout/legend_flow.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/side_strip.h"

#include <QFontMetricsF>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace ridgeline::ui;

namespace {

std::vector<double> rowTops(const LegendFlow& flow)
{
    std::vector<double> tops;
    for (const QRectF& r : flow.entries)
        if (std::find(tops.begin(), tops.end(), r.top()) == tops.end())
            tops.push_back(r.top());
    return tops;
}

}  // namespace

TEST(UiLegendFlow, EntriesThatFitShareOneCentredRow)
{
    const LegendFlow flow = flowLegend({100, 80, 120}, 20, 10, QPointF(50, 700), 1000);
    ASSERT_EQ(flow.entries.size(), 3u);
    EXPECT_DOUBLE_EQ(flow.height, 20.0);
    EXPECT_EQ(rowTops(flow).size(), 1u);
    EXPECT_DOUBLE_EQ(flow.entries.front().top(), 700.0);
    // 320 px of entries and gaps, centred in 1000 from x = 50.
    EXPECT_DOUBLE_EQ(flow.entries.front().left(), 50.0 + (1000.0 - 320.0) / 2.0);
    EXPECT_DOUBLE_EQ(flow.entries[1].left(), flow.entries[0].right() + 10.0);
}

TEST(UiLegendFlow, ManyEntriesWrapIntoTheFewestRowsSharedEvenly)
{
    // Fifteen entries of a Xeon's kinds and precisions: as many as fit would put 13 on one row and 2 on the next.
    const std::vector<double> widths(15, 120.0);
    const LegendFlow flow = flowLegend(widths, 24, 16, QPointF(0, 0), 1800);
    ASSERT_EQ(flow.entries.size(), widths.size());
    const std::vector<double> tops = rowTops(flow);
    ASSERT_EQ(tops.size(), 2u);
    EXPECT_DOUBLE_EQ(flow.height, 48.0);
    const auto first = std::count_if(flow.entries.begin(), flow.entries.end(),
                                     [&](const QRectF& r) { return r.top() == tops.front(); });
    EXPECT_LE(std::abs(static_cast<int>(first) - static_cast<int>(widths.size() - first)), 1);  // 8 and 7
    for (std::size_t i = 0; i < flow.entries.size(); ++i) {
        EXPECT_GE(flow.entries[i].left(), 0.0);
        EXPECT_LE(flow.entries[i].right(), 1800.0);
        for (std::size_t j = i + 1; j < flow.entries.size(); ++j)
            EXPECT_FALSE(flow.entries[i].intersects(flow.entries[j])) << i << " and " << j;
    }
}

TEST(UiLegendFlow, AnEntryWiderThanTheRowIsCutToIt)
{
    const LegendFlow flow = flowLegend({50, 900, 50}, 20, 10, QPointF(0, 0), 400);
    ASSERT_EQ(flow.entries.size(), 3u);
    for (const QRectF& r : flow.entries) {
        EXPECT_GE(r.left(), 0.0);
        EXPECT_LE(r.right(), 400.0);
    }
    EXPECT_DOUBLE_EQ(flow.entries[1].width(), 400.0);
    EXPECT_TRUE(flowLegend({}, 20, 10, QPointF(), 400).entries.empty());
}

// Five precisions' strokes then four kinds of dots in a row of 400 px with "+N more" 60 px wide: the dots' entries
// first, in their order, then the strokes that still fit; every entry when all fit without the fold entry.
TEST(UiLegendFlow, AKeyFoldedToOneRowKeepsTheDotsFirst)
{
    const std::vector<double> widths{90, 90, 90, 90, 90, 80, 80, 70, 60};
    const std::vector<bool> dots{false, false, false, false, false, true, true, true, true};
    const std::vector<std::size_t> shown = oneRowOf(widths, dots, 10, 400, 60);
    // 60 + 4 dots (290 px with gaps) = 350; one 90 px stroke more would make 450.
    EXPECT_EQ(shown, (std::vector<std::size_t>{5, 6, 7, 8}));
    double used = 60;
    for (const std::size_t i : shown)
        used += 10 + widths[i];
    EXPECT_LE(used, 400.0);
    EXPECT_EQ(oneRowOf({100, 100}, {false, true}, 10, 210, 60), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(oneRowOf({100, 100, 100}, {false, true, false}, 10, 250, 60), (std::vector<std::size_t>{1}));
}

// Twenty-four lower compute roofs, a binding roof and four bandwidths in a strip of 300 px: the binding roof and
// the bandwidths are named, the lower roofs from the highest down while they fit, and a last row counts the rest;
// nothing runs past the strip's bottom.
TEST(UiSideStrip, AShortStripKeepsTheBandwidthsAndCountsTheLowerRoofs)
{
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    std::vector<RoofLegendRow> rows;
    for (int i = 0; i < 24; ++i)
        rows.push_back({QPen(Qt::black, 1.0, Qt::DashLine),
                        QStringLiteral("fp32 lower %1: %2 GFLOP/s").arg(i).arg(200 - i),
                        {static_cast<std::size_t>(i)},
                        false,
                        true});
    rows.push_back({QPen(Qt::black, 2.0), QStringLiteral("fp32 avx2 x2: 230 GFLOP/s"), {24}, true, false});
    for (const char* level : {"L1 triad 453 GB/s", "L2 309 GB/s", "L3 triad 10 GB/s", "DRAM triad 6.3 GB/s"})
        rows.push_back({QPen(Qt::blue, 1.0, Qt::DashLine), QString::fromUtf8(level), {rows.size()}, false, false});
    const QRectF strip(1000, 100, 200, 300);
    const SideStrip laid = layOutSideStrip(strip, rows, {}, theme);
    QStringList texts;
    for (const AnnotationText& t : laid.texts) {
        texts << t.text;
        EXPECT_LE(t.origin.y() + QFontMetricsF(t.font).height(), strip.bottom() + 0.5) << t.text.toStdString();
    }
    const QString all = texts.join(u'|');
    for (const char* kept : {"fp32 avx2 x2", "L1 triad 453 GB/s", "L2 309 GB/s", "L3 triad 10 GB/s",
                             "DRAM triad 6.3 GB/s", "fp32 lower 0"})
        EXPECT_TRUE(all.contains(QString::fromUtf8(kept))) << kept << " in " << all.toStdString();
    EXPECT_FALSE(all.contains(QLatin1String("fp32 lower 23"))) << all.toStdString();
    const std::size_t named = laid.roofsShown.size();
    EXPECT_LT(named, rows.size());
    EXPECT_TRUE(all.contains(QStringLiteral("+%1 lower roof").arg(rows.size() - named))) << all.toStdString();
    EXPECT_LE(laid.legend.bottom(), strip.bottom() + 0.5);
}

// The Xeon's lower roofs in a 230 px strip: each row's texts stay inside the strip and off each other, a value is
// whole on its line (flush right), the name beside it is never cut in its middle, and a tie gets a line of its own.
TEST(UiSideStrip, RoofRowsKeepNameAndValueWholeInANarrowStrip)
{
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    std::vector<RoofLegendRow> rows;
    for (const char* text : {"int8 amx x1: 6094 GOP/s", "fp16 avx512_fp16 x2: 110 GFLOP/s",
                             "fp32 avx512 x1: 223 GFLOP/s  (\u2248 bf16 avx512_bf16 x2 214)", "L3 triad 10 GB/s"})
        rows.push_back({QPen(Qt::black, 1.0, Qt::DashLine), QString::fromUtf8(text), {rows.size()}, false});
    const QRectF strip(1000, 100, 230, 500);
    const SideStrip laid = layOutSideStrip(strip, rows, {}, theme);
    QStringList texts;
    std::vector<QRectF> boxes;
    for (const AnnotationText& t : laid.texts) {
        texts << t.text;
        const QRectF box(t.origin,
                         QSizeF(QFontMetricsF(t.font).horizontalAdvance(t.text), QFontMetricsF(t.font).height()));
        EXPECT_TRUE(strip.adjusted(-0.5, 0, 0.5, 0).contains(box)) << t.text.toStdString();
        for (const QRectF& other : boxes)
            EXPECT_FALSE(box.adjusted(0.5, 0.5, -0.5, -0.5).intersects(other)) << t.text.toStdString();
        boxes.push_back(box);
    }
    for (const char* whole : {"6094 GOP/s", "110 GFLOP/s", "fp16 avx512_fp16 x2", "\u2248 bf16 avx512_bf16 x2 214"})
        EXPECT_TRUE(std::any_of(texts.begin(), texts.end(),
                                [&](const QString& t) { return t.contains(QString::fromUtf8(whole)); }))
            << whole << " in " << texts.join(u'|').toStdString();
    for (const QString& t : texts)
        EXPECT_FALSE(t.contains(QChar(0x2026))) << t.toStdString();  // no "fp1… x2"
    EXPECT_EQ(laid.roofsShown.size(), rows.size());
}
