#pragma once
// A block of word-wrapped paragraphs (optionally bulleted) painted directly, with a height in whole lines: fixed, or
// (setGrowsUpTo) the count its text needs. Unlike a word-wrapping QLabel, new text only repaints the block and
// relays out the window only when that count changes, which keeps a slider step cheap when the numbers in the text
// change on every step. Paragraphs are broken into lines once per text and width, and new text repaints only the
// lines that differ: drawing glyphs is most of what a block costs.

#include <QColor>
#include <QList>
#include <QStringList>
#include <QTextLayout>
#include <QWidget>

#include <memory>
#include <vector>

namespace ridgeline::ui {

class TextBlock : public QWidget {
    Q_OBJECT
public:
    // `lines`: the height it reserves, in lines of its font (text beyond it is never reflowed: its last line ends in
    // an ellipsis and the whole text becomes the block's tooltip).
    explicit TextBlock(int lines, QWidget* parent = nullptr);

    void setParagraphs(const QStringList& paragraphs);
    void setText(const QString& text) { setParagraphs(QStringList{text}); }
    QStringList paragraphs() const { return m_paragraphs; }
    QString text() const { return m_paragraphs.join(QLatin1Char('\n')); }
    void setTitle(const QString& title);  // bold, above the paragraphs
    void setBullets(bool on);
    void setColor(const QColor& color);   // invalid: the palette's window text
    void setFramed(bool on);              // a rounded frame and padding, for a box of notes
    bool isCut() const { return m_cut; }  // the last paint had no room for all of the text
    // Takes as many lines as its text needs at its width, from one up to `maxLines` (the `lines` it was made with is
    // only where it starts); its height, and with it the window's layout, changes only when that count does.
    void setGrowsUpTo(int maxLines);
    int lines() const { return m_lines; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // One paragraph broken into every line it needs at the block's width, with where each line starts in it. The
    // layout that broke it is kept: its lines are drawn from it, shaped once rather than again at every paint.
    struct Wrapped {
        QString text;
        QStringList lines;
        QList<qsizetype> starts;
        std::unique_ptr<QTextLayout> layout;
    };
    // A line as painted: its text (the last one elided when the block has no more room) and its top, and which
    // paragraph's line it is (-1 for an elided one, which is drawn from its text).
    struct ShownLine {
        QString text;
        double top = 0.0;
        bool bullet = false;  // the first line of a bulleted paragraph
        std::size_t paragraph = 0;
        qsizetype line = -1;
        bool operator==(const ShownLine& other) const
        {
            return text == other.text && top == other.top && bullet == other.bullet;
        }
    };

    void describe();
    void showWholeTextAsToolTip(bool cut);
    void fitLines();
    double bulletIndent() const;  // where a bulleted paragraph's text starts
    bool isHeadline() const;      // one line, one paragraph, no bullets: shrinks its font before it elides
    QRectF textArea() const;      // inside the frame's padding
    double textTop() const;       // below the title
    void rewrap();                // the paragraphs whose text or width changed
    void placeLines();            // m_shown for the current size
    QRect lineRect(const ShownLine& line) const;
    void drawLine(QPainter& painter, const ShownLine& line, QPointF topLeft) const;
    void forgetLayout();

    int m_lines = 1;
    int m_maxLines = 0;  // 0: always m_lines
    QString m_title;
    QStringList m_paragraphs;
    bool m_bullets = false;
    bool m_framed = false;
    bool m_cut = false;
    QColor m_color;
    std::vector<Wrapped> m_wrapped;
    double m_wrappedWidth = -1.0;  // the width m_wrapped was broken at
    std::vector<ShownLine> m_shown;
    QSize m_shownFor;  // the size m_shown was placed in; any other (or none) places them again
};

}  // namespace ridgeline::ui
