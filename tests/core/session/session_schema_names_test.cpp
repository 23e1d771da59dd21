// resources/schema/session.schema.json names what the code names: the schema version, every engine
// term, measured quantity and number format the loader reads. When the code gains a term, a quantity or a
// format, this test says the published schema must learn it too (and tests/schema/ checks the rest).
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_terms.h"
#include "core/model/number_format.h"
#include "core/session/session.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

QJsonObject schema()
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/../../resources/schema/session.schema.json"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << file.fileName().toStdString();
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject definition(const char* name)
{
    return schema().value(QStringLiteral("definitions")).toObject().value(QLatin1String(name)).toObject();
}

QRegularExpression pattern(const QJsonObject& object)
{
    QRegularExpression expression(object.value(QStringLiteral("pattern")).toString());
    EXPECT_TRUE(expression.isValid()) << expression.errorString().toStdString();
    return expression;
}

bool matches(const QRegularExpression& expression, const QString& text)
{
    return expression.match(text).hasMatch();
}

}  // namespace

TEST(SessionSchemaNames, TheSchemaVersionIsTheOneRidgelineWrites)
{
    const QJsonObject version =
        schema().value(QStringLiteral("properties")).toObject().value(QStringLiteral("schema_version")).toObject();
    EXPECT_EQ(version.value(QStringLiteral("maximum")).toInt(), Session::kSchemaVersion);
    EXPECT_EQ(version.value(QStringLiteral("minimum")).toInt(), 1);
}

TEST(SessionSchemaNames, EveryEngineTermAndNoOther)
{
    const QRegularExpression names = pattern(definition("term_name"));
    const QRegularExpression shares = pattern(definition("calibration_term")
                                                  .value(QStringLiteral("if"))
                                                  .toObject()
                                                  .value(QStringLiteral("properties"))
                                                  .toObject()
                                                  .value(QStringLiteral("name"))
                                                  .toObject());
    QSet<QString> known;
    for (const EngineTerm& term : allTerms()) {
        const QString name = termName(term);
        known.insert(name);
        EXPECT_TRUE(matches(names, name)) << name.toStdString();
        EXPECT_TRUE(matches(names, name.toUpper())) << "names are read without regard to case: " << name.toStdString();
        EXPECT_EQ(matches(shares, name), term.isShare()) << name.toStdString();
    }
    // Every kind word with every format: what the code does not list, the schema must refuse.
    for (const char* kind : {"weight_bandwidth", "kv_bandwidth", "compute", "layer_seconds", "overlap"})
        for (NumberFormat format : kAllNumberFormats) {
            const QString name = QLatin1String(kind) + u'.' + numberFormatName(format);
            EXPECT_EQ(matches(names, name), known.contains(name)) << name.toStdString();
        }
}

TEST(SessionSchemaNames, EveryMeasuredQuantity)
{
    const QRegularExpression names = pattern(definition("calibration_point")
                                                 .value(QStringLiteral("properties"))
                                                 .toObject()
                                                 .value(QStringLiteral("quantity"))
                                                 .toObject());
    int count = 0;
    for (int q = 0; q <= static_cast<int>(MeasuredQuantity::ServingThroughput); ++q) {
        const QString name = quantityName(static_cast<MeasuredQuantity>(q));
        ASSERT_TRUE(parseQuantityName(name).has_value()) << name.toStdString();
        EXPECT_TRUE(matches(names, name)) << name.toStdString();
        ++count;
    }
    EXPECT_EQ(count, 9);
    EXPECT_FALSE(matches(names, QStringLiteral("tokens_per_second")));
}

TEST(SessionSchemaNames, EveryNumberFormat)
{
    const QRegularExpression names = pattern(definition("number_format"));
    for (NumberFormat format : kAllNumberFormats) {
        EXPECT_TRUE(matches(names, numberFormatName(format))) << numberFormatName(format).toStdString();
        EXPECT_TRUE(matches(names, numberFormatName(format).toUpper()));
    }
    EXPECT_TRUE(matches(names, QStringLiteral("nvfp4")));  // parseNumberFormat's alias of fp4
    for (const char* other : {"fp64", "int2", "bf16 ", ""})
        EXPECT_EQ(matches(names, QLatin1String(other)), parseNumberFormat(QString::fromLatin1(other)).has_value())
            << other;
}
