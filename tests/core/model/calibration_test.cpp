// The fitter (core/model/llm/calibration): it recovers terms it generated points from, keeps every term valid, and
// refuses what it cannot fit with the point's name.
#include "core/model/llm/calibration.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ridgeline;

namespace {

// A small benchmark campaign of the kind a user runs: one model on one GPU, a batch sweep of static batches plus
// a TTFT, with fp8 weights.
std::vector<MeasuredPoint> campaign(const EngineTerms& truth)
{
    std::vector<MeasuredPoint> points;
    for (std::int64_t batch : {1, 4, 16, 64, 256}) {
        InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), batch, 1);
        c.weights = NumberFormat::Fp8;
        c.kv = NumberFormat::Fp8;
        c.prompt = 512;
        c.output = 256;
        MeasuredPoint p{QStringLiteral("b%1").arg(batch), c, MeasuredQuantity::EndToEnd, 0.0, 1.0};
        c.efficiency = truth;
        p.value = predictQuantity(test::prepared(c), p.quantity).value();
        points.push_back(p);
    }
    MeasuredPoint ttft = points.front();
    ttft.id = QStringLiteral("ttft");
    ttft.quantity = MeasuredQuantity::Ttft;
    ttft.config.prompt = 4096;
    InferenceConfig c = ttft.config;
    c.efficiency = truth;
    ttft.value = predictQuantity(test::prepared(c), ttft.quantity).value();
    points.push_back(ttft);
    return points;
}

EngineTerms truthTerms()
{
    EngineTerms t = EngineTerms::measured();
    setTermValue(t, EngineTerm{TermKind::WeightBandwidth, NumberFormat::Fp8}, 0.71);
    setTermValue(t, EngineTerm{TermKind::KvBandwidth, NumberFormat::Fp8}, 0.64);
    setTermValue(t, EngineTerm{TermKind::Compute, NumberFormat::Fp8}, 0.42);
    t.layerSeconds = 37e-6;
    return t;
}

}  // namespace

TEST(Calibration, RecoversTheTermsItsPointsWereMadeWith)
{
    const EngineTerms truth = truthTerms();
    const std::vector<MeasuredPoint> points = campaign(truth);
    const std::vector<EngineTerm> free = {EngineTerm{TermKind::WeightBandwidth, NumberFormat::Fp8},
                                          EngineTerm{TermKind::Compute, NumberFormat::Fp8},
                                          EngineTerm{TermKind::LayerSeconds}};
    FitOptions options;
    options.free = free;
    // Start from the plain roofline's values (0.75, 0.6, no fixed time) for the free terms.
    EngineTerms start = truth;
    setTermValue(start, free[0], kDefaultBandwidthEfficiency);
    setTermValue(start, free[1], kDefaultComputeEfficiency);
    setTermValue(start, free[2], 0.0);
    const Result<CalibrationFit> fit = fitEngineTerms(points, start, options);
    ASSERT_TRUE(fit.ok()) << fit.error().message.toStdString();
    EXPECT_TRUE(fit.value().converged);
    EXPECT_GT(fit.value().before.medianAbs, 0.05);  // the plain roofline misses these points
    EXPECT_LT(fit.value().after.worstAbs, 1e-4);
    EXPECT_NEAR(fit.value().terms.weightShare(NumberFormat::Fp8), 0.71, 1e-3);
    EXPECT_NEAR(fit.value().terms.computeShare(NumberFormat::Fp8), 0.42, 1e-3);
    EXPECT_NEAR(fit.value().terms.layerSeconds, 37e-6, 1e-7);
    // Terms not free keep their start value; the residuals are one per point, in order.
    EXPECT_EQ(fit.value().terms.computeShare(NumberFormat::Bf16), start.computeShare(NumberFormat::Bf16));
    ASSERT_EQ(fit.value().residuals.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_EQ(fit.value().residuals[i].id, points[i].id);
        EXPECT_DOUBLE_EQ(fit.value().residuals[i].measured, points[i].value);
    }
}

TEST(Calibration, ResidualsAreLogErrorsAndTheSummaryIsTheirMedianAndWorst)
{
    const std::vector<MeasuredPoint> points = campaign(truthTerms());
    const Result<std::vector<PointResidual>> plain = evaluatePoints(points, EngineTerms(Efficiency{}));
    ASSERT_TRUE(plain.ok());
    for (const PointResidual& r : plain.value()) {
        EXPECT_DOUBLE_EQ(r.logError, std::log(r.predicted / r.measured));
        EXPECT_NEAR(r.relativeError(), r.predicted / r.measured - 1.0, 1e-12);
    }
    const ErrorSummary s = summarize(plain.value());
    EXPECT_EQ(s.points, 6);
    EXPECT_LE(s.medianAbs, s.worstAbs);
    EXPECT_FALSE(s.worstId.isEmpty());
    const std::vector<PointResidual> three = {{QStringLiteral("a"), 1, 1.1, std::log(1.1)},
                                              {QStringLiteral("b"), 1, 0.5, std::log(0.5)},
                                              {QStringLiteral("c"), 1, 1.2, std::log(1.2)}};
    const ErrorSummary t = summarize(three);
    EXPECT_NEAR(t.medianAbs, 0.2, 1e-12);
    EXPECT_NEAR(t.worstAbs, 0.5, 1e-12);
    EXPECT_EQ(t.worstId, QStringLiteral("b"));
}

TEST(Calibration, FittableTermsAreTheFormatsThePointsUse)
{
    const std::vector<MeasuredPoint> points = campaign(truthTerms());
    const std::vector<EngineTerm> terms = fittableTerms(points);
    auto has = [&](EngineTerm term) { return std::find(terms.begin(), terms.end(), term) != terms.end(); };
    EXPECT_TRUE(has(EngineTerm{TermKind::WeightBandwidth, NumberFormat::Fp8}));
    EXPECT_TRUE(has(EngineTerm{TermKind::WeightBandwidth, NumberFormat::Bf16}));  // the LM head stays bf16
    EXPECT_TRUE(has(EngineTerm{TermKind::KvBandwidth, NumberFormat::Fp8}));
    EXPECT_TRUE(has(EngineTerm{TermKind::Compute, NumberFormat::Fp8}));
    EXPECT_TRUE(has(EngineTerm{TermKind::LayerSeconds}));
    EXPECT_FALSE(has(EngineTerm{TermKind::KvBandwidth, NumberFormat::Bf16}));
    EXPECT_FALSE(has(EngineTerm{TermKind::CollectiveSeconds}));  // no point is tensor-parallel
}

TEST(Calibration, APriorKeepsATermNoPointDecidesAtItsStart)
{
    // Five points of one model cannot separate a fixed time per layer from one per step; with a prior the fit
    // still ends near its start for the term it cannot see and reports nothing absurd.
    const std::vector<MeasuredPoint> points = campaign(truthTerms());
    FitOptions options;
    options.priorWeight = 0.05;
    options.free = {EngineTerm{TermKind::LayerSeconds}, EngineTerm{TermKind::StepSeconds},
                    EngineTerm{TermKind::Compute, NumberFormat::Fp4}};
    const Result<CalibrationFit> fit = fitEngineTerms(points, truthTerms(), options);
    ASSERT_TRUE(fit.ok());
    EXPECT_NEAR(fit.value().terms.computeShare(NumberFormat::Fp4), truthTerms().computeShare(NumberFormat::Fp4), 1e-9);
    EXPECT_TRUE(fit.value().notes.join(QLatin1Char(' ')).contains(QStringLiteral("compute.fp4")));
    EXPECT_LT(fit.value().after.worstAbs, 1e-3);
    EXPECT_FALSE(checkTerms(fit.value().terms).has_value());
}

TEST(Calibration, BadPointsAreRefusedByName)
{
    std::vector<MeasuredPoint> points = campaign(truthTerms());
    EXPECT_FALSE(fitEngineTerms({}, EngineTerms::measured()).ok());
    for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        std::vector<MeasuredPoint> broken = points;
        broken[2].value = bad;
        const Result<CalibrationFit> fit = fitEngineTerms(broken, EngineTerms::measured());
        ASSERT_FALSE(fit.ok()) << bad;
        EXPECT_TRUE(fit.error().message.contains(QStringLiteral("b16"))) << fit.error().message.toStdString();
    }
    std::vector<MeasuredPoint> noPrompt = points;
    noPrompt[0].config.prompt = 0;
    noPrompt[0].config.output = 0;
    const Result<CalibrationFit> fit = fitEngineTerms(noPrompt, EngineTerms::measured());
    ASSERT_FALSE(fit.ok());
    EXPECT_TRUE(fit.error().message.contains(QStringLiteral("b1"))) << fit.error().message.toStdString();
    EXPECT_TRUE(fit.error().message.contains(QStringLiteral("prompt")));
    FitOptions badPrior;
    badPrior.priorWeight = -1;
    EXPECT_FALSE(fitEngineTerms(points, EngineTerms::measured(), badPrior).ok());
}

TEST(Calibration, QuantityNamesRoundTripAndMatchTheReport)
{
    InferenceConfig c = test::config(test::model("mixtral-8x7b"), test::gpu("h100-sxm"), 8, 1000);
    c.prompt = 1000;
    c.output = 200;
    c.efficiency = EngineTerms::measured();
    const LlmModel model = test::prepared(c);
    const InferenceReport report = model.report().value();
    for (MeasuredQuantity q :
         {MeasuredQuantity::TokenLatency, MeasuredQuantity::TokensPerSecond, MeasuredQuantity::Ttft,
          MeasuredQuantity::EndToEnd, MeasuredQuantity::StaticThroughput, MeasuredQuantity::StaticTpot,
          MeasuredQuantity::StaticDecodeRate, MeasuredQuantity::ServingTpot, MeasuredQuantity::ServingThroughput}) {
        EXPECT_EQ(parseQuantityName(quantityName(q)), q);
        const double predicted = predictQuantity(model, q).value();
        ASSERT_TRUE(reportedQuantity(report, q).has_value()) << quantityName(q).toStdString();
        EXPECT_NEAR(*reportedQuantity(report, q) / predicted, 1.0, 1e-12) << quantityName(q).toStdString();
    }
    EXPECT_FALSE(parseQuantityName(u"tokens_per_fortnight").has_value());
}
