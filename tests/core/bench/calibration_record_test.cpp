// A stored calibration gives the window what it needs: the fitted terms and each point's setup, from which the
// model reproduces the stored predictions (and draws its curve through the points).
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/session/format/session_json.h"
#include "tests/core/bench/bench_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

TEST(CalibrationRecord, TheStoredTermsAndSetupsReproduceTheStoredPredictions)
{
    const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated.json"));
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    const Calibration& calibration = session.value().calibrations.front();
    const Result<EngineTerms> terms = fittedTerms(calibration);
    ASSERT_TRUE(terms.ok()) << terms.error().message.toStdString();
    for (const CalibrationPoint& point : calibration.points) {
        SCOPED_TRACE(point.id.toStdString());
        const auto quantity = parseQuantityName(point.quantity);
        ASSERT_TRUE(quantity);
        const Result<InferenceConfig> config = configOf(point, terms.value());
        ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
        const auto model = LlmModel::create(config.value());
        ASSERT_TRUE(model.ok());
        const Result<double> predicted = predictQuantity(model.value(), *quantity);
        ASSERT_TRUE(predicted.ok());
        EXPECT_TRUE(test::nearly(predicted.value(), point.predicted));
        // And with the terms it started from, the prediction before the fit.
        EngineTerms start = EngineTerms::measured();
        for (const CalibrationTerm& term : calibration.terms)
            setTermValue(start, *parseTermName(term.name), term.start);
        const Result<InferenceConfig> before = configOf(point, start);
        EXPECT_TRUE(test::nearly(predictQuantity(LlmModel::create(before.value()).value(), *quantity).value(),
                                 point.predictedBefore));
    }
}

TEST(CalibrationRecord, ATermThisBuildDoesNotKnowIsRefusedByName)
{
    Calibration calibration;
    calibration.terms = {{QStringLiteral("flux_capacitance"), 0.5, 0.5}};
    const Result<EngineTerms> terms = fittedTerms(calibration);
    ASSERT_FALSE(terms.ok());
    EXPECT_EQ(
        terms.error().message,
        QStringLiteral("the calibration holds the term \"flux_capacitance\", which this Ridgeline does not know"));
    CalibrationPoint point;
    point.id = QStringLiteral("x.json:1 tg128");
    point.model = QStringLiteral("no-such-model");
    point.gpu = QStringLiteral("h100-sxm");
    point.weights = QStringLiteral("bf16");
    point.kv = QStringLiteral("bf16");
    const Result<InferenceConfig> config = configOf(point, EngineTerms::measured());
    ASSERT_FALSE(config.ok());
    EXPECT_TRUE(config.error().message.startsWith(u"x.json:1 tg128: ")) << config.error().message.toStdString();
}

TEST(CalibrationRecord, ANewSessionHoldsOnlyTheCalibrationAndABaseKeepsWhatItHad)
{
    Calibration calibration;
    CalibrationPoint point;
    point.file = QStringLiteral("sweep.json");
    calibration.points = {point};
    const Session fresh = sessionWithCalibration(std::nullopt, calibration);
    EXPECT_EQ(fresh.title, QStringLiteral("Calibration from sweep.json"));
    EXPECT_EQ(fresh.calibrations.size(), 1u);
    EXPECT_TRUE(fresh.kernels.empty());
    const Result<Session> base = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    ASSERT_TRUE(base.ok());
    const Session added = sessionWithCalibration(base.value(), calibration);
    EXPECT_EQ(added.kernels.size(), base.value().kernels.size());
    EXPECT_EQ(added.title, base.value().title);
    EXPECT_EQ(added.calibrations.size(), base.value().calibrations.size() + 1);
}

}  // namespace
}  // namespace ridgeline
