// Checked against reality: the model with its default efficiencies against published measurements of
// real serving engines (tests/data/llm/serving_measurements.csv; sources in tests/data/README.md).
#include "core/model/llm/llm_model.h"
#include "tests/core/model/llm_test_support.h"

#include <QFile>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace ridgeline;

namespace {

struct Measurement {
    QString id;
    QString gpu;
    NumberFormat weights = NumberFormat::Bf16;
    NumberFormat kv = NumberFormat::Bf16;
    std::int64_t batch = 1, prompt = 0, output = 0;
    QString metric;
    double measured = 0;
    double tolerancePct = -1;  // < 0: recorded, not asserted
};

std::vector<Measurement> loadMeasurements()
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/llm/serving_measurements.csv"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    std::vector<Measurement> rows;
    bool header = true;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (header) {
            header = false;
            continue;
        }
        const QStringList f = line.split(QLatin1Char(','));
        EXPECT_EQ(f.size(), 11) << line.toStdString();
        if (f.size() != 11)
            continue;
        Measurement m;
        m.id = f[0];
        m.gpu = f[2];
        m.weights = parseNumberFormat(f[3]).value_or(NumberFormat::Bf16);
        m.kv = parseNumberFormat(f[4]).value_or(NumberFormat::Bf16);
        m.batch = f[5].toLongLong();
        m.prompt = f[6].toLongLong();
        m.output = f[7].toLongLong();
        m.metric = f[8];
        m.measured = f[9].toDouble();
        m.tolerancePct = f[10].isEmpty() ? -1.0 : f[10].toDouble();
        rows.push_back(m);
    }
    return rows;
}

double predict(const Measurement& m)
{
    InferenceConfig c =
        test::config(test::model("llama-2-7b"), test::gpu(m.gpu.toLatin1().constData()), m.batch, m.prompt + m.output);
    c.weights = m.weights;
    c.kv = m.kv;
    c.prompt = m.prompt;
    c.output = m.output;
    const LlmModel model = test::prepared(c);  // default efficiencies: that is the point
    const InferenceReport r = model.report().value();
    if (m.metric == QLatin1String("throughput_tokens_per_s"))
        return *r.throughputTokensPerSecond;
    if (m.metric == QLatin1String("ttft_s"))
        return *r.ttftSeconds;
    if (m.metric == QLatin1String("decode_tokens_per_s"))
        return static_cast<double>(m.batch * m.output) /
               model.decodeSecondsSum(m.batch, m.prompt + 1, m.prompt + m.output);
    ADD_FAILURE() << "unknown metric " << m.metric.toStdString();
    return 0.0;
}

}  // namespace

TEST(LlmReality, DefaultEfficienciesPredictPublishedServingMeasurementsWithinTolerance)
{
    const std::vector<Measurement> rows = loadMeasurements();
    ASSERT_GE(rows.size(), 15u);
    int asserted = 0;
    double sumAbsError = 0.0;
    for (const Measurement& m : rows) {
        const double predicted = predict(m);
        const double error = predicted / m.measured - 1.0;
        std::printf("%-28s measured %10.4g predicted %10.4g error %+6.1f %%%s\n", m.id.toLatin1().constData(),
                    m.measured, predicted, 100.0 * error, m.tolerancePct < 0 ? "  (recorded only)" : "");
        if (m.tolerancePct < 0)
            continue;
        ++asserted;
        sumAbsError += std::fabs(error);
        EXPECT_LE(std::fabs(error) * 100.0, m.tolerancePct)
            << m.id.toStdString() << ": predicted " << predicted << ", measured " << m.measured;
    }
    ASSERT_GE(asserted, 12);
    EXPECT_LT(sumAbsError / asserted, 0.08);  // mean absolute error over the asserted rows
}

TEST(LlmReality, IdealDatasheetIsAnUpperBoundOnEveryMeasuredThroughput)
{
    // With both efficiencies at 1 the model is a roofline: no engine may beat it.
    for (const Measurement& m : loadMeasurements()) {
        if (m.metric == QLatin1String("ttft_s"))
            continue;
        InferenceConfig c = test::config(test::model("llama-2-7b"), test::gpu(m.gpu.toLatin1().constData()), m.batch,
                                         m.prompt + m.output);
        c.weights = m.weights;
        c.kv = m.kv;
        c.prompt = m.prompt;
        c.output = m.output;
        c.efficiency = Efficiency::ideal();
        const LlmModel model = test::prepared(c);
        const double bound = m.metric == QLatin1String("decode_tokens_per_s")
                                 ? static_cast<double>(m.batch * m.output) /
                                       model.decodeSecondsSum(m.batch, m.prompt + 1, m.prompt + m.output)
                                 : *model.report().value().throughputTokensPerSecond;
        EXPECT_GT(bound, m.measured) << m.id.toStdString();
    }
}
