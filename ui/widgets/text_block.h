#pragma once
// A block of word-wrapped paragraphs (optionally bulleted) painted directly, with a height in whole lines: fixed, or
// (setGrowsUpTo) the count its text needs. Unlike a word-wrapping QLabel, new text only repaints the block and
// relays out the window only when that count changes, which keeps a slider step cheap when the numbers in the text
// change on every step.

#include <QColor>
#include <QStringList>
#include <QWidget>

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
    void describe();
    void showWholeTextAsToolTip(bool cut);
    void fitLines();
    double bulletIndent() const;  // where a bulleted paragraph's text starts

    int m_lines = 1;
    int m_maxLines = 0;  // 0: always m_lines
    QString m_title;
    QStringList m_paragraphs;
    bool m_bullets = false;
    bool m_framed = false;
    bool m_cut = false;
    QColor m_color;
};

}  // namespace ridgeline::ui
