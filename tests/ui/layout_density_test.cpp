// The roofline at any density: the layout report of every picture a user or a speaker gets (the bundled
// session, the welcome page's Xeon AMX example, a measured session with an Nsight Compute import and an ERT overlay,
// the talk's slides) at 1280x800, 1600x1000 and 1920x1080 has no text over another text, over a dot it does not
// name or over a line it does not label; no legend or note over the plot's dots or lines; no leader across a dot;
// no text cut at the picture's edge; and at 1280x800 the plot keeps most of the width. In the window at 1280x800 the
// Xeon's plot keeps a usable size: its key folds to one row ("+9 more" unfolds it) and the strip beside the plot
// keeps the lower roofs for a pointer, every word of it inside the strip.

#include "core/import/import_session.h"
#include "core/import/importer.h"
#include "core/import/kernel/import_device.h"
#include "core/model/catalog/user_catalog.h"
#include "core/scene/deck.h"
#include "core/session/format/bundled_session.h"
#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "ui/chart/chart_export.h"
#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/settings.h"
#include "ui/plots/layout/label_layout.h"
#include "ui/talk/deck_export.h"

#include <QImage>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

const QList<QSize> kSizes{QSize(1280, 800), QSize(1600, 1000), QSize(1920, 1080)};

// Boxes that only touch (a pixel of antialiasing) do not count.
constexpr double kTouch = 0.75;

QRectF inset(const QRectF& r)
{
    return r.adjusted(kTouch, kTouch, -kTouch, -kTouch);
}

QPolygonF insetOutline(const LayoutText& text)
{
    // An upright text's outline is its rect; a rotated one's is shrunk towards its centre.
    QPolygonF outline;
    const QPointF centre = text.outline.boundingRect().center();
    for (const QPointF& p : text.outline) {
        const QLineF toCentre(p, centre);
        outline << (toCentre.length() > kTouch ? toCentre.pointAt(kTouch / toCentre.length()) : p);
    }
    return outline;
}

bool segmentMeetsPolygon(const QLineF& segment, const QPolygonF& polygon)
{
    if (polygon.containsPoint(segment.p1(), Qt::OddEvenFill) || polygon.containsPoint(segment.p2(), Qt::OddEvenFill))
        return true;
    for (qsizetype i = 0; i < polygon.size(); ++i) {
        const QLineF edge(polygon[i], polygon[(i + 1) % polygon.size()]);
        if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection)
            return true;
    }
    return false;
}

bool pathMeetsPolygon(const LayoutPath& path, const QPolygonF& polygon)
{
    for (std::size_t i = 1; i < path.points.size(); ++i)
        if (segmentMeetsPolygon(QLineF(path.points[i - 1], path.points[i]), polygon))
            return true;
    return false;
}

QString quoted(const LayoutText& text)
{
    return QStringLiteral("\"%1\"").arg(text.text);
}

QString where(const QRectF& r)
{
    return QStringLiteral("[%1, %2, %3x%4]")
        .arg(qRound(r.x()))
        .arg(qRound(r.y()))
        .arg(qRound(r.width()))
        .arg(qRound(r.height()));
}

// Every broken rule of the layout, one line each; `picture`: the rendered picture's rect, no text is cut at its edge.
QStringList layoutProblems(const ChartLayout& layout, const QRectF& picture)
{
    QStringList problems;
    const auto& texts = layout.texts;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const QPolygonF outline = insetOutline(texts[i]);
        if (!picture.contains(outline.boundingRect()))
            problems << QStringLiteral("text %1 cut at the picture's edge, at %2")
                            .arg(quoted(texts[i]), where(texts[i].rect));
        for (std::size_t j = i + 1; j < texts.size(); ++j)
            if (outline.intersects(insetOutline(texts[j])))
                problems << QStringLiteral("text %1 over text %2").arg(quoted(texts[i]), quoted(texts[j]));
        for (const LayoutMarker& marker : layout.markers)
            if (marker.id != texts[i].owner && outline.intersects(QPolygonF(inset(marker.rect))))
                problems << QStringLiteral("text %1 (of %2) over marker %3 at %4")
                                .arg(quoted(texts[i]), texts[i].owner, marker.id, where(marker.rect));
        for (const LayoutPath& line : layout.lines)
            if (line.id != texts[i].owner && pathMeetsPolygon(line, outline))
                problems
                    << QStringLiteral("text %1 (of %2) over line %3").arg(quoted(texts[i]), texts[i].owner, line.id);
    }
    std::vector<QRectF> boxes = layout.legends;
    boxes.insert(boxes.end(), layout.notes.begin(), layout.notes.end());
    for (const QRectF& box : boxes) {
        const QPolygonF outline(inset(box));
        for (const LayoutMarker& marker : layout.markers)
            if (box.intersects(marker.rect))
                problems << QStringLiteral("legend or note %1 over marker %2").arg(where(box), marker.id);
        for (const LayoutPath& line : layout.lines)
            if (pathMeetsPolygon(line, outline))
                problems << QStringLiteral("legend or note %1 over line %2").arg(where(box), line.id);
    }
    for (const LayoutPath& leader : layout.leaders)
        for (const LayoutMarker& marker : layout.markers)
            if (marker.id != leader.id && pathMeetsPolygon(leader, QPolygonF(inset(marker.rect))))
                problems << QStringLiteral("leader of %1 across marker %2").arg(leader.id, marker.id);
    return problems;
}

void expectClean(const ChartLayout& layout, const QString& picture, QSize size)
{
    EXPECT_GT(layout.markers.size(), 0u) << picture.toStdString() << ": no dots reported";
    EXPECT_GT(layout.texts.size(), 0u) << picture.toStdString() << ": no texts reported";
    const QStringList problems = layoutProblems(layout, QRectF(QPointF(0, 0), size));
    EXPECT_TRUE(problems.isEmpty()) << picture.toStdString() << ": " << problems.size() << " problems, the first:\n  "
                                    << problems.mid(0, 12).join(QStringLiteral("\n  ")).toStdString();
}

// Renders the chart, keeps the picture for a human to look at, and checks the layout of that very chart. At
// 1280x800 the plot takes at least `plotShare` of the picture's width: the key wraps below it and the roof strip
// beside it stays narrow.
void checkChart(const ChartContent& content, const QString& name, double plotShare = 0.0)
{
    for (const QSize size : kSizes) {
        const QString picture = QStringLiteral("layout-%1-%2x%3").arg(name).arg(size.width()).arg(size.height());
        ChartLayout layout;
        const QImage image = renderChartImage(content, size, 1.0, &layout);
        image.save(fixtures::outputPath(picture + QStringLiteral(".png")));
        expectClean(layout, picture, size);
        if (size == QSize(1280, 800)) {
            EXPECT_GE(layout.plot.width() / size.width(), plotShare)
                << picture.toStdString() << ": the plot is " << layout.plot.width() << " px wide";
        }
    }
}

Session bundled()
{
    Result<Session> session = bundledSession();
    EXPECT_TRUE(session.ok());
    return session.value();
}

}  // namespace

TEST(LayoutDensity, BundledSession)
{
    ChartContent content;
    content.sessions.push_back(bundled());
    checkChart(content, QStringLiteral("bundled"), 0.72);
}

TEST(LayoutDensity, XeonAmxWelcomeExample)
{
    Result<Session> xeon = loadSession(QStringLiteral(":/examples/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    ChartContent content;
    content.sessions.push_back(xeon.value());
    checkChart(content, QStringLiteral("xeon-amx"), 0.70);
}

// The bundled measurement with ncu_details.csv imported into it (its kernels ran on an A100, as the user answers
// the window's question) and ERT's roofline.json opened beside it as an overlay.
TEST(LayoutDensity, MeasuredSessionWithNcuImportAndErtOverlay)
{
    Result<std::vector<ImportResult>> ncu =
        importFiles({QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/ncu_details.csv")});
    ASSERT_TRUE(ncu.ok()) << ncu.error().message.toStdString();
    std::vector<ImportResult> imports = ncu.value();
    assignGpu(imports, findGpu(u"a100-40gb-sxm").value(), QStringLiteral("chosen on import"));
    Result<Session> measured = sessionWithImports(bundled(), imports);
    ASSERT_TRUE(measured.ok()) << measured.error().message.toStdString();
    Result<std::vector<ImportResult>> ert =
        importFiles({QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/ert_roofline.json")});
    ASSERT_TRUE(ert.ok()) << ert.error().message.toStdString();
    Result<Session> overlay = sessionWithImports(std::nullopt, ert.value());
    ASSERT_TRUE(overlay.ok()) << overlay.error().message.toStdString();
    ChartContent content;
    content.sessions = {measured.value(), overlay.value()};
    checkChart(content, QStringLiteral("ncu-ert"));
}

TEST(LayoutDensity, TalkSlides)
{
    Result<Deck> deck = defaultDeck();
    ASSERT_TRUE(deck.ok());
    const Session session = bundled();
    for (const QSize size : kSizes) {
        const std::vector<std::optional<ChartLayout>> layouts =
            deckChartLayouts(deck.value(), &session, size, TalkLook{ThemeKind::Dark});
        ASSERT_EQ(layouts.size(), deck.value().scenes.size());
        int charts = 0;
        for (std::size_t i = 0; i < layouts.size(); ++i) {
            if (!layouts[i])
                continue;
            ++charts;
            const QString picture = QStringLiteral("slide %1 (%2) at %3x%4")
                                        .arg(i + 1)
                                        .arg(deck.value().scenes[i].id)
                                        .arg(size.width())
                                        .arg(size.height());
            const QStringList problems = layoutProblems(*layouts[i], QRectF(QPointF(0, 0), size));
            EXPECT_TRUE(problems.isEmpty())
                << picture.toStdString() << ": " << problems.size() << " problems, the first:\n  "
                << problems.mid(0, 12).join(QStringLiteral("\n  ")).toStdString();
        }
        EXPECT_GT(charts, 0) << "no slide showed a roofline";
    }
}

namespace {

// Where a chart item's point is in the chart view's viewport: a click there is a user's click on it.
QPoint viewportPoint(const RooflineChart& chart, QPointF chartPoint)
{
    return chart.mapFromScene(chart.chart()->mapToScene(chartPoint));
}

// Every text of the strip beside the plot inside the strip: right of the plot, as high as it, inside the chart; a
// word past the strip's edge is cut off there.
void expectStripWhole(const RooflineChart& chart, const QString& picture)
{
    const QRectF plot = chart.chart()->plotArea();
    const QRectF strip(QPointF(plot.right(), plot.top()), QPointF(chart.chart()->size().width(), plot.bottom()));
    const std::vector<QRectF> rects = chart.besidePlot().textRects();
    ASSERT_FALSE(rects.empty()) << picture.toStdString();
    for (std::size_t i = 0; i < rects.size(); ++i)
        EXPECT_TRUE(strip.adjusted(-0.5, -0.5, 0.5, 0.5).contains(rects[i]))
            << picture.toStdString() << ": \"" << chart.besidePlot().texts()[i].text.toStdString()
            << "\" past the strip";
}

}  // namespace

// The welcome page's example in the window at 1280x800, where the chart shares the window with the docks: its 15
// kinds and precisions would take three rows of the chart's 510 px and leave the plot 270 px high. The key folds to
// one row of the kinds of dots and "+N more"; a click there unfolds every row and "fewer" folds them again, the
// layout clean each time. The strip names the binding roofs and the bandwidths, then the lower roofs that fit, and
// counts the rest for a pointer on their lines.
TEST(LayoutDensity, XeonInTheWindowAt1280x800KeepsAUsablePlot)
{
    Result<Session> xeon = loadSession(QStringLiteral(":/examples/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    Settings().setWindowState({});  // the first start: no saved layout
    MainWindow window;
    window.setSession(xeon.value());
    window.show();
    fixtures::layoutNow(window, QSize(1280, 800));
    RooflineChart& chart = *window.chart();
    const QSize size = chart.viewport()->size();
    const QRectF picture(QPointF(0, 0), size);

    ChartLayout folded = chart.layoutReport();
    expectClean(folded, QStringLiteral("window-xeon-folded"), size);
    expectStripWhole(chart, QStringLiteral("window-xeon-folded"));
    EXPECT_GE(folded.plot.height(), 300.0) << "of a chart " << size.height() << " px high";
    EXPECT_GE(folded.plot.width(), 0.6 * size.width()) << "of a chart " << size.width() << " px wide";
    const ChartLegend& key = chart.legend();
    ASSERT_TRUE(key.foldText().startsWith(QLatin1String("+"))) << key.foldText().toStdString();
    EXPECT_LE(key.keyRect().height(), key.rowHeight() + 0.5);  // one row
    // The kinds of dots come first in the folded row: sgemm's colour is there to read the plot by.
    const auto shown = [&key](const QString& text) {
        for (std::size_t i = 0; i < key.entries().size(); ++i)
            if (key.entries()[i].text == text)
                return !key.entryRects()[i].isEmpty();
        return false;
    };
    EXPECT_TRUE(shown(QStringLiteral("sgemm")));
    EXPECT_FALSE(shown(QStringLiteral("fp32 roofs")));
    const QStringList stripTexts = [&chart] {
        QStringList texts;
        for (const AnnotationText& t : chart.besidePlot().texts())
            texts << t.text;
        return texts;
    }();
    EXPECT_TRUE(stripTexts.join(u' ').contains(QLatin1String("lower roof"))) << stripTexts.join(u'|').toStdString();
    EXPECT_TRUE(stripTexts.contains(QStringLiteral("DRAM triad 6.3 GB/s"))) << stripTexts.join(u'|').toStdString();
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("layout-window-xeon-1280x800-folded.png")));

    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPoint(chart, key.foldRect().center()));
    QCoreApplication::processEvents();  // the fold changes on the next turn of the loop, after the click
    fixtures::layoutNow(window, QSize(1280, 800));
    EXPECT_EQ(key.foldText(), QStringLiteral("fewer"));
    EXPECT_TRUE(shown(QStringLiteral("fp32 roofs")));
    EXPECT_GT(key.keyRect().height(), 2.0 * key.rowHeight());
    const ChartLayout unfolded = chart.layoutReport();
    expectClean(unfolded, QStringLiteral("window-xeon-unfolded"), size);
    expectStripWhole(chart, QStringLiteral("window-xeon-unfolded"));
    EXPECT_LT(unfolded.plot.height(), folded.plot.height());
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("layout-window-xeon-1280x800-unfolded.png")));

    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPoint(chart, key.foldRect().center()));
    QCoreApplication::processEvents();
    fixtures::layoutNow(window, QSize(1280, 800));
    EXPECT_TRUE(key.foldText().startsWith(QLatin1String("+")));
    EXPECT_DOUBLE_EQ(chart.layoutReport().plot.height(), folded.plot.height());
}
