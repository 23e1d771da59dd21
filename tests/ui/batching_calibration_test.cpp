// A session's calibration in the batching tab: the user's measured points over the model's curve
// along the batch before the fit (dashed) and after it (solid), the numbers `ridgeline calibrate` printed for the
// same fit, and the fitted terms offered as the tab's engine terms. Fixture: tests/data/sessions/calibrated_sweep.json
// (vLLM's published MI300X latencies at batch 1, 4, 16, 64 and 128, the README's example).

#include "core/bench/calibration/calibration_record_builder.h"
#include "core/session/format/session_json.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/calibration_chart.h"
#include "ui/chart/cpu_batching_chart.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QLineSeries>
#include <QScatterSeries>

#include <gtest/gtest.h>

#include <algorithm>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

Session calibratedSweep()
{
    const Result<Session> session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated_sweep.json"));
    EXPECT_TRUE(session.ok()) << (session.ok() ? std::string() : session.error().message.toStdString());
    return session.ok() ? session.value() : Session{};
}

double valueAt(const QXYSeries* series, double batch)
{
    for (const QPointF& p : series->points())
        if (p.x() == batch)
            return p.y();
    return -1.0;
}

}  // namespace

TEST(UiBatchingCalibration, TheMeasuredPointsAreDrawnOverTheCurvesBeforeAndAfterTheFit)
{
    for (const QSize size : {QSize(1600, 1000), QSize(1920, 1080)}) {
        fixtures::BatchingWindow tab(size, calibratedSweep());
        CalibrationChart* chart = tab.panel->calibrationChart();
        ASSERT_TRUE(chart->isVisible());
        ASSERT_TRUE(chart->hasData());
        // In the last row, where this CPU's curve was, and as wide.
        EXPECT_FALSE(tab.panel->cpuChart()->isVisible());
        EXPECT_GT(chart->width(), 1000);
        // The five published medians, where they were measured.
        const QList<QPointF> measured = chart->measuredSeries()->points();
        ASSERT_EQ(measured.size(), 5);
        const double batches[] = {1, 4, 16, 64, 128};
        const double seconds[] = {17.24, 18.45, 22.07, 33.29, 46.48};
        for (int i = 0; i < 5; ++i) {
            EXPECT_EQ(measured[i].x(), batches[i]);
            EXPECT_NEAR(measured[i].y(), seconds[i], 0.005);
        }
        // The curves `ridgeline calibrate` printed (README): before 20.77 s and after 17.79 s at batch 1, the
        // unseen batch 2 after the fit 18.03 s, batch 256 77.76 s.
        EXPECT_NEAR(valueAt(chart->beforeSeries(), 1), 20.77, 0.005);
        EXPECT_NEAR(valueAt(chart->afterSeries(), 1), 17.79, 0.005);
        EXPECT_NEAR(valueAt(chart->afterSeries(), 2), 18.03, 0.005);
        EXPECT_NEAR(valueAt(chart->afterSeries(), 256), 77.76, 0.005);
        EXPECT_GE(chart->afterSeries()->count(), 20);  // a curve, not five dots joined
        // The after curve bends through the points: within 3.5 % of each, as the fit reported.
        for (const QPointF& p : measured)
            EXPECT_LT(std::fabs(valueAt(chart->afterSeries(), p.x()) / p.y() - 1.0), 0.036) << p.x();
        // What the person reads: the quantity, the setup, how far off before and after.
        const QStringList texts = chart->texts();
        const QString all = texts.join(QStringLiteral(" | "));
        EXPECT_TRUE(all.contains(
            QStringLiteral("Your benchmark: end-to-end latency, Llama 3.1 70B on AMD Instinct MI300X \u00d78")))
            << all.toStdString();
        EXPECT_TRUE(all.contains(QLatin1String("fp8 weights, fp8 KV"))) << all.toStdString();
        EXPECT_TRUE(all.contains(QLatin1String("-3.4 %"))) << all.toStdString();  // batch 16's residual
        EXPECT_TRUE(chart->beforeSeries()->name().startsWith(QLatin1String("before the fit: median")));
        EXPECT_TRUE(chart->afterSeries()->name().contains(QLatin1String("worst 3.4 % off")))
            << chart->afterSeries()->name().toStdString();
        EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty())
            << fixtures::truncated(fixtures::sceneTexts(chart)).join(u'|').toStdString();
        // The legend says what the dots are (the files by name where the legend has room).
        EXPECT_TRUE(chart->measuredSeries()->name().startsWith(QLatin1String("measured: median latency of 5 files")))
            << chart->measuredSeries()->name().toStdString();
        // No residual covers another or the setup line (at 1600 x 1000 the last two sat on each other).
        const std::vector<QRectF> boxes = chart->textRects();
        for (std::size_t i = 0; i < boxes.size(); ++i)
            for (std::size_t j = i + 1; j < boxes.size(); ++j)
                EXPECT_FALSE(boxes[i].intersects(boxes[j]))
                    << size.width() << " px: " << texts[qsizetype(i + 1)].toStdString() << " and "
                    << texts[qsizetype(j + 1)].toStdString();
        // No text covers a measured dot (the setup line sat on batch 128's at 1600 x 1000), and each residual is
        // beside its own dot, nearer to it than to any other (batch 64's '-2.1 %' sat left of batch 16's), or tied
        // to it by a leader from the dot's edge to the text.
        std::vector<QPointF> dots;
        for (const QPointF& p : measured)
            dots.push_back(chart->chart()->mapToPosition(p, chart->measuredSeries()));
        for (std::size_t b = 0; b < boxes.size(); ++b)
            for (const QPointF& dot : dots)
                EXPECT_FALSE(boxes[b].intersects(QRectF(dot - QPointF(5, 5), QSizeF(10, 10))))
                    << size.width() << " px: " << texts[qsizetype(b + 1)].toStdString() << " on a dot";
        const QString residuals[] = {QStringLiteral("+3.2 %"), QStringLiteral("+0.24 %"), QStringLiteral("-3.4 %"),
                                     QStringLiteral("-2.1 %"), QStringLiteral("+2.4 %")};
        for (std::size_t i = 0; i < dots.size(); ++i) {
            const qsizetype t = texts.indexOf(residuals[i]);
            ASSERT_GE(t, 1) << residuals[i].toStdString();
            const QRectF box = boxes[std::size_t(t - 1)];
            const std::vector<QLineF> lines = chart->overlayLines();
            const bool leader = std::any_of(lines.begin(), lines.end(), [&](const QLineF& l) {
                return QLineF(l.p1(), dots[i]).length() <= 9.0 && box.adjusted(-3, -3, 3, 3).contains(l.p2());
            });
            if (leader)
                continue;
            auto distance = [&](QPointF dot) {
                const QPointF nearest(std::clamp(dot.x(), box.left(), box.right()),
                                      std::clamp(dot.y(), box.top(), box.bottom()));
                return QLineF(dot, nearest).length();
            };
            for (std::size_t j = 0; j < dots.size(); ++j) {
                if (j != i) {
                    EXPECT_LT(distance(dots[i]), distance(dots[j]))
                        << size.width() << " px: " << residuals[i].toStdString() << " nearer batch "
                        << measured[qsizetype(j)].x();
                }
            }
        }
        // Where the short plot leaves no row clear of the curves (1600 x 1000), the setup line gets a box of the
        // background: no pixel of the curves' colour shows through its text.
        const QImage picture = fixtures::grabImage(*chart);
        const QColor curve = chart->afterSeries()->pen().color();
        for (qsizetype t = 1; t < texts.size(); ++t) {
            if (!texts[t].startsWith(QLatin1String("fp8 weights")))
                continue;
            const QRect box = boxes[std::size_t(t - 1)].toAlignedRect().intersected(picture.rect());
            int curvePixels = 0;
            for (int y = box.top(); y <= box.bottom(); ++y)
                for (int x = box.left(); x <= box.right(); ++x) {
                    const QColor c = picture.pixelColor(x, y);
                    curvePixels += std::abs(c.red() - curve.red()) + std::abs(c.green() - curve.green()) +
                                               std::abs(c.blue() - curve.blue()) <
                                           30
                                       ? 1
                                       : 0;
                }
            EXPECT_EQ(curvePixels, 0) << size.width() << " px: " << texts[t].toStdString();
        }
        // The pixel of a measured point is where its dot is drawn.
        const QPoint dot = chart->viewportPosition(measured[2]);
        EXPECT_TRUE(chart->viewport()->rect().contains(dot));
        fixtures::grabImage(tab.window)
            .save(fixtures::outputPath(
                QStringLiteral("batching_tab_calibration_%1x%2.png").arg(size.width()).arg(size.height())));
        // The chooser beside the controls brings this CPU's curve back, and the calibration again.
        QComboBox* chooser = control<QComboBox>(*tab.panel, "batchingCalibrationSeries");
        ASSERT_EQ(chooser->count(), 2);
        EXPECT_EQ(chooser->currentIndex(), 1);
        chooser->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(chooser, Qt::Key_Up);
        EXPECT_TRUE(tab.panel->cpuChart()->isVisible());
        EXPECT_FALSE(chart->isVisible());
        QTest::keyClick(chooser, Qt::Key_Down);
        EXPECT_TRUE(chart->isVisible());
    }
}

TEST(UiBatchingCalibration, TheFittedTermsAreOfferedAsTheTabsEngineTerms)
{
    const Session session = calibratedSweep();
    fixtures::BatchingWindow tab(QSize(1600, 1000), session);
    QComboBox* engine = control<QComboBox>(*tab.panel, "batchingEngine");
    const int fitted = engine->findText(QStringLiteral("Fitted to batch_1.json"));
    ASSERT_GE(fitted, 0);
    ASSERT_TRUE(fixtures::chooseByKeys(engine, engine->itemData(fitted)));
    const EngineTerms terms = fittedTerms(session.calibrations.front()).value();
    EXPECT_EQ(tab.panel->scenario().config.efficiency, terms);
    EXPECT_TRUE(tab.panel->detailText().contains(QLatin1String("fitted engine terms")))
        << tab.panel->detailText().toStdString();
    EXPECT_EQ(engine->currentIndex(), fitted);

    // A session without a calibration: no chart, no chooser, no fitted entry; the measured terms stay.
    tab.window.setSession(fixtures::zen4Session());
    tab.settle();
    EXPECT_FALSE(tab.panel->calibrationChart()->isVisible());
    EXPECT_EQ(engine->findText(QStringLiteral("Fitted to batch_1.json")), -1);
    EXPECT_FALSE(tab.panel->calibrationChooser()->isVisibleTo(tab.panel));
    EXPECT_EQ(engineChoiceOf(tab.panel->inputs()), EngineChoice::Measured);
    EXPECT_EQ(engine->currentText(), QStringLiteral("generic (measured engine terms)"));
}

// The legend says what the dots are, whole: the longest of "median latency of 5 files (batch_1.json to ...)",
// "... of 5 files", "5 files" that the legend shows uncut (Qt cut "measured: mean tok/s of llama_bench_202..." in the
// real window at 1600 x 1000); the title, the curves' names and the setup line also take their longest whole form
// (at 1280 x 800 all of them were cut).
TEST(UiBatchingCalibration, TheLegendSaysWhatTheDotsAreWithoutCuttingIt)
{
    for (const char* file : {"/sessions/calibrated.json", "/sessions/calibrated_sweep.json"}) {
        const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR) + QLatin1String(file));
        ASSERT_TRUE(session.ok());
        for (const QSize size : {QSize(1280, 800), QSize(1600, 1000), QSize(1920, 1080)}) {
            fixtures::BatchingWindow tab(size, session.value());
            CalibrationChart* chart = tab.panel->calibrationChart();
            ASSERT_TRUE(chart->hasData());
            const QString name = chart->measuredSeries()->name();
            EXPECT_TRUE(name.startsWith(QLatin1String("measured"))) << name.toStdString();
            const QStringList cut = fixtures::truncated(fixtures::sceneTexts(chart) + chart->texts());
            EXPECT_TRUE(cut.isEmpty()) << file << " at " << size.width() << ": " << cut.join(u'|').toStdString();
            fixtures::grabImage(*chart).save(fixtures::outputPath(QStringLiteral("calibration_legend_%1_%2.png")
                                                                      .arg(QFileInfo(QLatin1String(file)).baseName())
                                                                      .arg(size.width())));
        }
    }
}
