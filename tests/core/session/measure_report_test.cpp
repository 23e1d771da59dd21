// The measurement report's low-precision rows, printed for a real session of an Intel Xeon with AMX
// and for one without low precisions: the table says what the session holds, in the session's own figures.
#include "core/session/measure_report.h"
#include "core/model/units.h"
#include "core/session/decode_series.h"
#include "core/session/format/session_json.h"
#include "core/session/mixed_precision.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

QString reportOf(const Session& session)
{
    return measureReportText(session);
}

QString reportOf(const char* file)
{
    const Result<Session> session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(file));
    EXPECT_TRUE(session.ok()) << (session.ok() ? "" : session.error().message.toStdString());
    if (!session.ok())
        return {};
    return reportOf(session.value());
}

QStringList section(const QString& report, const QString& heading)
{
    const qsizetype start = report.indexOf(heading);
    if (start < 0)
        return {};
    const qsizetype end = report.indexOf(QStringLiteral("\n\n"), start);
    return report.mid(start, end - start).split(u'\n');
}

QString fixed2(double value)
{
    return QLocale::c().toString(value, 'f', 2);
}

}  // namespace

TEST(MeasureReport, DecodeByWeightPrecisionWithTheRooflinesBatchOneAndKnee)
{
    const Session session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json")).value();
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(session);
    ASSERT_EQ(all.size(), 3u);  // fp32, bf16, int8
    const QStringList rows = section(reportOf("xeon-amx-2vcpu.json"), QStringLiteral("decode by weight precision"));
    ASSERT_GE(rows.size(), 2 + static_cast<int>(all[0].measured.size()) + 2 + 3);
    EXPECT_TRUE(rows[1].contains(QRegularExpression(QStringLiteral("^batch +fp32 +bf16 +int8"))))
        << rows[1].toStdString();
    // One row per batch: tokens/s of each precision, the low ones against fp32's at the same batch.
    for (std::size_t i = 0; i < all[0].measured.size(); ++i) {
        const QString& row = rows[2 + static_cast<int>(i)];
        const KernelResult* fp32 = all[0].measured[i];
        EXPECT_TRUE(row.startsWith(QString::number(fp32->batch).rightJustified(5))) << row.toStdString();
        QString expected = formatGrouped(fp32->tokensPerSecond, 0);
        for (const DecodeSeries* low : {&all[1], &all[2]}) {
            const KernelResult* k = low->at(fp32->batch);
            ASSERT_NE(k, nullptr);
            EXPECT_TRUE(row.contains(
                QStringLiteral("%1  (%2x)")
                    .arg(formatGrouped(k->tokensPerSecond, 0), fixed2(k->tokensPerSecond / fp32->tokensPerSecond))))
                << row.toStdString();
        }
        EXPECT_TRUE(row.contains(expected)) << row.toStdString();
    }
    const QString batchOne = rows[2 + static_cast<int>(all[0].measured.size())];
    const QString knee = rows[3 + static_cast<int>(all[0].measured.size())];
    EXPECT_TRUE(batchOne.startsWith(QStringLiteral("roofline, batch 1"))) << batchOne.toStdString();
    EXPECT_TRUE(knee.startsWith(QStringLiteral("knee (roofline)"))) << knee.toStdString();
    for (const DecodeSeries& d : all) {
        EXPECT_TRUE(batchOne.contains(formatGrouped(d.predictedTokensPerSecond(1.0), 0))) << batchOne.toStdString();
        ASSERT_TRUE(d.kneeBatch) << d.precision.toStdString();
        EXPECT_TRUE(knee.contains(QStringLiteral("B = ") + formatGrouped(*d.kneeBatch, 0))) << knee.toStdString();
        // Each precision's roof named, int8's in operations.
        const QString roof =
            QStringLiteral("  %1 roof: %2 %3 %4 over DRAM")
                .arg(d.precision, d.roof->compute->name, formatGrouped(d.roof->compute->gflops, 0),
                     d.precision == QLatin1String("int8") ? QStringLiteral("GOPS") : QStringLiteral("GFLOP/s"));
        EXPECT_TRUE(rows.filter(roof).size() == 1) << roof.toStdString();
    }
}

TEST(MeasureReport, ABatchOnlyALowPrecisionRanHasItsRowWithoutARatio)
{
    // A time-bounded run skips different batches in each series: here fp32's B = 256 did not run.
    Session session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json")).value();
    const auto fp32At256 = std::find_if(session.kernels.begin(), session.kernels.end(), [](const KernelResult& k) {
        return k.name == QLatin1String("decode fp32 B=256");
    });
    ASSERT_NE(fp32At256, session.kernels.end());
    session.kernels.erase(fp32At256);
    const QStringList rows = section(reportOf(session), QStringLiteral("decode by weight precision"));
    const QStringList at256 = rows.filter(QRegularExpression(QStringLiteral("^  256 ")));
    ASSERT_EQ(at256.size(), 1) << rows.join(u'\n').toStdString();
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(session);
    ASSERT_EQ(all.size(), 3u);
    for (const DecodeSeries* low : {&all[1], &all[2]}) {
        const KernelResult* k = low->at(256);
        ASSERT_NE(k, nullptr);
        EXPECT_TRUE(at256[0].contains(formatGrouped(k->tokensPerSecond, 0))) << at256[0].toStdString();
    }
    EXPECT_FALSE(at256[0].contains(u'(')) << "no fp32 at 256, so no ratio: " << at256[0].toStdString();
}

TEST(MeasureReport, TheMixedPrecisionRatioOfEachN)
{
    const Session session =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json")).value();
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(session);
    ASSERT_EQ(pairs.size(), 4u);  // n = 512 ... 4096
    const QStringList rows = section(reportOf("xeon-amx-2vcpu.json"), QStringLiteral("mixed precision:"));
    ASSERT_EQ(rows.size(), 5);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const QString& row = rows[1 + static_cast<int>(i)];
        EXPECT_TRUE(row.startsWith(QStringLiteral("  n = ") + pairs[i].bf16->size.section(u'x', 0, 0)));
        EXPECT_TRUE(row.endsWith(QLocale::c().toString(pairs[i].speedup(), 'f', 1) + u'x')) << row.toStdString();
        EXPECT_TRUE(row.contains(formatGrouped(pairs[i].bf16->gflops, 1))) << row.toStdString();
        EXPECT_TRUE(row.contains(formatGrouped(pairs[i].sgemm->gflops, 1))) << row.toStdString();
    }
}

TEST(MeasureReport, LowPrecisionCeilingsSayInt8CountsOperations)
{
    const QString report = reportOf("xeon-amx-2vcpu.json");
    EXPECT_TRUE(report.contains(QStringLiteral("int8 rows count operations (GOPS")));
    for (const char* name : {"bf16 amx x1", "bf16 amx x2", "int8 amx x2", "bf16 avx512_bf16 x1", "fp16 avx512_fp16 x2",
                             "int8 avx512_vnni x1", "int8 avx_vnni x2"})
        EXPECT_TRUE(report.contains(QStringLiteral("\n") + QString::fromLatin1(name).leftJustified(22))) << name;
    EXPECT_TRUE(report.contains(QStringLiteral("1/16"))) << "AMX: one tile product per 16 cycles";
}

TEST(MeasureReport, ASessionWithoutLowPrecisionsHasNoneOfTheirRows)
{
    const QString report = reportOf("example_v1.json");
    ASSERT_FALSE(report.isEmpty());
    EXPECT_TRUE(report.contains(QStringLiteral("decode on this CPU")));
    EXPECT_FALSE(report.contains(QStringLiteral("decode by weight precision")));
    EXPECT_FALSE(report.contains(QStringLiteral("mixed precision")));
    EXPECT_FALSE(report.contains(QStringLiteral("GOPS")));
}

TEST(MeasureReport, TrainingStepPrintsEachWayAndItsChecksAndSurvivesSaving)
{
    Session session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json")).value();
    const Session without = session;
    TrainingResult& t = session.training;
    t.tokens = 512;
    t.model = 512;
    t.hidden = 2048;
    t.layers = 2;
    t.microBatches = 4;
    t.plainSeconds = 0.1;
    t.checkpointSeconds = 0.12;
    t.accumulateSeconds = 0.11;
    t.plainFlops = 1.2e10;
    t.recomputeFlops = 2.4e9;
    t.plainPeakBytes = 18.0 * 1024 * 1024;
    t.checkpointPeakBytes = 10.0 * 1024 * 1024;
    t.microBatchPeakBytes = 4.5 * 1024 * 1024;
    t.gradientDifference = 5e-7;
    t.tolerance = 1e-4;
    KernelResult k;
    k.kind = QStringLiteral("training-step");
    k.name = QStringLiteral("MLP training step, checkpointed");
    k.seconds = 0.12;
    k.gflops = 120.0;
    session.kernels.push_back(k);
    // A session written before the recompute's own time, the forward's FLOPs and the bf16 step: no line for them.
    const QStringList older = section(reportOf(session), QStringLiteral("training step:"));
    ASSERT_EQ(older.size(), 5) << older.join(u'\n').toStdString();
    EXPECT_TRUE(older[3].contains(QStringLiteral("recomputes 20.0 % of the plain step's FLOPs")));
    EXPECT_TRUE(older[3].endsWith(QStringLiteral("the checkpointed step took 20.0 % longer")))
        << older[3].toStdString();
    t.forwardFlops = 4.0e9;
    t.recomputeSeconds = 0.018;
    t.bf16Seconds = 0.05;
    t.bf16Fp32Seconds = 0.1;
    t.bf16Flops = 1.2e10;
    t.bf16PeakBytes = 9.5 * 1024 * 1024;
    t.bf16GradientDifference = 8e-3;
    t.bf16Products = QStringLiteral("oneDNN 2.6.3 brg:avx512_core_bf16");
    const QStringList rows = section(reportOf(session), QStringLiteral("training step:"));
    ASSERT_EQ(rows.size(), 7) << rows.join(u'\n').toStdString();
    EXPECT_TRUE(rows[0].contains(QStringLiteral("2 MLP blocks 512 -> 2048 -> 512 (GELU), 512 tokens")));
    EXPECT_TRUE(rows[1].contains(QRegularExpression(QStringLiteral("checkpointed +120.0 ms +120.0 GFLOP/s"))))
        << rows[1].toStdString();
    EXPECT_TRUE(rows[2].contains(QStringLiteral("18.0 MiB plain, 10.0 MiB checkpointed (8.0 MiB saved), 4.5 MiB")));
    EXPECT_TRUE(
        rows[3].contains(QStringLiteral("recomputes 20.0 % of the plain step's FLOPs (each block's first "
                                        "product and GELU), timed at 18.0 % of a plain step; the "
                                        "checkpointed step took 20.0 % longer")))
        << rows[3].toStdString();
    EXPECT_TRUE(rows[4].contains(QStringLiteral("a whole forward again: 33.3 % of this step's FLOPs")))
        << rows[4].toStdString();
    EXPECT_TRUE(rows[5].contains(QStringLiteral("micro-batches of 128 tokens, gradients within 5e-07")));
    EXPECT_TRUE(rows[5].contains(QStringLiteral("(within the tolerance 0.0001)")));
    EXPECT_TRUE(
        rows[6].contains(QStringLiteral("bf16 mixed precision (oneDNN 2.6.3 brg:avx512_core_bf16; fp32 "
                                        "master weights and gradients): 50.0 ms against fp32's 100.0 ms "
                                        "timed before it (2.00x); activations 9.5 MiB against 18.0 MiB "
                                        "(0.53x); gradients within 0.008 of fp32's")))
        << rows[6].toStdString();
    t.gradientDifference = 3e-3;
    EXPECT_TRUE(section(reportOf(session), QStringLiteral("training step:")).at(5).contains(QStringLiteral("OUTSIDE")));

    session.kernels.pop_back();  // a made-up kernel without the spread a saved one has
    const Result<Session> loaded = sessionFromJson(sessionToJson(session), QStringLiteral("saved"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().training.hidden, 2048);
    EXPECT_DOUBLE_EQ(loaded.value().training.checkpointPeakBytes, t.checkpointPeakBytes);
    EXPECT_DOUBLE_EQ(loaded.value().training.extraCompute(), 0.2);
    EXPECT_DOUBLE_EQ(loaded.value().training.recomputeSeconds, 0.018);
    EXPECT_DOUBLE_EQ(loaded.value().training.bf16PeakBytes, t.bf16PeakBytes);
    EXPECT_EQ(loaded.value().training.bf16Products, t.bf16Products);
    // The bf16 step's figures come together: one without the others is refused.
    QString partial = QString::fromUtf8(sessionToJson(session));
    partial.replace(QStringLiteral("\"bf16_flops\""), QStringLiteral("\"bf16_flops_misspelt\""));
    EXPECT_FALSE(sessionFromJson(partial.toUtf8(), QStringLiteral("partial")).ok());
    // A session without the step writes no training object, and the report has no section for it.
    EXPECT_FALSE(sessionToJson(without).contains("\"training\""));
    EXPECT_TRUE(section(reportOf(without), QStringLiteral("training step:")).isEmpty());
}
