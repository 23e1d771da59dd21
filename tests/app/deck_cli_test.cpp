// `ridgeline deck`: the deck's scenes with their captions filled, and with --notes the speaker's notes too.
#include "tests/app/cli_runner.h"

#include <gtest/gtest.h>

using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

TEST(DeckCli, NotesArePrintedUnderEachCaptionWhenAsked)
{
    const CliRun plain = runRidgeline({QStringLiteral("deck")});
    ASSERT_EQ(plain.exitCode, 0) << plain.err.toStdString();
    EXPECT_TRUE(plain.out.contains(QStringLiteral("1. Two kinds of bottleneck"))) << plain.out.toStdString();
    EXPECT_FALSE(plain.out.contains(QStringLiteral("notes:")));

    const CliRun notes = runRidgeline({QStringLiteral("deck"), QStringLiteral("--notes")});
    ASSERT_EQ(notes.exitCode, 0) << notes.err.toStdString();
    EXPECT_EQ(notes.out.count(QStringLiteral("\n   notes: ")), 12) << notes.out.toStdString();
    // Filled from the bundled session, like the caption: no placeholder is left.
    EXPECT_TRUE(notes.out.contains(QStringLiteral("notes: Open with the question for any slow workload")));
    EXPECT_FALSE(notes.out.contains(u'{')) << notes.out.toStdString();
}
