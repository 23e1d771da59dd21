#include "tests/core/bench/bench_test_support.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QList>

#include <cmath>

namespace ridgeline::test {

QString benchFixturePath(const QString& name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/") + name;
}

QByteArray benchFixture(const QString& name)
{
    QFile file(benchFixturePath(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

BenchImport importFixtureFile(const QString& name, BenchFormat format)
{
    auto result = importBenchFile(benchFixturePath(name), format);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message.toStdString());
    return result.ok() ? result.value() : BenchImport{};
}

QString importError(const QByteArray& bytes, BenchFormat format, const QString& fileName)
{
    const auto result = importBenchBytes(bytes, fileName, format);
    EXPECT_FALSE(result.ok()) << "imported what should have been refused";
    return result.ok() ? QString() : result.error().message;
}

QJsonObject qtJsonLine(const QByteArray& bytes, int line)
{
    const QList<QByteArray> lines = bytes.split('\n');
    if (line < 1 || line > lines.size()) {
        ADD_FAILURE() << "no line " << line;
        return {};
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(lines[line - 1], &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    return document.object();
}

QByteArray replacedOnce(const QByteArray& text, const QByteArray& from, const QByteArray& to)
{
    const qsizetype at = text.indexOf(from);
    EXPECT_GE(at, 0) << "the fixture has no " << from.toStdString();
    EXPECT_EQ(text.indexOf(from, at + 1), -1) << "the fixture has " << from.toStdString() << " more than once";
    QByteArray copy = text;
    if (at >= 0)
        copy.replace(at, from.size(), to);
    return copy;
}

::testing::AssertionResult nearly(double actual, double expected)
{
    if (std::abs(actual - expected) <= 1e-12 * std::max(std::abs(actual), std::abs(expected)))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << actual << " is not " << expected;
}

}  // namespace ridgeline::test
