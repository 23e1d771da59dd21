#include "core/model/llm/calibration.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace ridgeline {

namespace {

struct QuantityInfo {
    MeasuredQuantity quantity;
    const char* name;
    bool rate;
};

constexpr std::array kQuantities = {
    QuantityInfo{MeasuredQuantity::TokenLatency, "token_latency_s", false},
    QuantityInfo{MeasuredQuantity::TokensPerSecond, "tokens_per_s", true},
    QuantityInfo{MeasuredQuantity::Ttft, "ttft_s", false},
    QuantityInfo{MeasuredQuantity::EndToEnd, "e2e_latency_s", false},
    QuantityInfo{MeasuredQuantity::StaticThroughput, "throughput_tokens_per_s", true},
    QuantityInfo{MeasuredQuantity::StaticTpot, "tpot_s", false},
    QuantityInfo{MeasuredQuantity::StaticDecodeRate, "decode_tokens_per_s", true},
    QuantityInfo{MeasuredQuantity::ServingTpot, "serving_tpot_s", false},
    QuantityInfo{MeasuredQuantity::ServingThroughput, "serving_tokens_per_s", true},
};

const QuantityInfo& info(MeasuredQuantity quantity)
{
    for (const QuantityInfo& q : kQuantities)
        if (q.quantity == quantity)
            return q;
    return kQuantities.front();
}

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}

// Internal coordinates: a share as it is, kept in [kMinShare, 1]; a time in microseconds, kept in [0, kMaxMicroseconds]
// (projected steps: a term that wants to go past a bound stops there, and can leave it again).
constexpr double kMinShare = 1e-3;
constexpr double kMaxMicroseconds = 1e5;    // 0.1 s: far beyond any fixed time an engine spends
constexpr double kPriorMicroseconds = 1.0;  // the prior compares times as ln((t + 1 us) / (t0 + 1 us))

double lowerBound(const EngineTerm& term)
{
    return term.isShare() ? kMinShare : 0.0;
}
double upperBound(const EngineTerm& term)
{
    return term.isShare() ? 1.0 : kMaxMicroseconds;
}

double toValue(const EngineTerm& term, double theta)
{
    theta = std::clamp(theta, lowerBound(term), upperBound(term));
    return term.isShare() ? theta : theta * 1e-6;
}

double toTheta(const EngineTerm& term, double value)
{
    return std::clamp(term.isShare() ? value : value * 1e6, lowerBound(term), upperBound(term));
}

double priorCoordinate(const EngineTerm& term, double theta)
{
    return term.isShare() ? std::log(theta) : std::log(theta + kPriorMicroseconds);
}

EngineTerms termsAt(const EngineTerms& start, const std::vector<EngineTerm>& free, const std::vector<double>& theta)
{
    EngineTerms terms = start;
    for (std::size_t i = 0; i < free.size(); ++i)
        setTermValue(terms, free[i], toValue(free[i], theta[i]));
    return terms;
}

Result<double> predictPoint(const MeasuredPoint& point, const EngineTerms& terms)
{
    InferenceConfig config = point.config;
    config.efficiency = terms;
    Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return invalid(QStringLiteral("point %1: %2").arg(point.id, model.error().message));
    Result<double> value = predictQuantity(model.value(), point.quantity);
    if (!value)
        return invalid(QStringLiteral("point %1: %2").arg(point.id, value.error().message));
    return value;
}

// Solves A x = b for a small dense system by Gaussian elimination with partial pivoting; false when singular.
bool solve(std::vector<double> a, std::vector<double> b, std::size_t n, std::vector<double>& x)
{
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t row = col + 1; row < n; ++row)
            if (std::fabs(a[row * n + col]) > std::fabs(a[pivot * n + col]))
                pivot = row;
        if (!(std::fabs(a[pivot * n + col]) > 1e-300))
            return false;
        if (pivot != col) {
            for (std::size_t k = 0; k < n; ++k)
                std::swap(a[col * n + k], a[pivot * n + k]);
            std::swap(b[col], b[pivot]);
        }
        for (std::size_t row = col + 1; row < n; ++row) {
            const double f = a[row * n + col] / a[col * n + col];
            for (std::size_t k = col; k < n; ++k)
                a[row * n + k] -= f * a[col * n + k];
            b[row] -= f * b[col];
        }
    }
    x.assign(n, 0.0);
    for (std::size_t i = n; i-- > 0;) {
        double sum = b[i];
        for (std::size_t k = i + 1; k < n; ++k)
            sum -= a[i * n + k] * x[k];
        x[i] = sum / a[i * n + i];
    }
    return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

QString quantityName(MeasuredQuantity quantity)
{
    return QLatin1String(info(quantity).name);
}

std::optional<MeasuredQuantity> parseQuantityName(QStringView name)
{
    for (const QuantityInfo& q : kQuantities)
        if (name.compare(QLatin1String(q.name), Qt::CaseInsensitive) == 0)
            return q.quantity;
    return std::nullopt;
}

bool isRate(MeasuredQuantity quantity)
{
    return info(quantity).rate;
}

Result<double> predictQuantity(const LlmModel& model, MeasuredQuantity quantity)
{
    const InferenceConfig& c = model.config();
    const double accepted = c.speculative.acceptance;
    const double batch = static_cast<double>(c.batch);
    auto needs = [&](bool ok, const char* what) -> std::optional<Error> {
        if (ok)
            return std::nullopt;
        return invalid(QStringLiteral("%1 needs %2").arg(quantityName(quantity), QLatin1String(what)));
    };
    switch (quantity) {
        case MeasuredQuantity::TokenLatency:
            return model.decodeStep(c.batch, c.context).seconds / accepted;
        case MeasuredQuantity::TokensPerSecond:
            return batch * accepted / model.decodeStep(c.batch, c.context).seconds;
        case MeasuredQuantity::Ttft:
            if (auto e = needs(c.prompt > 0, "a prompt"))
                return *e;
            return model.prefill(c.batch, c.prompt).seconds;
        case MeasuredQuantity::EndToEnd:
        case MeasuredQuantity::StaticThroughput: {
            if (auto e = needs(c.prompt > 0 && c.output > 0, "a prompt and an output"))
                return *e;
            const double e2e = model.prefill(c.batch, c.prompt).seconds +
                               model.decodeSecondsSum(c.batch, c.prompt + 1, c.prompt + c.output - 1);
            return quantity == MeasuredQuantity::EndToEnd ? e2e : batch * static_cast<double>(c.output) / e2e;
        }
        case MeasuredQuantity::StaticTpot:
        case MeasuredQuantity::StaticDecodeRate: {
            if (auto e = needs(c.prompt > 0 && c.output >= 2, "a prompt and an output of at least 2 tokens"))
                return *e;
            const double tpot = model.decodeSecondsSum(c.batch, c.prompt + 1, c.prompt + c.output - 1) /
                                static_cast<double>(c.output - 1);
            return quantity == MeasuredQuantity::StaticTpot ? tpot : batch / tpot;
        }
        case MeasuredQuantity::ServingTpot:
        case MeasuredQuantity::ServingThroughput: {
            if (auto e = needs(c.prompt > 0 && c.output >= 2, "a prompt and an output of at least 2 tokens"))
                return *e;
            const ServingEstimate s = model.serving(c.batch, c.prompt, c.output);
            return quantity == MeasuredQuantity::ServingTpot ? s.tpotSeconds : s.outputTokensPerSecond;
        }
    }
    return invalid(QStringLiteral("unknown quantity"));
}

std::optional<double> reportedQuantity(const InferenceReport& r, MeasuredQuantity quantity)
{
    switch (quantity) {
        case MeasuredQuantity::TokenLatency:
            return 1.0 / r.tokensPerSecondPerSequence;
        case MeasuredQuantity::TokensPerSecond:
            return r.tokensPerSecond;
        case MeasuredQuantity::Ttft:
            return r.ttftSeconds;
        case MeasuredQuantity::EndToEnd:
            return r.e2eLatencySeconds;
        case MeasuredQuantity::StaticThroughput:
            return r.throughputTokensPerSecond;
        case MeasuredQuantity::StaticTpot:
            return r.meanDecodeStepSeconds;
        case MeasuredQuantity::StaticDecodeRate:
            if (!r.meanDecodeStepSeconds)
                return std::nullopt;
            return r.tokensPerSecond / r.tokensPerSecondPerSequence / *r.meanDecodeStepSeconds;  // batch / tpot
        case MeasuredQuantity::ServingTpot:
            if (!r.serving)
                return std::nullopt;
            return r.serving->tpotSeconds;
        case MeasuredQuantity::ServingThroughput:
            if (!r.serving)
                return std::nullopt;
            return r.serving->outputTokensPerSecond;
    }
    return std::nullopt;
}

ErrorSummary summarize(const std::vector<PointResidual>& residuals)
{
    ErrorSummary s;
    s.points = static_cast<int>(residuals.size());
    if (residuals.empty())
        return s;
    std::vector<double> abs;
    double sumSquares = 0.0;
    for (const PointResidual& r : residuals) {
        abs.push_back(r.absoluteError());
        sumSquares += r.logError * r.logError;
        s.meanAbs += r.absoluteError();
        if (r.absoluteError() >= s.worstAbs) {
            s.worstAbs = r.absoluteError();
            s.worstId = r.id;
        }
    }
    std::sort(abs.begin(), abs.end());
    const std::size_t n = abs.size();
    s.medianAbs = n % 2 == 1 ? abs[n / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2.0;
    s.meanAbs /= static_cast<double>(n);
    s.rmsLog = std::sqrt(sumSquares / static_cast<double>(n));
    return s;
}

std::vector<EngineTerm> fittableTerms(const std::vector<MeasuredPoint>& points)
{
    std::vector<EngineTerm> terms;
    auto add = [&](EngineTerm term) {
        if (std::find(terms.begin(), terms.end(), term) == terms.end())
            terms.push_back(term);
    };
    bool parallel = false, prefills = false, experts = false, headReads = false;
    for (const MeasuredPoint& point : points) {
        const InferenceConfig& c = point.config;
        Result<LlmModel> model = LlmModel::create(c);
        if (!model)
            continue;  // evaluatePoints reports it
        for (NumberFormat storage : {c.weights, c.attentionFormat(), c.headFormat()})
            add(EngineTerm{TermKind::WeightBandwidth, storage});
        add(EngineTerm{TermKind::KvBandwidth, c.kv});
        Result<InferenceReport> report = model.value().report();
        if (report) {
            add(EngineTerm{TermKind::Compute, report.value().computePrecision});
            add(EngineTerm{TermKind::Compute, report.value().attentionPrecision});
        }
        parallel = parallel || c.tensorParallel > 1;
        prefills = prefills || (c.prompt > 0 && point.quantity != MeasuredQuantity::TokenLatency &&
                                point.quantity != MeasuredQuantity::TokensPerSecond);
        experts = experts || c.model.isMoe();
        headReads = headReads || (c.decodeAttention == DecodeAttention::PerQueryHead && !c.model.isMla() &&
                                  c.model.heads > c.model.kvHeads);
    }
    if (!points.empty()) {
        add(EngineTerm{TermKind::LayerSeconds});
        add(EngineTerm{TermKind::StepSeconds});
        add(EngineTerm{TermKind::SequenceSeconds});
        add(EngineTerm{TermKind::Overlap});
    }
    if (parallel)
        add(EngineTerm{TermKind::CollectiveSeconds});
    if (prefills)
        add(EngineTerm{TermKind::PrefillSeconds});
    if (experts)
        add(EngineTerm{TermKind::ExpertShare});
    if (headReads)
        add(EngineTerm{TermKind::HeadReadSeconds});
    return terms;
}

Result<std::vector<PointResidual>> evaluatePoints(const std::vector<MeasuredPoint>& points, const EngineTerms& terms)
{
    if (const std::optional<QString> bad = checkTerms(terms))
        return invalid(*bad);
    std::vector<PointResidual> residuals;
    residuals.reserve(points.size());
    for (const MeasuredPoint& point : points) {
        if (!(point.value > 0) || !std::isfinite(point.value))
            return invalid(QStringLiteral("point %1: the measured value must be a positive number, got %2")
                               .arg(point.id)
                               .arg(point.value));
        if (!(point.weight > 0) || !std::isfinite(point.weight))
            return invalid(QStringLiteral("point %1: the weight must be a positive number").arg(point.id));
        Result<double> predicted = predictPoint(point, terms);
        if (!predicted)
            return predicted.error();
        if (!(predicted.value() > 0) || !std::isfinite(predicted.value()))
            return invalid(QStringLiteral("point %1: the model predicts no finite positive value").arg(point.id));
        residuals.push_back(
            PointResidual{point.id, point.value, predicted.value(), std::log(predicted.value() / point.value)});
    }
    return residuals;
}

namespace {

// The least-squares problem of a fit over θ, the free terms in fit coordinates (toTheta): one residual per point,
// sqrt(weight) x log error, then one per free term, the prior pulling it towards its start value θ0.
struct FitProblem {
    const std::vector<MeasuredPoint>& points;
    const EngineTerms& start;
    const std::vector<EngineTerm>& free;
    double priorWeight = 0.0;
    std::vector<double> theta0;

    std::size_t rows() const { return points.size() + free.size(); }
    // False when the model cannot evaluate a point at θ.
    bool residuals(const std::vector<double>& at, std::vector<double>& out) const;
};

bool FitProblem::residuals(const std::vector<double>& at, std::vector<double>& out) const
{
    const std::size_t m = points.size(), n = free.size();
    const EngineTerms terms = termsAt(start, free, at);
    out.assign(m + n, 0.0);
    for (std::size_t k = 0; k < m; ++k) {
        const Result<double> predicted = predictPoint(points[k], terms);
        if (!predicted || !(predicted.value() > 0) || !std::isfinite(predicted.value()))
            return false;
        out[k] = std::sqrt(points[k].weight) * std::log(predicted.value() / points[k].value);
    }
    for (std::size_t i = 0; i < n; ++i)
        out[m + i] = priorWeight * (priorCoordinate(free[i], at[i]) - priorCoordinate(free[i], theta0[i]));
    return true;
}

double sumOfSquares(const std::vector<double>& r)
{
    return std::inner_product(r.begin(), r.end(), r.begin(), 0.0);
}

// Where Levenberg-Marquardt stands between iterations: θ, its residuals and cost, and the damping λ.
struct Descent {
    std::vector<double> theta;
    std::vector<double> r;
    double cost = 0.0;
    double lambda = 1e-3;
};

// The Jacobian of the residuals by forward differences in θ, row-major (rows x free terms); an error names the term
// near which the model cannot evaluate the points.
std::optional<Error> forwardJacobian(const FitProblem& problem, const Descent& d, std::vector<double>& jacobian)
{
    const std::size_t n = problem.free.size();
    std::vector<double> rShifted;
    for (std::size_t i = 0; i < n; ++i) {
        const EngineTerm& term = problem.free[i];
        std::vector<double> shifted = d.theta;
        double h = 1e-6 * std::max(term.isShare() ? 0.1 : 1.0, std::fabs(d.theta[i]));
        if (d.theta[i] + h > upperBound(term))
            h = -h;  // at the upper bound: difference downwards
        shifted[i] += h;
        if (!problem.residuals(shifted, rShifted))
            return invalid(QStringLiteral("the model cannot evaluate the points near %1").arg(termName(term)));
        for (std::size_t k = 0; k < problem.rows(); ++k)
            jacobian[k * n + i] = (rShifted[k] - d.r[k]) / h;
    }
    return std::nullopt;
}

// JᵀJ and Jᵀr, the normal equations of the Gauss-Newton step.
void normalEquations(const std::vector<double>& jacobian, const std::vector<double>& r, std::size_t n,
                     std::vector<double>& jtj, std::vector<double>& jtr)
{
    jtj.assign(n * n, 0.0);
    jtr.assign(n, 0.0);
    for (std::size_t k = 0; k < r.size(); ++k)
        for (std::size_t i = 0; i < n; ++i) {
            jtr[i] += jacobian[k * n + i] * r[k];
            for (std::size_t j = 0; j < n; ++j)
                jtj[i * n + j] += jacobian[k * n + i] * jacobian[k * n + j];
        }
}

// A term held at a bound that the descent direction pushes further out stays there this iteration (the active
// set), so that it does not distort the step of the others.
std::vector<bool> heldAtBounds(const std::vector<EngineTerm>& free, const std::vector<double>& theta,
                               const std::vector<double>& jtr)
{
    std::vector<bool> held(free.size(), false);
    for (std::size_t i = 0; i < free.size(); ++i)
        held[i] = (theta[i] <= lowerBound(free[i]) && jtr[i] > 0) || (theta[i] >= upperBound(free[i]) && jtr[i] < 0);
    return held;
}

// Raises the damping until a projected step (terms clamped to their bounds, held terms fixed) lowers the cost, and
// takes it; `converged` when it gained next to nothing. False when no step below λ = 1e12 lowers the cost.
bool takeDampedStep(const FitProblem& problem, const std::vector<double>& jtj, const std::vector<double>& jtr,
                    const std::vector<bool>& held, Descent& d, bool& converged)
{
    const std::size_t n = problem.free.size();
    std::vector<double> trial, rTrial;
    while (d.lambda < 1e12) {
        std::vector<double> a = jtj, step;
        for (std::size_t i = 0; i < n; ++i)
            a[i * n + i] += d.lambda * std::max(jtj[i * n + i], 1e-12);
        std::vector<double> minusJtr(n);
        for (std::size_t i = 0; i < n; ++i)
            minusJtr[i] = -jtr[i];
        for (std::size_t i = 0; i < n; ++i) {
            if (!held[i])
                continue;
            for (std::size_t j = 0; j < n; ++j)
                a[i * n + j] = a[j * n + i] = 0.0;
            a[i * n + i] = 1.0;
            minusJtr[i] = 0.0;
        }
        if (solve(a, minusJtr, n, step)) {
            trial = d.theta;
            for (std::size_t i = 0; i < n; ++i)
                trial[i] = std::clamp(trial[i] + step[i], lowerBound(problem.free[i]), upperBound(problem.free[i]));
            if (problem.residuals(trial, rTrial) && sumOfSquares(rTrial) < d.cost) {
                const double gain = d.cost - sumOfSquares(rTrial);
                d.theta = trial;
                d.r = rTrial;
                d.cost = sumOfSquares(rTrial);
                d.lambda = std::max(d.lambda / 3.0, 1e-12);
                converged = gain < 1e-9 * std::max(d.cost, 1e-300);
                return true;
            }
        }
        d.lambda *= 4.0;
    }
    return false;
}

// What a reader of the fit should know: shares that reached 1, times that went to 0, terms no point depends on
// (a zero column of the last Jacobian over the points' rows).
QStringList fitNotes(const CalibrationFit& fit, const EngineTerms& start, const std::vector<double>& jacobian,
                     std::size_t points)
{
    QStringList notes;
    const std::size_t n = fit.free.size();
    for (std::size_t i = 0; i < n; ++i) {
        const double v = termValue(fit.terms, fit.free[i]);
        if (fit.free[i].isShare() && v > 0.999)
            notes << QStringLiteral("%1 reached 1: the points want more than the figure it is a share of")
                         .arg(termName(fit.free[i]));
        // A time "went to 0" when the fit took it to under a thousandth of where it began (the fixed times span
        // nanoseconds per token to microseconds per layer, so no absolute threshold fits them all).
        if (!fit.free[i].isShare() && v <= 1e-3 * termValue(start, fit.free[i]) && termValue(start, fit.free[i]) > 0)
            notes << QStringLiteral("%1 went to 0").arg(termName(fit.free[i]));
        bool moved = false;
        for (std::size_t k = 0; k < points && !moved; ++k)
            moved = jacobian[k * n + i] != 0.0;
        if (!moved)
            notes << QStringLiteral("no point depends on %1; it kept its start value").arg(termName(fit.free[i]));
    }
    return notes;
}

}  // namespace

Result<CalibrationFit> fitEngineTerms(const std::vector<MeasuredPoint>& points, const EngineTerms& start,
                                      const FitOptions& options)
{
    if (points.empty())
        return invalid(QStringLiteral("nothing to fit: no measured points"));
    if (!(options.priorWeight >= 0) || !std::isfinite(options.priorWeight))
        return invalid(QStringLiteral("the prior weight must be a non-negative number"));
    Result<std::vector<PointResidual>> first = evaluatePoints(points, start);
    if (!first)
        return first.error();

    CalibrationFit fit;
    fit.free = options.free.empty() ? fittableTerms(points) : options.free;
    fit.before = summarize(first.value());
    const std::size_t n = fit.free.size();
    FitProblem problem{points, start, fit.free, options.priorWeight, std::vector<double>(n)};
    for (std::size_t i = 0; i < n; ++i)
        problem.theta0[i] = toTheta(fit.free[i], termValue(start, fit.free[i]));

    Descent d;
    d.theta = problem.theta0;
    if (!problem.residuals(d.theta, d.r))
        return invalid(QStringLiteral("the model cannot evaluate the points at the start terms"));
    d.cost = sumOfSquares(d.r);
    std::vector<double> jacobian(problem.rows() * n), jtj, jtr;
    for (fit.iterations = 0; fit.iterations < options.maxIterations && n > 0; ++fit.iterations) {
        if (std::optional<Error> failed = forwardJacobian(problem, d, jacobian))
            return *failed;
        normalEquations(jacobian, d.r, n, jtj, jtr);
        if (!takeDampedStep(problem, jtj, jtr, heldAtBounds(fit.free, d.theta, jtr), d, fit.converged)) {
            fit.converged = true;  // no step lowers the cost: a minimum (to the difference step)
            break;
        }
        if (fit.converged)
            break;
    }
    fit.terms = termsAt(start, fit.free, d.theta);
    Result<std::vector<PointResidual>> last = evaluatePoints(points, fit.terms);
    if (!last)
        return last.error();
    fit.residuals = last.value();
    fit.after = summarize(fit.residuals);
    fit.notes << fitNotes(fit, start, jacobian, points.size());
    return fit;
}

}  // namespace ridgeline
