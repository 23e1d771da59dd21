// The painted text blocks above the batching charts: what has no room is elided, never silently dropped.
#include "ui/widgets/text_block.h"

#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline::ui;

namespace {

// Paints the block as the screen would; isCut() is what that paint found.
QImage paint(TextBlock& block, QSize size)
{
    block.resize(size);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    block.render(&image);
    return image;
}

}  // namespace

TEST(UiTextBlock, TextBeyondItsLinesEndsInAnEllipsisAndIsWholeInTheTooltip)
{
    TextBlock block(2);
    QFont font = block.font();
    font.setPixelSize(16);
    block.setFont(font);
    const QString longText = QStringLiteral(
        "Llama 2 7B on 2 x NVIDIA H100 SXM5 80GB over NVLink 4, bf16 weights, bf16 KV, "
        "batch 16 x 8,192 tokens, measured engine terms: 97 % of sustained "
        "bandwidth, 69 % of peak, 44.5 us per layer, all-reduces 0.90 % of the step");
    block.setText(longText);
    paint(block, QSize(300, block.sizeHint().height()));
    EXPECT_TRUE(block.isCut());
    EXPECT_EQ(block.toolTip(), longText);

    // Wide enough for all of it: nothing cut, no tooltip left behind.
    paint(block, QSize(3000, block.sizeHint().height()));
    EXPECT_FALSE(block.isCut());
    EXPECT_TRUE(block.toolTip().isEmpty());

    // A one-line headline elides too, after shrinking its font.
    TextBlock headline(1);
    headline.setText(QStringLiteral("978 tokens/s  ·  16.36 ms per step  ·  memory-bound at 3.42 FLOP/byte"));
    paint(headline, QSize(80, headline.sizeHint().height()));
    EXPECT_TRUE(headline.isCut());
    EXPECT_EQ(headline.toolTip(), headline.text());
}

TEST(UiTextBlock, ABlockThatGrowsTakesTheLinesItsTextNeedsUpToItsLimit)
{
    TextBlock block(1);
    block.setGrowsUpTo(3);
    block.resize(300, block.sizeHint().height());
    block.show();  // a hidden widget gets its resize events only when shown
    block.setText(QStringLiteral("Context 8,192 is beyond the 4,096 tokens."));
    EXPECT_EQ(block.lines(), 1);
    const int oneLine = block.sizeHint().height();
    block.setText(
        QStringLiteral("Context 8,192 is beyond the 4,096 tokens Llama 2 7B was trained on, and the "
                       "weights alone need 131.4 GiB per GPU where the card holds 80.0 GiB."));
    EXPECT_EQ(block.lines(), 3);
    EXPECT_GT(block.sizeHint().height(), 2 * oneLine);
    // Wider, the same text needs fewer lines; a limit is a limit.
    block.resize(3000, block.sizeHint().height());
    EXPECT_EQ(block.lines(), 1);
    block.resize(60, block.sizeHint().height());
    EXPECT_EQ(block.lines(), 3);
    paint(block, block.size());
    EXPECT_TRUE(block.isCut());
}

// New text repaints only the lines that changed; what the screen then shows must be what a fresh block shows.
TEST(UiTextBlock, NewTextOnScreenIsWhatAFreshBlockShows)
{
    const QStringList before = {
        QStringLiteral("Every step streams the weights once, whatever the batch: 13.21 GB per GPU against 13.48 GB."),
        QStringLiteral("From batch 1 to 16: tokens/s x3.42, time per step x4.68."),
        QStringLiteral("What binds the step: attention over the KV cache, 84 % of its time.")};
    QStringList after = before;
    after[1] = QStringLiteral(
        "From batch 1 to 16: tokens/s x3.00, time per step x5.33, and a longer line that wraps "
        "onto a second line of the block.");
    after.removeLast();

    const auto shown = [](const QStringList& paragraphs, TextBlock& block) {
        block.setTitle(QStringLiteral("What the numbers say"));
        block.setBullets(true);
        block.setFramed(true);
        block.setParagraphs(paragraphs);
        block.resize(320, block.sizeHint().height());
        block.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&block));
        QCoreApplication::processEvents();
    };
    const auto onScreen = [](TextBlock& block) {
        QCoreApplication::processEvents();
        return block.screen()->grabWindow(block.winId()).toImage().convertToFormat(QImage::Format_RGB32);
    };
    TextBlock changed(8);
    shown(before, changed);
    const QImage first = onScreen(changed);
    changed.setParagraphs(after);
    const QImage second = onScreen(changed);

    TextBlock fresh(8);
    shown(after, fresh);
    EXPECT_NE(first, second);
    EXPECT_EQ(second, onScreen(fresh));
}

// Lines are drawn from the layout that wrapped them, except an empty paragraph's and one that begins with white
// space (trimmed as before): each is drawn where its own row is, and an empty one draws nothing.
TEST(UiTextBlock, EmptyAndIndentedParagraphsKeepTheirRows)
{
    TextBlock block(3);
    block.setParagraphs({QString(), QStringLiteral("   indented"), QStringLiteral("plain")});
    const QImage image = paint(block, QSize(300, block.sizeHint().height()));
    const QColor background = block.palette().color(block.backgroundRole());
    const double row = image.height() / 3.0;
    const auto inkIn = [&](int index) {
        int ink = 0;
        for (int y = int(index * row); y < int((index + 1) * row); ++y)
            for (int x = 0; x < image.width(); ++x)
                ink += image.pixelColor(x, y) != background ? 1 : 0;
        return ink;
    };
    EXPECT_EQ(inkIn(0), 0);
    EXPECT_GT(inkIn(1), 20);
    EXPECT_GT(inkIn(2), 20);
}
