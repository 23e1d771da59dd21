// The batching curve's shape: in every published static-batch sweep of the validation sets (the same engine, model,
// card, format and lengths at batch 1 and at least two larger batches), the time a sequence waits per token at batch
// B relative to batch 1, measured and predicted, each row with its own engine's profile. The target is that
// predicted shape within 15 % of the measured one from B = 1 to 512; the worst and median shape errors are printed
// per set and per batch range and asserted, so that a change of the model that moves them is seen. A first-token
// latency is a prefill's curve, not the decode step's, and is left out.
#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

using namespace ridgeline;

namespace {

constexpr double kShapeTarget = 0.15;

// One sweep: everything but the batch the same.
using SweepKey = std::tuple<QString, QString, QString, QString, QString>;

SweepKey sweepKey(const test::ValidationRow& row)
{
    const InferenceRequest& r = row.request;
    const QString setup = QStringLiteral("%1 %2 %3/%4 tp%5 ep%6 %7+%8 ctx%9 spec%10 %11")
                              .arg(r.modelId, r.gpuId, numberFormatName(r.weights), numberFormatName(r.kv))
                              .arg(r.gpus)
                              .arg(r.expertParallel)
                              .arg(r.prompt)
                              .arg(r.output)
                              .arg(r.prompt > 0 || r.output > 0 ? 0 : r.context)
                              .arg(r.speculative.tokens)
                              .arg(decodeAttentionName(r.decodeAttention));
    return {row.split, row.source, row.engine, setup, row.quantity};
}

// What a sequence waits per token, up to a factor the sweep shares: a rate is batch / rate, a time is itself.
double waitPerToken(MeasuredQuantity quantity, double batch, double value)
{
    return isRate(quantity) ? batch / value : value;
}

struct ShapePoint {
    QString set;
    QString sweep;
    std::int64_t batch = 1;
    double measured = 0, predicted = 0;  // wait at batch / wait at 1
    double error() const { return predicted / measured - 1.0; }
};

std::vector<ShapePoint> shapePoints()
{
    std::map<SweepKey, std::map<std::int64_t, test::JudgedRow>> sweeps;
    for (const QString& file : {QStringLiteral("validation.csv"), QStringLiteral("engine_heldout.csv")})
        for (const test::ValidationRow& row : test::loadValidationRows(file)) {
            if (row.split == QLatin1String("not-expressible") || row.quantity == QLatin1String("ttft_s"))
                continue;
            if (std::optional<test::JudgedRow> j = test::judgeWithOwnEngine(row))
                sweeps[sweepKey(row)].emplace(row.request.batch, *j);
        }
    std::vector<ShapePoint> points;
    for (const auto& [key, rows] : sweeps) {
        if (rows.size() < 3 || !rows.contains(1))
            continue;
        const MeasuredQuantity quantity = parseQuantityName(std::get<4>(key)).value();
        const PointResidual& one = rows.at(1).residual;
        const double measuredOne = waitPerToken(quantity, 1, one.measured);
        const double predictedOne = waitPerToken(quantity, 1, one.predicted);
        const QString name = std::get<1>(key) + QLatin1Char(' ') + std::get<2>(key) + QLatin1Char(' ') +
                             std::get<3>(key) + QLatin1Char(' ') + std::get<4>(key);
        for (const auto& [batch, j] : rows)
            if (batch > 1)
                points.push_back(ShapePoint{
                    std::get<0>(key), name, batch,
                    waitPerToken(quantity, static_cast<double>(batch), j.residual.measured) / measuredOne,
                    waitPerToken(quantity, static_cast<double>(batch), j.residual.predicted) / predictedOne});
    }
    return points;
}

struct ShapeSummary {
    int points = 0, beyondTarget = 0;
    double medianAbs = 0, worstAbs = 0;
    QString worst;
};

ShapeSummary summarizeShapes(const std::vector<const ShapePoint*>& points)
{
    ShapeSummary s;
    std::vector<double> errors;
    for (const ShapePoint* p : points) {
        const double e = std::fabs(p->error());
        errors.push_back(e);
        s.beyondTarget += e > kShapeTarget ? 1 : 0;
        if (e >= s.worstAbs) {
            s.worstAbs = e;
            s.worst = QStringLiteral("%1 at B = %2").arg(p->sweep).arg(p->batch);
        }
    }
    s.points = static_cast<int>(errors.size());
    if (!errors.empty()) {
        std::sort(errors.begin(), errors.end());
        const std::size_t n = errors.size();
        s.medianAbs = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2.0;
    }
    return s;
}

QString batchRange(std::int64_t batch)
{
    return batch <= 16   ? QStringLiteral("B 2-16")
           : batch <= 64 ? QStringLiteral("B 17-64")
                         : QStringLiteral("B 65-512");
}

}  // namespace

TEST(BatchShape, PublishedSweepsShapeAgainstThePrediction)
{
    const std::vector<ShapePoint> points = shapePoints();
    ASSERT_GE(points.size(), 100u);
    QString sweep;
    for (const ShapePoint& p : points) {
        if (p.sweep != sweep)
            std::printf("%s (%s)\n", p.sweep.toLatin1().constData(), p.set.toLatin1().constData());
        sweep = p.sweep;
        std::printf("  B %4lld: measured %5.2fx predicted %5.2fx shape error %+6.1f %%\n",
                    static_cast<long long>(p.batch), p.measured, p.predicted, 100.0 * p.error());
    }
    std::map<QString, std::vector<const ShapePoint*>> groups;
    for (const ShapePoint& p : points) {
        groups[QStringLiteral("all sweeps")].push_back(&p);
        groups[QStringLiteral("set ") + p.set].push_back(&p);
        groups[batchRange(p.batch)].push_back(&p);
    }
    std::map<QString, ShapeSummary> summaries;
    for (const auto& [name, members] : groups) {
        const ShapeSummary s = summarizeShapes(members);
        summaries[name] = s;
        std::printf("%-18s %4d points: median |shape error| %5.1f %%, worst %5.1f %%, %d beyond 15 %% (%s)\n",
                    name.toLatin1().constData(), s.points, 100.0 * s.medianAbs, 100.0 * s.worstAbs, s.beyondTarget,
                    s.worst.toLatin1().constData());
    }
    // Within the target except 15 points: the newer ROCm vLLM editions (0.9.1 and 0.10.0 tables, and the blog's
    // 0.6.7 Llama 3.1 70B at 128 + 2,048 tokens) rise less from batch 64 on than the older ones the terms describe
    // (2.4x measured, 3.0x predicted at batch 128), LMDeploy's Llama 2 13B on an A100 rises less at batch 64, and
    // TensorRT-LLM's Llama 3.1 405B on eight H100s at batch 128 and 2,048 + 2,048 tokens rises more (3.3x, 2.4x).
    const auto expectShape = [&](const char* name, int count, double medianAbs, double worstAbs, int beyond) {
        const ShapeSummary& s = summaries.at(QString::fromLatin1(name));
        EXPECT_EQ(s.points, count) << name;
        EXPECT_NEAR(s.medianAbs, medianAbs, 0.005) << name;
        EXPECT_NEAR(s.worstAbs, worstAbs, 0.005) << name;
        EXPECT_EQ(s.beyondTarget, beyond) << name;
    };
    expectShape("all sweeps", 343, 0.032, 0.288, 15);
    expectShape("B 2-16", 188, 0.022, 0.108, 0);
    expectShape("B 17-64", 111, 0.047, 0.288, 6);
    expectShape("B 65-512", 44, 0.072, 0.285, 9);
}
