// This CPU's batching chart with decode by weight precision: the Xeon AMX session's fp32, bf16 and int8
// curves, each drawn in its colour over its own roofline, the knees and the batch-1 speed-ups said on the chart.

#include "ui/chart/cpu_batching_chart.h"

#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "ui/plots/batching/batching_scenario.h"

#include <QCoreApplication>
#include <QLineSeries>
#include <QScatterSeries>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

Session loadFixture(const char* name)
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(name));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message.toStdString());
    return loaded.ok() ? loaded.value() : Session{};
}

bool anyTextContains(const CpuBatchingChart& chart, const QString& part)
{
    for (const QString& t : chart.texts())
        if (t.contains(part))
            return true;
    return false;
}

// The energy line's texts: the last ones the chart draws, from the one that starts with its words.
QStringList energyLines(const CpuBatchingChart& chart)
{
    const QStringList texts = chart.texts();
    for (qsizetype i = 0; i < texts.size(); ++i)
        if (texts[i].startsWith(QStringLiteral("energy per token")) ||
            texts[i].startsWith(QStringLiteral("no energy per token")))
            return texts.mid(i);
    return {};
}

}  // namespace

TEST(UiCpuBatchingChart, DecodeByWeightPrecisionDrawsEachPrecisionOverItsOwnRoofline)
{
    CpuBatchingChart chart;
    fixtures::layoutNow(chart, QSize(1200, 500));
    chart.setData(predictCpuBatching(loadFixture("xeon-amx-2vcpu.json")));
    QCoreApplication::processEvents();  // the chart lays its title and legend out on the next turn of the loop
    ASSERT_TRUE(chart.hasOverlay()) << chart.data().reason.toStdString();
    ASSERT_EQ(chart.precisionSeries().size(), 3u);
    EXPECT_EQ(chart.measuredSeries()->count(), 0);  // OpenBLAS's curve gives way to the three
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    const QImage image = fixtures::grabImage(chart);
    for (std::size_t i = 0; i < 3; ++i) {
        const WeightPrecisionCurve& curve = chart.data().byWeightPrecision[i];
        const CpuBatchingChart::PrecisionSeries& s = chart.precisionSeries()[i];
        EXPECT_EQ(s.measuredDots->count(), 9);
        EXPECT_GT(s.predicted->count(), 20);
        const QColor color = theme.kernelColor(QStringLiteral("decode-") + curve.precision);
        EXPECT_EQ(s.measuredDots->color(), color);
        // Batch 1 of each precision: a dot of its colour where the chart maps it.
        EXPECT_TRUE(fixtures::colorNear(image, chart.viewportPosition(curve.measured.front()), color, 3))
            << curve.precision.toStdString();
    }
    EXPECT_TRUE(anyTextContains(chart, QStringLiteral("B = 1: bf16 1.6\u00d7, int8 3.6\u00d7 fp32's tokens/s")))
        << chart.texts().join(QStringLiteral(" | ")).toStdString();
    // The knees within the batches shown; int8's roof is so high that its step stays memory-bound past B = 512.
    EXPECT_TRUE(anyTextContains(chart, QStringLiteral("fp32 knee B")));
    EXPECT_TRUE(anyTextContains(chart, QStringLiteral("bf16 knee B")));
    EXPECT_FALSE(anyTextContains(chart, QStringLiteral("int8 knee B")));
    EXPECT_TRUE(chart.chart()->title().contains(QStringLiteral("8192\u00d78192 matrix by weight precision")));
    image.save(fixtures::outputPath(QStringLiteral("cpu_batching_by_precision.png")));

    // A session without them: the OpenBLAS curve again, and nothing of the precisions is left behind.
    chart.setData(predictCpuBatching(loadFixture("example.json")));
    EXPECT_TRUE(chart.precisionSeries().empty());
    EXPECT_EQ(chart.measuredSeries()->count(), 9);
    EXPECT_FALSE(anyTextContains(chart, QStringLiteral("knee B \u2248 ")) &&
                 anyTextContains(chart, QStringLiteral("bf16")));

    // The dark theme draws them again in its own colours.
    chart.setData(predictCpuBatching(loadFixture("xeon-amx-2vcpu.json")));
    chart.setTheme(ThemeKind::Dark);
    QCoreApplication::processEvents();
    ASSERT_EQ(chart.precisionSeries().size(), 3u);
    EXPECT_EQ(chart.precisionSeries()[1].measuredDots->color(),
              ChartTheme::make(ThemeKind::Dark).kernelColor(QStringLiteral("decode-bf16")));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("cpu_batching_by_precision_dark.png")));
}

// The decode batches' energy per token in the note strip under the axes, outside the plot: from the first to the
// last batch where RAPL was read (the watts are set by the test on the example session's real decode batches), and
// where it was not, why.
TEST(UiCpuBatchingChart, SaysTheEnergyPerTokenOrWhyThereIsNone)
{
    Session session = loadFixture("example.json");
    CpuBatchingChart chart;
    fixtures::layoutNow(chart, QSize(1200, 500));
    chart.setData(predictCpuBatching(session));
    QCoreApplication::processEvents();
    EXPECT_EQ(energyLines(chart), QStringList{QStringLiteral("no energy per token recorded in this session")});
    // Under the plot and inside the picture: a short note in the corner under the legend, costing the plot nothing;
    // a longer one in a strip along the bottom, the plot giving it the height rather than being covered.
    const auto expectUnderThePlot = [&chart] {
        const QRectF note = chart.noteRect();
        ASSERT_FALSE(note.isEmpty());
        EXPECT_GT(note.top(), chart.plotRect().bottom() + 10.0);  // below the axis's tick labels at least
        EXPECT_LE(note.bottom(), chart.chart()->size().height());
        EXPECT_GE(note.left(), 0.0);
        EXPECT_LE(note.right(), chart.chart()->size().width());
    };
    expectUnderThePlot();
    const double plotHeightWithOneLine = chart.plotRect().height();

    // A reason is wrapped to the chart's width, its words all there.
    session.energy = {false, QStringLiteral("this machine exposes no RAPL counters (no /sys/class/powercap)")};
    chart.setData(predictCpuBatching(session));
    QCoreApplication::processEvents();
    EXPECT_EQ(energyLines(chart).join(QLatin1Char(' ')),
              QStringLiteral("no energy per token: this machine exposes no RAPL counters (no /sys/class/powercap)"));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("cpu_batching_no_rapl.png")));

    // A longer reason takes two lines and no more: the report has the whole sentence.
    session.energy = {false, QStringLiteral("RAPL present (package-0 + dram + package-1 + dram) but energy_uj is not "
                                            "readable: run as root, or let this user read "
                                            "/sys/class/powercap/intel-rapl:*/energy_uj (root-only since "
                                            "CVE-2020-8694)")};
    chart.setData(predictCpuBatching(session));
    QCoreApplication::processEvents();
    const QStringList lines = energyLines(chart);
    ASSERT_EQ(lines.size(), 2) << lines.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(lines.front().startsWith(QStringLiteral("no energy per token: RAPL present (package-0")));
    EXPECT_TRUE(lines.back().endsWith(QStringLiteral("(root-only since CVE-2020-8694)"))) << lines.back().toStdString();
    expectUnderThePlot();
    EXPECT_LT(chart.plotRect().height(), plotHeightWithOneLine);  // the second line takes its room from the plot
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("cpu_batching_rapl_root_only.png")));
    // On a narrow chart two lines are all it gets: the rest is elided (the report has the whole sentence).
    fixtures::layoutNow(chart, QSize(560, 400));
    const QStringList narrow = energyLines(chart);
    ASSERT_EQ(narrow.size(), 2) << narrow.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(narrow.back().endsWith(QChar(0x2026))) << narrow.back().toStdString();
    expectUnderThePlot();
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("cpu_batching_rapl_narrow.png")));
    fixtures::layoutNow(chart, QSize(1200, 500));

    session.energy = {true, QStringLiteral("RAPL package-0 (whole sockets: idle cores and other processes count too)")};
    for (KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("decode"))
            k.energy = {0.1, 107.0, 0.0, 107.0 / k.tokensPerSecond};
    chart.setData(predictCpuBatching(session));
    QCoreApplication::processEvents();
    EXPECT_EQ(energyLines(chart).join(QLatin1Char(' ')),
              QStringLiteral("energy per token (RAPL): 0.192 J at B = 1 \u2026 0.0180 J at B = 256"));
    expectUnderThePlot();
    EXPECT_DOUBLE_EQ(chart.plotRect().height(), plotHeightWithOneLine);
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("cpu_batching_rapl.png")));
}
