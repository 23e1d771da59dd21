// The batching tab agrees with itself: driven by keys and clicks, what one place on screen says is held against
// what another says about the same thing (the marker's label and its own curve, the step's table and the command
// line, the weights a step streams and the memory bar, a benchmark's curves and the setup above them, and the
// arithmetic of the explanations redone from the rounded figures they print).

#include "core/model/units.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/calibration_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/chart/step_breakdown_bar.h"
#include "ui/widgets/log_slider.h"

#include "core/session/format/session_json.h"

#include <QComboBox>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QToolButton>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

std::string joined(const QStringList& texts)
{
    return texts.join(QStringLiteral(" | ")).toStdString();
}

// The first text matching `pattern`'s whole capture groups, or none.
QRegularExpressionMatch firstMatch(const QStringList& texts, const QString& pattern)
{
    const QRegularExpression re(pattern);
    for (const QString& text : texts)
        if (const QRegularExpressionMatch m = re.match(text); m.hasMatch())
            return m;
    return {};
}

// "1,352" -> 1352.
double number(const QString& text)
{
    QString plain = text;
    plain.remove(QLatin1Char(','));
    bool ok = false;
    const double value = plain.toDouble(&ok);
    EXPECT_TRUE(ok) << text.toStdString();
    return value;
}

// Half a unit of the last digit a figure is printed with: "35.52" -> 0.005, "1,352" -> 0.5; a whole number's
// trailing zeros may be rounding to significant digits: "1,350" -> 5.
double halfUnit(const QString& text)
{
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot >= 0)
        return 0.5 * std::pow(10.0, -double(text.size() - dot - 1));
    QString digits = text;
    digits.remove(QLatin1Char(','));
    int zeros = 0;
    while (zeros + 1 < digits.size() && digits[digits.size() - 1 - zeros] == QLatin1Char('0'))
        ++zeros;
    return 0.5 * std::pow(10.0, double(zeros));
}

// Bytes from "64 GiB", "512 KiB", "13.48 GB".
double bytes(const QString& value, const QString& unit)
{
    static const QMap<QString, double> scale{{QStringLiteral("B"), 1.0},
                                             {QStringLiteral("KiB"), 1024.0},
                                             {QStringLiteral("MiB"), 1024.0 * 1024.0},
                                             {QStringLiteral("GiB"), 1024.0 * 1024.0 * 1024.0},
                                             {QStringLiteral("TiB"), 1024.0 * 1024.0 * 1024.0 * 1024.0},
                                             {QStringLiteral("GB"), 1e9}};
    EXPECT_TRUE(scale.contains(unit)) << unit.toStdString();
    return number(value) * scale.value(unit, 1.0);
}

// Seconds from "35.52 ms", "417.9 µs", "1.20 s".
double seconds(const QString& value, const QString& unit)
{
    const double scale = unit == QLatin1String("s") ? 1.0 : unit == QLatin1String("ms") ? 1e-3 : 1e-6;
    return number(value) * scale;
}

void openAdvanced(const BatchingPanel& panel)
{
    fixtures::clickCentre(control<QToolButton>(panel, "batchingAdvancedToggle"));
    ASSERT_TRUE(control<QWidget>(panel, "batchingAdvanced")->isVisible());
}

void speculate(fixtures::BatchingWindow& tab, const char* tokens, const char* acceptance)
{
    openAdvanced(*tab.panel);
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingSpecTokens"), QLatin1String(tokens));
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingSpecAcceptance"), QLatin1String(acceptance));
    tab.settle();
    ASSERT_TRUE(tab.panel->inputs().speculative.enabled());
    ASSERT_FALSE(tab.panel->scenario().error) << tab.panel->errorText().toStdString();
}

// The tokens/s curve's value at `batch`, read off the drawn series (log-log between its two neighbours).
double curveAt(const QLineSeries* series, double batch)
{
    const QList<QPointF> points = series->points();
    for (qsizetype i = 1; i < points.size(); ++i) {
        const QPointF a = points[i - 1], b = points[i];
        if (a.x() <= batch && batch <= b.x()) {
            const double t = a.x() == b.x() ? 0.0 : std::log(batch / a.x()) / std::log(b.x() / a.x());
            return std::exp(std::log(a.y()) + t * (std::log(b.y()) - std::log(a.y())));
        }
    }
    return -1.0;
}

}  // namespace

// With speculative decoding the marker's "B = 16: 1,352 tokens/s" sits on its own curve: the curve counts the
// tokens each sequence gains per step as the marker does (it read about 450 under a marker of 1,352, the batch over
// the step time without the acceptance), and both are what `ridgeline model` prints.
TEST(UiBatchingAgreement, WithSpeculativeDecodingTheMarkerSitsOnItsOwnCurve)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    speculate(tab, "4", "3");
    ASSERT_EQ(tab.panel->inputs().batch, 16);
    const BatchThroughputChart* chart = tab.panel->throughputChart();
    const QRegularExpressionMatch label = firstMatch(chart->texts(), QStringLiteral("^B = 16: ([0-9,.]+) tokens/s$"));
    ASSERT_TRUE(label.hasMatch()) << joined(chart->texts());
    const double shown = number(label.captured(1));
    const double curve = curveAt(chart->tokensSeries(), 16.0);
    ASSERT_GT(curve, 0.0);
    EXPECT_NEAR(curve, shown, halfUnit(label.captured(1)) + 1e-6 * shown) << "curve " << curve;
    // On the plot: the marker's pixel is the curve's pixel at that batch.
    const QPointF marker = chart->currentTokensMarker()->points().front();
    const QPoint atMarker = chart->viewportPosition(marker);
    const QPoint onCurve = chart->viewportPosition(QPointF(16.0, curve));
    EXPECT_LE(std::abs(atMarker.y() - onCurve.y()), 1);
    const QJsonObject cli = fixtures::cliModelJson(
        test::cliArgs("--model llama-2-7b --gpu h100-sxm --batch 16 --context 8192 --spec-tokens 4 "
                      "--spec-acceptance 3"));
    EXPECT_NEAR(shown, cli.value(QStringLiteral("tokens_per_s")).toDouble(), halfUnit(label.captured(1)));
    // The headline says the same number.
    EXPECT_TRUE(tab.panel->headlineText().startsWith(label.captured(1) + QStringLiteral(" tokens/s")))
        << tab.panel->headlineText().toStdString();
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_speculative.png")));
}

// The step's table names the compute and the weights at every batch, never "none" for work the step does: at batch
// 16 the compute the command line gives (hidden under the weight stream), at the largest batch the compute the
// command line charges to the step and the weights hidden under it.
TEST(UiBatchingAgreement, TheStepTableNamesComputeAndWeightsAtBatch16AndTheLargest)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    LogSlider* batch = tab.panel->batchSlider();
    fixtures::typeInto(batch->spinBox(), QStringLiteral("16"));
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().batch, 16);
    QStringList rows = tab.panel->breakdownBar()->texts();
    const QJsonObject at16 =
        fixtures::cliModelJson(test::cliArgs("--model llama-2-7b --gpu h100-sxm --batch 16 --context 8192"));
    ASSERT_EQ(at16.value(QStringLiteral("breakdown")).toObject().value(QStringLiteral("compute_s")).toDouble(), 0.0);
    const double compute16 = at16.value(QStringLiteral("compute_time_s")).toDouble();
    EXPECT_TRUE(rows.contains(QStringLiteral("compute: %1, hidden under memory").arg(formatSeconds(compute16))))
        << joined(rows);
    for (const QString& row : rows)
        EXPECT_FALSE(row.endsWith(QLatin1String(": none")) && !row.startsWith(QLatin1String("communication")))
            << row.toStdString();

    // The largest batch, by the End key on the slider.
    QTest::keyClick(batch->slider(), Qt::Key_End);
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().batch, kPanelMaxBatch);
    rows = tab.panel->breakdownBar()->texts();
    ASSERT_EQ(kPanelMaxBatch, 4096);
    const QJsonObject largest =
        fixtures::cliModelJson(test::cliArgs("--model llama-2-7b --gpu h100-sxm --batch 4096 --context 8192"));
    const QJsonObject parts = largest.value(QStringLiteral("breakdown")).toObject();
    ASSERT_GT(parts.value(QStringLiteral("compute_s")).toDouble(), 0.0);
    ASSERT_EQ(parts.value(QStringLiteral("weights_s")).toDouble(), 0.0);
    const QRegularExpressionMatch compute =
        firstMatch(rows, QStringLiteral("^compute ([0-9,.]+) (s|ms|µs) \\(([0-9]+) %\\)$"));
    ASSERT_TRUE(compute.hasMatch()) << joined(rows);
    EXPECT_NEAR(seconds(compute.captured(1), compute.captured(2)), parts.value(QStringLiteral("compute_s")).toDouble(),
                seconds(QString::number(halfUnit(compute.captured(1))), compute.captured(2)));
    EXPECT_TRUE(rows.contains(QStringLiteral("weights: hidden under compute"))) << joined(rows);
    for (const QString& row : rows)
        EXPECT_FALSE(row.endsWith(QLatin1String(": none")) && !row.startsWith(QLatin1String("communication")))
            << row.toStdString();
}

// "Every step streams the weights": the figure the memory bar holds, or beside it with the reasons they differ
// (13.21 GB streamed against the 13.48 GB held: the input table is gathered a row per token; a draft model reads
// weights the bar does not count).
TEST(UiBatchingAgreement, TheWeightsAStepStreamsMatchTheMemoryBarOrSayWhyNot)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    const auto check = [&](const QStringList& reasons, const char* cliLine) {
        const QStringList bar = tab.panel->memoryBar()->texts();
        const QRegularExpressionMatch held =
            firstMatch(bar, QStringLiteral("^Weights [0-9.,]+ GiB \\(([0-9.,]+ GB)\\)$"));
        ASSERT_TRUE(held.hasMatch()) << joined(bar);
        const QStringList texts = tab.panel->visibleTexts();
        const QRegularExpressionMatch streams = firstMatch(
            texts,
            QStringLiteral("^Every step streams the weights once, whatever the batch: ([0-9.,]+ GB) per GPU(.*)$"));
        ASSERT_TRUE(streams.hasMatch()) << joined(texts);
        const QJsonObject cli = fixtures::cliModelJson(test::cliArgs(cliLine));
        EXPECT_EQ(streams.captured(1), formatGB(cli.value(QStringLiteral("weight_bytes_per_step")).toDouble(), 2));
        EXPECT_EQ(held.captured(1), formatGB(cli.value(QStringLiteral("weights_bytes")).toDouble(), 2));
        if (streams.captured(1) == held.captured(1)) {
            EXPECT_TRUE(streams.captured(2).contains(QLatin1String("all the memory bar holds")));
            return;
        }
        EXPECT_TRUE(streams.captured(2).startsWith(
            QStringLiteral(" against the %1 the memory bar holds: ").arg(held.captured(1))))
            << streams.captured(0).toStdString();
        for (const QString& reason : reasons)
            EXPECT_TRUE(streams.captured(2).contains(reason)) << streams.captured(0).toStdString();
    };
    check({QStringLiteral("the input embedding table is read a row per token")},
          "--model llama-2-7b --gpu h100-sxm --batch 16 --context 8192");
    speculate(tab, "4", "3");
    check({QStringLiteral("the input embedding table is read a row per token"),
           QStringLiteral("the draft's 4 passes read their own weights, which the memory bar does not count")},
          "--model llama-2-7b --gpu h100-sxm --batch 16 --context 8192 --spec-tokens 4 --spec-acceptance 3");
}

// A benchmark's curves are drawn under the charts of the setup it ran: opening a session with a calibration takes
// the tab to that model and machine, leaving it puts this CPU's curve back in the row, and choosing the series again
// takes the tab back.
TEST(UiBatchingAgreement, ABenchmarkOverlayIsDrawnUnderItsOwnSetup)
{
    const Result<Session> session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated_sweep.json"));
    ASSERT_TRUE(session.ok());
    fixtures::BatchingWindow tab(QSize(1600, 1000), session.value());
    const auto expectBenchmarkSetup = [&] {
        const InferenceRequest& in = tab.panel->inputs();
        EXPECT_EQ(in.modelId, QStringLiteral("llama-3.1-70b"));
        EXPECT_EQ(in.gpuId, QStringLiteral("mi300x"));
        EXPECT_EQ(in.gpus, 8);
        EXPECT_EQ(in.weights, NumberFormat::Fp8);
        EXPECT_EQ(in.kv, NumberFormat::Fp8);
        EXPECT_EQ(in.batch, 128);  // the largest batch it ran
        EXPECT_TRUE(tab.panel->calibrationChart()->isVisible());
        EXPECT_FALSE(tab.panel->cpuChart()->isVisible());
        // The detail line above the charts names what the benchmark's title names.
        EXPECT_TRUE(tab.panel->detailText().startsWith(QStringLiteral("Llama 3.1 70B on 8 \u00d7 AMD Instinct MI300X")))
            << tab.panel->detailText().toStdString();
    };
    expectBenchmarkSetup();
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_benchmark_setup.png")));
    // Another model: the benchmark's curves are not this model's; the row shows this CPU's curve.
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-2-7b")));
    tab.settle();
    EXPECT_FALSE(tab.panel->calibrationChart()->isVisible());
    EXPECT_TRUE(tab.panel->cpuChart()->isVisible());
    EXPECT_EQ(tab.panel->calibrationChooser()->currentIndex(), 0);
    // The series chosen again (Down from "This CPU"): the tab goes back to its setup.
    QComboBox* chooser = tab.panel->calibrationChooser();
    chooser->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(chooser, Qt::Key_Down);
    tab.settle();
    ASSERT_EQ(chooser->currentIndex(), 1);
    expectBenchmarkSetup();
}

namespace {

// a = b within what the rounding of the printed figures allows.
void expectChecks(double a, double b, double tolerance, const QString& what)
{
    EXPECT_LE(std::fabs(a - b), tolerance) << what.toStdString() << ": " << a << " vs " << b;
}

// Every explanation's arithmetic redone from the rounded figures the tab prints.
void expectArithmeticChecks(const BatchingPanel& panel)
{
    const QString unit = QStringLiteral("(B|KiB|MiB|GiB|TiB)");
    const double n = double(panel.inputs().batch);
    // Headline and detail: tokens/s = batch x tokens/s per sequence.
    const QRegularExpressionMatch headline =
        QRegularExpression(QStringLiteral("^([0-9.,]+) tokens/s")).match(panel.headlineText());
    const QRegularExpressionMatch perSequence =
        QRegularExpression(QStringLiteral("([0-9.,]+) tokens/s per sequence")).match(panel.detailText());
    ASSERT_TRUE(headline.hasMatch() && perSequence.hasMatch()) << panel.detailText().toStdString();
    expectChecks(number(headline.captured(1)), n * number(perSequence.captured(1)),
                 halfUnit(headline.captured(1)) + n * halfUnit(perSequence.captured(1)), panel.headlineText());
    // The memory bar: KV = batch x each; the share that fits.
    const QStringList bar = panel.memoryBar()->texts();
    const QRegularExpressionMatch kv =
        firstMatch(bar, QStringLiteral("^KV cache ([0-9.,]+) %1 = ([0-9,]+) \u00d7 ([0-9.,]+) %1").arg(unit));
    ASSERT_TRUE(kv.hasMatch()) << joined(bar);
    const double each = bytes(kv.captured(4), kv.captured(5));
    expectChecks(bytes(kv.captured(1), kv.captured(2)), number(kv.captured(3)) * each,
                 bytes(QString::number(halfUnit(kv.captured(1))), kv.captured(2)) +
                     number(kv.captured(3)) * bytes(QString::number(halfUnit(kv.captured(4))), kv.captured(5)),
                 kv.captured(0));
    const QRegularExpressionMatch fits =
        firstMatch(bar, QStringLiteral("^Fits: ([0-9.,]+) GiB of ([0-9.,]+) GiB \\(([0-9.,]+) %\\)$"));
    if (fits.hasMatch()) {
        const double used = number(fits.captured(1)), capacity = number(fits.captured(2));
        expectChecks(number(fits.captured(3)), 100.0 * used / capacity,
                     halfUnit(fits.captured(3)) + 100.0 * halfUnit(fits.captured(1)) / capacity, fits.captured(0));
    }
    // The takeaway: each sequence's KV times the batch.
    const QRegularExpressionMatch carries = firstMatch(
        panel.visibleTexts(),
        QStringLiteral("^Each sequence carries ([0-9.,]+) %1 of KV cache; ([0-9,]+) of them take ([0-9.,]+) %1")
            .arg(unit));
    ASSERT_TRUE(carries.hasMatch());
    expectChecks(
        bytes(carries.captured(4), carries.captured(5)),
        number(carries.captured(3)) * bytes(carries.captured(1), carries.captured(2)),
        bytes(QString::number(halfUnit(carries.captured(4))), carries.captured(5)) +
            number(carries.captured(3)) * bytes(QString::number(halfUnit(carries.captured(1))), carries.captured(2)),
        carries.captured(0));
    // The step's table: each part's share of the step in the title.
    const QStringList rows = panel.breakdownBar()->texts();
    const QRegularExpressionMatch title =
        QRegularExpression(QStringLiteral(": ([0-9.,]+) (s|ms|µs)$")).match(rows.front());
    ASSERT_TRUE(title.hasMatch()) << rows.front().toStdString();
    const double total = seconds(title.captured(1), title.captured(2));
    double sum = 0.0;
    for (const QString& row : rows.mid(1)) {
        const QRegularExpressionMatch part =
            QRegularExpression(QStringLiteral("^[A-Za-z]+ ([0-9.,]+) (s|ms|µs) \\(([0-9]+) %\\)$")).match(row);
        if (!part.hasMatch())
            continue;
        const double t = seconds(part.captured(1), part.captured(2));
        sum += t;
        expectChecks(number(part.captured(3)), 100.0 * t / total, 0.5 + 100.0 * 0.01 * t / total, row);
    }
    expectChecks(sum, total, 0.005 * total, QStringLiteral("the parts sum to the step"));
    // The GPU's roofline: the ridge is the used peak over the used bandwidth, the shares of the datasheet's.
    const QStringList roof = panel.rooflineChart()->texts();
    const QString figure = QStringLiteral("([0-9.,]+)");
    QRegularExpressionMatch used =
        firstMatch(roof, QStringLiteral("^used %1 % of %1 TFLOP/s, %1 % of %1 TB/s$").arg(figure));
    double peak = 0, peakTolerance = 0, bandwidth = 0, bandwidthTolerance = 0;
    if (used.hasMatch()) {
        const double a = number(used.captured(1)) / 100.0, b = number(used.captured(2));
        const double c = number(used.captured(3)) / 100.0, d = number(used.captured(4));
        peak = a * b;
        peakTolerance = halfUnit(used.captured(1)) / 100.0 * b + a * halfUnit(used.captured(2));
        bandwidth = c * d;
        bandwidthTolerance = halfUnit(used.captured(3)) / 100.0 * d + c * halfUnit(used.captured(4));
    } else {
        used = firstMatch(roof, QStringLiteral("^used: %1 TFLOP/s \\(%1 %\\), %1 TB/s \\(%1 %\\)$").arg(figure));
        const QRegularExpressionMatch sheet =
            firstMatch(roof, QStringLiteral("^datasheet: %1 TFLOP/s, %1 TB/s$").arg(figure));
        ASSERT_TRUE(used.hasMatch() && sheet.hasMatch()) << joined(roof);
        peak = number(used.captured(1));
        peakTolerance = halfUnit(used.captured(1));
        bandwidth = number(used.captured(3));
        bandwidthTolerance = halfUnit(used.captured(3));
        expectChecks(number(used.captured(2)), 100.0 * peak / number(sheet.captured(1)),
                     halfUnit(used.captured(2)) + 100.0 * peakTolerance / number(sheet.captured(1)), used.captured(0));
        expectChecks(number(used.captured(4)), 100.0 * bandwidth / number(sheet.captured(2)),
                     halfUnit(used.captured(4)) + 100.0 * bandwidthTolerance / number(sheet.captured(2)),
                     used.captured(0));
    }
    const QRegularExpressionMatch ridge = firstMatch(roof, QStringLiteral("^ridge %1 FLOP/byte$").arg(figure));
    ASSERT_TRUE(ridge.hasMatch()) << joined(roof);
    const double ratio = peak / bandwidth;
    expectChecks(number(ridge.captured(1)), ratio,
                 halfUnit(ridge.captured(1)) + ratio * (peakTolerance / peak + bandwidthTolerance / bandwidth),
                 ridge.captured(0));
}

}  // namespace

// The tab's explanations check with the figures they print, at the defaults, with speculative decoding, at a
// short context and on two GPUs.
TEST(UiBatchingAgreement, TheExplanationsArithmeticChecksWithTheRoundedFigures)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    expectArithmeticChecks(*tab.panel);
    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("3000"));
    fixtures::typeInto(tab.panel->batchSlider()->spinBox(), QStringLiteral("100"));
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().context, 3000);
    expectArithmeticChecks(*tab.panel);
    QSlider* gpus = control<QSlider>(*tab.panel, "batchingGpuCount");
    fixtures::clickCentre(gpus);
    QTest::keyClick(gpus, Qt::Key_Home);
    QTest::keyClick(gpus, Qt::Key_Right);
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().gpus, 2);
    expectArithmeticChecks(*tab.panel);
    speculate(tab, "4", "3");
    expectArithmeticChecks(*tab.panel);
}
