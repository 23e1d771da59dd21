// Calibrations in a session (schema 2): what `ridgeline calibrate --out` writes loads back field for field.
#include "core/model/llm/engine_terms.h"
#include "core/session/format/session_json.h"

#include <QFile>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

const QString kCalibrated = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated.json");

Calibration handMade()
{
    Calibration c;
    c.created = QDateTime::fromString(QStringLiteral("2026-12-03T15:10:04.728Z"), Qt::ISODateWithMs);
    c.generator = QStringLiteral("ridgeline 0.1.0 calibrate");
    c.sources = {QStringLiteral("sweep.json: vLLM serving result (vllm bench serve, 2025 or later)")};
    c.freeTerms = {QStringLiteral("layer_seconds"), QStringLiteral("weight_bandwidth.fp8")};
    c.terms = {{QStringLiteral("layer_seconds"), 5e-5, 6.125e-5},
               {QStringLiteral("weight_bandwidth.fp8"), 0.7, 0.6625},
               {QStringLiteral("step_seconds"), 0.0, 0.0}};
    c.iterations = 12;
    c.converged = true;
    c.before = {0.25, 0.5, 0.3};
    c.after = {0.0125, 0.03, 0.02};
    CalibrationPoint p;
    p.id = QStringLiteral("sweep.json:2 concurrency 4");
    p.file = QStringLiteral("sweep.json");
    p.run = 2;
    p.label = QStringLiteral("concurrency 4");
    p.quantity = QStringLiteral("serving_tpot_s");
    p.statistic = QStringLiteral("median TPOT");
    p.model = QStringLiteral("llama-3.1-70b");
    p.gpu = QStringLiteral("h100-sxm");
    p.tensorParallel = 4;
    p.weights = QStringLiteral("fp8");
    p.kv = QStringLiteral("fp8");
    p.batch = 4;
    p.prompt = 2048;
    p.output = 256;
    p.measured = 0.0125;
    p.predictedBefore = 0.0151;
    p.predicted = 0.01261;
    c.points = {p};
    c.notes = {QStringLiteral("the KV cache format is not recorded; taken as bf16 (give --kv to change it)")};
    return c;
}

TEST(SessionCalibration, EveryFieldSurvivesSavingAndLoading)
{
    Session session;
    session.machine.cpuModel = QStringLiteral("not measured");
    session.machine.cores = 1;
    session.calibrations = {handMade(), handMade()};
    session.calibrations[1].converged = false;
    const Result<Session> loaded = sessionFromJson(sessionToJson(session), QStringLiteral("s.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_EQ(loaded.value().calibrations.size(), 2u);
    const Calibration& c = loaded.value().calibrations[0];
    const Calibration expected = handMade();
    EXPECT_EQ(c.created, expected.created);
    EXPECT_EQ(c.generator, expected.generator);
    EXPECT_EQ(c.sources, expected.sources);
    EXPECT_EQ(c.freeTerms, expected.freeTerms);
    ASSERT_EQ(c.terms.size(), 3u);
    EXPECT_EQ(c.terms[1].name, QStringLiteral("weight_bandwidth.fp8"));
    EXPECT_EQ(c.terms[1].start, 0.7);
    EXPECT_EQ(c.terms[1].fitted, 0.6625);
    EXPECT_EQ(c.iterations, 12);
    EXPECT_TRUE(c.converged);
    EXPECT_FALSE(loaded.value().calibrations[1].converged);
    EXPECT_EQ(c.before.medianAbs, 0.25);
    EXPECT_EQ(c.after.worstAbs, 0.03);
    EXPECT_EQ(c.after.rmsLog, 0.02);
    ASSERT_EQ(c.points.size(), 1u);
    const CalibrationPoint& p = c.points[0];
    EXPECT_EQ(p.id, expected.points[0].id);
    EXPECT_EQ(p.file, QStringLiteral("sweep.json"));
    EXPECT_EQ(p.run, 2);
    EXPECT_EQ(p.label, QStringLiteral("concurrency 4"));
    EXPECT_EQ(p.quantity, QStringLiteral("serving_tpot_s"));
    EXPECT_EQ(p.statistic, QStringLiteral("median TPOT"));
    EXPECT_EQ(p.model, QStringLiteral("llama-3.1-70b"));
    EXPECT_EQ(p.gpu, QStringLiteral("h100-sxm"));
    EXPECT_EQ(p.tensorParallel, 4);
    EXPECT_EQ(p.weights, QStringLiteral("fp8"));
    EXPECT_EQ(p.kv, QStringLiteral("fp8"));
    EXPECT_EQ(p.batch, 4);
    EXPECT_EQ(p.prompt, 2048);
    EXPECT_EQ(p.output, 256);
    EXPECT_EQ(p.measured, 0.0125);
    EXPECT_EQ(p.predictedBefore, 0.0151);
    EXPECT_EQ(p.predicted, 0.01261);
    EXPECT_EQ(c.notes, expected.notes);
}

TEST(SessionCalibration, ASessionWithoutCalibrationsWritesNoCalibrationsKey)
{
    Session session;
    session.machine.cpuModel = QStringLiteral("x");
    session.machine.cores = 1;
    EXPECT_FALSE(sessionToJson(session).contains("calibrations"));
}

TEST(SessionCalibration, TheCalibratedFixtureIsStoredExactlyAsRidgelineWritesIt)
{
    QFile file(kCalibrated);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const Result<Session> loaded = sessionFromJson(bytes, QStringLiteral("calibrated.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_EQ(loaded.value().calibrations.size(), 1u);
    const Calibration& c = loaded.value().calibrations.front();
    EXPECT_EQ(c.points.size(), 3u);
    EXPECT_FALSE(c.freeTerms.isEmpty());
    // Every engine term of its day, with its start and fitted value; written before head_read_seconds existed, so a
    // file of an earlier Ridgeline stays readable (the missing term takes its measured default) and is kept as it is.
    EXPECT_EQ(c.terms.size() + 1, allTerms().size());
    for (const CalibrationTerm& term : c.terms)
        EXPECT_NE(term.name, QStringLiteral("head_read_seconds"));
    EXPECT_LT(c.after.medianAbs, c.before.medianAbs);
    EXPECT_EQ(sessionToJson(loaded.value()), bytes);
}

}  // namespace
