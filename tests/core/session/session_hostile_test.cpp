// Hostile session files that are generated rather than stored: a 100 MB string, and a good file
// cut at every structural point. The stored ones are in tests/data/bad (session_bad_files_test.cpp).
#include "core/session/format/session_json.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

#include <gtest/gtest.h>

#include <vector>

using namespace ridgeline;

namespace {

QByteArray minimalJson()
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

constexpr qsizetype k100MB = qsizetype{100} * 1024 * 1024;

// minimal.json with `member` ("key": value) inserted as the first member of the top-level object.
QByteArray withMember(const QByteArray& member)
{
    QByteArray json = minimalJson();
    const qsizetype open = json.indexOf('{');
    return json.left(open + 1) + member + ',' + json.mid(open + 1);
}

}  // namespace

TEST(SessionHostile, AHundredMegabyteStringIsRefusedByItsLength)
{
    QByteArray member = "\"title\": \"";
    member.append(QByteArray(k100MB, 'x')).append('"');
    const QByteArray json = withMember(member);
    ASSERT_GT(json.size(), k100MB);

    QElapsedTimer timer;
    timer.start();
    const Result<Session> loaded = sessionFromJson(json, QStringLiteral("huge.json"));

    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Range);
    EXPECT_EQ(loaded.error().message,
              QStringLiteral("huge.json: title is 104857600 characters long; at most 4096 are allowed"));
    RecordProperty("milliseconds", static_cast<int>(timer.elapsed()));
}

TEST(SessionHostile, AHundredMegabyteKeyGivesAShortMessage)
{
    // An unknown key is quoted in the message: a 100 MB one must not make a 100 MB message.
    QByteArray member = "\"";
    member.append(QByteArray(k100MB, 'k')).append("\": 1");
    const Result<Session> loaded = sessionFromJson(withMember(member), QStringLiteral("huge.json"));

    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Schema);
    EXPECT_TRUE(loaded.error().message.startsWith(QStringLiteral("huge.json: unknown field kkkk")))
        << loaded.error().message.left(200).toStdString();
    EXPECT_LT(loaded.error().message.size(), 200);
}

TEST(SessionHostile, AHundredMegabyteDuplicateKeyGivesAShortMessage)
{
    QByteArray key = "\"";
    key.append(QByteArray(k100MB, 'd')).append('"');
    const Result<Session> loaded =
        sessionFromJson(withMember(key + ": 1, " + key + ": 2"), QStringLiteral("huge.json"));

    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Parse);
    EXPECT_TRUE(
        loaded.error().message.startsWith(QStringLiteral("huge.json: line 1, column 104857609: duplicate key dddd")))
        << loaded.error().message.left(200).toStdString();
    EXPECT_LT(loaded.error().message.size(), 200);
}

TEST(SessionHostile, AHundredMegabyteStringValueOfTheWrongTypeGivesAShortMessage)
{
    QByteArray member = "\"quick\": \"";
    member.append(QByteArray(k100MB, 'y')).append('"');
    const Result<Session> loaded = sessionFromJson(withMember(member), QStringLiteral("huge.json"));

    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(
        loaded.error().message.startsWith(QStringLiteral("huge.json: quick must be true or false, got the "
                                                         "string \"yyyy")))
        << loaded.error().message.left(200).toStdString();
    EXPECT_LT(loaded.error().message.size(), 200);
}

TEST(SessionHostile, CutAtEveryStructuralPointIsATruncationErrorThatSaysWhere)
{
    // Every place a writer killed mid-write could stop: before and after each brace, bracket, comma, colon
    // and quote. Each prefix is refused as truncated JSON at a place inside the prefix, never loaded.
    const QByteArray json = minimalJson();
    ASSERT_FALSE(json.isEmpty());
    const QRegularExpression placePattern(QStringLiteral("^cut\\.json: line (\\d+), column (\\d+): .*truncated"));
    int cuts = 0;
    for (qsizetype i = 0; i < json.size(); ++i) {
        if (!QByteArrayView("{}[],:\"").contains(json.at(i)))
            continue;
        for (const qsizetype length : {i, i + 1}) {
            if (length >= json.trimmed().size())
                continue;  // the whole document
            ++cuts;
            const QByteArray prefix = json.left(length);
            const Result<Session> loaded = sessionFromJson(prefix, QStringLiteral("cut.json"));
            ASSERT_FALSE(loaded.ok()) << "a " << length << "-byte prefix loaded";
            EXPECT_EQ(loaded.error().code, Error::Code::Parse) << loaded.error().message.toStdString();
            if (prefix.trimmed().isEmpty()) {
                EXPECT_EQ(loaded.error().message, QStringLiteral("cut.json: the file is empty"));
                continue;
            }
            const QRegularExpressionMatch match = placePattern.match(loaded.error().message);
            ASSERT_TRUE(match.hasMatch()) << "cut at " << length << ": " << loaded.error().message.toStdString();
            // The place named (where the unclosed list, object or string opens, or where a value is missing) is in
            // the prefix, or one past its last character.
            const qsizetype lastLine = prefix.count('\n') + 1;
            const qsizetype lastColumn = prefix.size() - prefix.lastIndexOf('\n');
            const qsizetype line = match.captured(1).toLongLong();
            EXPECT_LE(line, lastLine) << loaded.error().message.toStdString();
            if (line == lastLine) {
                EXPECT_LE(match.captured(2).toLongLong(), lastColumn) << loaded.error().message.toStdString();
            }
        }
    }
    EXPECT_GT(cuts, 300);
}

// A roof whose ridge passes 1e307 FLOP/byte overflowed the chart's log axis (a stack overflow in Qt Charts): every
// rate and time keeps to the one physical rule (core/physical_limits.h), named by file and field.
TEST(SessionHostile, AbsurdRatesAndTimesAreRefusedNamingTheFileAndTheField)
{
    struct Case {
        QByteArray from;
        QByteArray to;
        QString message;
    };
    const std::vector<Case> cases = {
        {"\"gbps\": 40.3,", "\"gbps\": 1e-305,",
         QStringLiteral("tiny.json: ceilings.bandwidth[0].gbps must be between 1e-06 and 1e+09 GB/s, got 1e-305")},
        {"\"gbps\": 40.3,", "\"gbps\": 5e-324,",
         QStringLiteral("tiny.json: ceilings.bandwidth[0].gbps must be between 1e-06 and 1e+09 GB/s, got 5e-324")},
        {"\"gflops\": 229.7,", "\"gflops\": 1e-300,",
         QStringLiteral("tiny.json: ceilings.compute[0].gflops must be between 1e-06 and 1e+09 GFLOP/s, got 1e-300")},
        {"\"seconds\": 0.01102,", "\"seconds\": 5e-324,",
         QStringLiteral("tiny.json: kernels[0].seconds must be between 1e-12 and 1e+07 s, got 5e-324")},
        {"\"gflops\": 194.9}", "\"gflops\": 2e-310}",
         QStringLiteral("tiny.json: kernels[0].gflops must be between 1e-06 and 1e+09 GFLOP/s, got 2e-310")},
    };
    for (const Case& c : cases) {
        QByteArray json = minimalJson();
        ASSERT_TRUE(json.contains(c.from)) << c.from.toStdString();
        json.replace(json.indexOf(c.from), c.from.size(), c.to);
        const Result<Session> loaded = sessionFromJson(json, QStringLiteral("tiny.json"));
        ASSERT_FALSE(loaded.ok()) << c.to.toStdString();
        EXPECT_EQ(loaded.error().code, Error::Code::Range);
        EXPECT_EQ(loaded.error().message, c.message);
    }
    // The bounds themselves load: a ridge of 1e15 FLOP/byte is a finite number.
    QByteArray json = minimalJson();
    json.replace(json.indexOf("\"gbps\": 40.3,"), 13, "\"gbps\": 1e-06,");
    EXPECT_TRUE(sessionFromJson(json, QStringLiteral("edge.json")).ok());
}
