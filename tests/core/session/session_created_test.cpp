// "created" is RFC 3339, as Ridgeline writes it and resources/schema/session.schema.json says; Qt's
// own ISO 8601 reader takes looser forms ("2026-12-02", a space for the T, "+0200") that no schema follows.
#include "core/session/format/session_json.h"

#include <QFile>
#include <QTimeZone>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

Result<Session> withCreated(const char* created)
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    QByteArray json = file.readAll();
    const qsizetype brace = json.indexOf('{');
    json.insert(brace + 1, QByteArray("\n    \"created\": \"") + created + "\",");
    return sessionFromJson(json, QStringLiteral("s.json"));
}

}  // namespace

TEST(SessionCreated, Rfc3339DatesAndTimesLoad)
{
    for (const char* created : {"2026-12-02T16:44:16Z", "2026-12-02T16:44:16.512Z", "2026-12-02T18:44:16+02:00",
                                "2026-12-02T16:44:16.123456789-14:00", "2024-02-29T00:00:00Z"}) {
        const Result<Session> loaded = withCreated(created);
        ASSERT_TRUE(loaded.ok()) << created << ": " << loaded.error().message.toStdString();
        EXPECT_TRUE(loaded.value().created.isValid()) << created;
    }
    EXPECT_EQ(withCreated("2026-12-02T18:44:16+02:00").value().created.toUTC(),
              QDateTime(QDate(2026, 12, 2), QTime(16, 44, 16), QTimeZone::utc()));
}

TEST(SessionCreated, LooserFormsAndDaysThatDoNotExistAreRefused)
{
    for (const char* created : {"2026-12-02", "2026-12-02T16:44", "2026-12-02 16:44:16Z", "2026-12-02t16:44:16z",
                                "2026-12-02T16:44:16+0200", "2026-12-02T16:44:16", "2026-12-02T24:00:00Z",
                                "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2026-12-02T16:44:16,5Z"}) {
        const Result<Session> loaded = withCreated(created);
        ASSERT_FALSE(loaded.ok()) << created;
        EXPECT_TRUE(loaded.error().message.startsWith(
            QStringLiteral("s.json: created must be an ISO 8601 date and time such as \"2026-12-02T16:44:16Z\"")))
            << loaded.error().message.toStdString();
    }
}
