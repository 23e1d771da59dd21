#pragma once
// Font metrics whose text widths are remembered. Qt shapes a string again on every horizontalAdvance call, tens of
// thousands of instructions for one label, and the label placers, legends and bars measure the same strings several
// times in one slider step and again in the next. The widths are kept per font (and the dots per inch it is measured
// at) for the thread, so every TextMetrics of an equal font shares them.

#include <QFont>
#include <QFontMetricsF>
#include <QString>

namespace ridgeline::ui {

class TextMetrics : public QFontMetricsF {
public:
    explicit TextMetrics(const QFont& font);

    // The same figure as QFontMetricsF::horizontalAdvance(text), shaped once per font and text.
    double horizontalAdvance(const QString& text) const;
    double horizontalAdvance(QChar c) const { return QFontMetricsF::horizontalAdvance(c); }

private:
    struct Widths;
    Widths* m_widths;
};

}  // namespace ridgeline::ui
