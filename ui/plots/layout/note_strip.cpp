#include "ui/plots/layout/note_strip.h"

#include "ui/plots/layout/text_metrics.h"
#include "ui/plots/layout/text_wrap.h"

namespace ridgeline::ui {

namespace {

constexpr double kGap = 4.0;  // between the axis title above and the first line

}  // namespace

NoteStrip layoutNoteStrip(const QString& note, double width, const ChartTheme& theme, int maxLines)
{
    NoteStrip strip;
    if (note.isEmpty() || width <= 0.0)
        return strip;
    const TextMetrics metrics(theme.kernelLabelFont);
    const QStringList lines = wrapWords(note, metrics, width, maxLines);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        AnnotationText text{
            lines[i], QPointF(0.0, kGap + double(i) * metrics.height()), 0.0, theme.mutedText, theme.kernelLabelFont,
            QColor()};
        text.role = TextRole::Note;
        strip.texts.push_back(std::move(text));
    }
    if (!lines.isEmpty())
        strip.height = kGap + double(lines.size()) * metrics.height();
    strip.whole = lines.join(QLatin1Char(' ')) == note.simplified();
    return strip;
}

std::vector<AnnotationText> placedAt(std::vector<AnnotationText> texts, QPointF topLeft)
{
    for (AnnotationText& text : texts)
        text.origin += topLeft;
    return texts;
}

}  // namespace ridgeline::ui
