// The validation: the engine terms fitted on one part of the published measurements
// (tests/data/llm/validation.csv, sources in tests/data/README.md) predict the held-out rest, and beat a plain roofline
// with two fixed efficiencies. The tables this prints are the ones tests/data/README.md and the README quote.
#include "core/model/llm/calibration.h"
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace ridgeline;

namespace {

// The fit that makes EngineTerms::measured(): least squares on log error over the fit part, from the sourced priors,
// with a weak prior toward them (0.1 per unit of log) for the terms the points hardly separate.
constexpr double kPriorWeight = 0.1;

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

// The issue's target for a held-out set: median within 15 %, every row within 50 % (an explained miss within 60 %,
// llm_validation_support.h), and the median less than half the plain roofline's (which misses by about twice as much
// or more).
void expectWithinTheIssuesTarget(const std::vector<MeasuredPoint>& points, const std::vector<PointResidual>& residuals)
{
    const ErrorSummary summary = summarize(test::judgedAgainstTheTarget(residuals));
    const ErrorSummary plain = summarize(residualsOf(points, EngineTerms(Efficiency{})));
    EXPECT_LE(summary.medianAbs, 0.15);
    EXPECT_LE(summary.worstAbs, 0.50) << summary.worstId.toStdString();
    EXPECT_LT(summary.medianAbs, 0.5 * plain.medianAbs);
}

// A held-out set gathered after the fit: its rows with their errors, its figures per source (one docker line can give
// half of a set's rows) and against the plain roofline, then the issue's target.
void checkLaterHeldOutSet(const QString& split, const char* title)
{
    const std::vector<test::ValidationRow> rows = test::loadValidationRows();
    const std::vector<MeasuredPoint> points = test::validationPoints(rows, split);
    ASSERT_GE(points.size(), 60u);
    const std::vector<PointResidual> residuals = residualsOf(points, EngineTerms::measured());
    printResiduals(title, residuals);
    QStringList sources;
    for (const test::ValidationRow& row : rows)
        if (row.split == split && !sources.contains(row.source))
            sources << row.source;
    for (const QString& source : std::as_const(sources)) {
        std::vector<PointResidual> own;
        for (const PointResidual& r : residuals)
            for (const test::ValidationRow& row : rows)
                if (row.id == r.id && row.source == source)
                    own.push_back(r);
        printSummary(source.toLatin1().constData(), summarize(own));
    }
    printSummary(title, summarize(residuals));
    printSummary("the same, plain roofline 0.75 / 0.6", summarize(residualsOf(points, EngineTerms(Efficiency{}))));
    expectWithinTheIssuesTarget(points, residuals);
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

    expectWithinTheIssuesTarget(heldOut, held);
}

// A second held-out set, gathered blind after the fit (other editions of the same documents: TensorRT-LLM 0.5, 0.6.1
// and 0.8.0, the ROCm vLLM dev-docker 0.8.3 to 0.9.1). Its TensorRT-LLM misses shaped the per-query-head attention
// input (tests/data/README.md), so it is no longer blind to the model; the third set below is.
TEST(LlmValidation, ASecondHeldOutSetIsPredictedWithinTheIssuesTarget)
{
    checkLaterHeldOutSet(QStringLiteral("heldout2"), "second held-out set, measured terms");
}

// A third held-out set, gathered blind while the per-query-head attention input was made and fitted, and first
// predicted after that (ROCm vLLM dev-docker 0.7.3 of March 2025 and the vLLM 0.10.0 latency table).
TEST(LlmValidation, AThirdHeldOutSetGatheredBlindIsPredictedWithinTheIssuesTarget)
{
    checkLaterHeldOutSet(QStringLiteral("heldout3"), "third held-out set, measured terms");
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
