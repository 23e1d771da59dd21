// A sentence wrapped over a chart: broken between words within the width, every word kept while the lines suffice,
// the last line elided when they do not, and nothing at all for no text or no lines.

#include "ui/plots/layout/text_wrap.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/text_metrics.h"

#include <QImage>

#include <gtest/gtest.h>

using namespace ridgeline::ui;

namespace {

const QString kReason = QStringLiteral(
    "no energy per token: this machine exposes no RAPL counters (no "
    "/sys/class/powercap)");

}  // namespace

TEST(TextWrap, ASentenceThatFitsIsOneLine)
{
    const TextMetrics metrics(ChartTheme::make(ThemeKind::Light).kernelLabelFont);
    EXPECT_EQ(wrapWords(kReason, metrics, metrics.horizontalAdvance(kReason) + 1.0, 2), QStringList{kReason});
}

TEST(TextWrap, ANarrowWidthBreaksBetweenWordsAndKeepsThemAll)
{
    const TextMetrics metrics(ChartTheme::make(ThemeKind::Light).kernelLabelFont);
    const double width = 0.6 * metrics.horizontalAdvance(kReason);
    const QStringList lines = wrapWords(kReason, metrics, width, 2);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines.join(QLatin1Char(' ')), kReason);
    for (const QString& line : lines)
        EXPECT_LE(metrics.horizontalAdvance(line), width) << line.toStdString();
}

TEST(TextWrap, WhatTheLinesCannotHoldIsElidedInTheLast)
{
    const TextMetrics metrics(ChartTheme::make(ThemeKind::Light).kernelLabelFont);
    const double width = 0.3 * metrics.horizontalAdvance(kReason);
    const QStringList lines = wrapWords(kReason, metrics, width, 2);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_TRUE(kReason.startsWith(lines.front() + QLatin1Char(' ')));
    EXPECT_TRUE(lines.back().endsWith(QChar(0x2026))) << lines.back().toStdString();
    EXPECT_LE(metrics.horizontalAdvance(lines.back()), width);
}

TEST(TextWrap, NoTextOrNoLinesIsNothing)
{
    const TextMetrics metrics(ChartTheme::make(ThemeKind::Light).kernelLabelFont);
    EXPECT_TRUE(wrapWords(QString(), metrics, 300.0, 2).isEmpty());
    EXPECT_TRUE(wrapWords(QStringLiteral("   "), metrics, 300.0, 2).isEmpty());
    EXPECT_TRUE(wrapWords(kReason, metrics, 300.0, 0).isEmpty());
}

// A remembered width is the width Qt gives for that font and text: never another font's, never a stale one.
TEST(TextMetrics, RemembersEachFontsOwnWidths)
{
    QFont small = ChartTheme::make(ThemeKind::Light).kernelLabelFont;
    QFont big = small;
    big.setPixelSize(small.pixelSize() > 0 ? 3 * small.pixelSize() : 36);
    QFont bold = small;
    bold.setBold(true);
    const QStringList texts = {kReason, QStringLiteral("B = 16: 975 tokens/s"), QString(), QStringLiteral("8,192")};
    for (int round = 0; round < 2; ++round)  // the second round reads what the first remembered
        for (const QFont& font : {small, big, bold})
            for (const QString& text : texts)
                EXPECT_EQ(TextMetrics(font).horizontalAdvance(text), QFontMetricsF(font).horizontalAdvance(text))
                    << text.toStdString() << " at " << font.toString().toStdString();
    EXPECT_GT(TextMetrics(big).horizontalAdvance(kReason), 2.0 * TextMetrics(small).horizontalAdvance(kReason));
}

// A font in points measures wider on a screen of more dots per inch; Qt's QFont compares equal across the two, so a
// width remembered for one screen must not be given for the other.
TEST(TextMetrics, AFontAtAnotherDpiIsMeasuredAtThatDpi)
{
    const QFont points(QStringLiteral("DejaVu Sans"), 12);
    QImage highDpi(8, 8, QImage::Format_ARGB32_Premultiplied);
    highDpi.setDotsPerMeterX(7559);  // 192 dots per inch
    highDpi.setDotsPerMeterY(7559);
    const QFont onHighDpi(points, &highDpi);
    const QString text = QStringLiteral("B = 16: 975 tokens/s");
    EXPECT_EQ(TextMetrics(points).horizontalAdvance(text), QFontMetricsF(points).horizontalAdvance(text));
    EXPECT_EQ(TextMetrics(onHighDpi).horizontalAdvance(text), QFontMetricsF(onHighDpi).horizontalAdvance(text));
    EXPECT_GT(QFontMetricsF(onHighDpi).horizontalAdvance(text), 1.5 * QFontMetricsF(points).horizontalAdvance(text));
    EXPECT_EQ(TextMetrics(points).horizontalAdvance(text), QFontMetricsF(points).horizontalAdvance(text));
}
