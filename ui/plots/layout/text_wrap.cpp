#include "ui/plots/layout/text_wrap.h"

namespace ridgeline::ui {

QStringList wrapWords(const QString& text, const TextMetrics& metrics, double width, int maxLines)
{
    QStringList lines;
    if (maxLines <= 0)
        return lines;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = lines.isEmpty() ? word : lines.back() + QLatin1Char(' ') + word;
        if (lines.isEmpty())
            lines << word;
        else if (metrics.horizontalAdvance(longer) <= width || lines.size() >= maxLines)
            lines.back() = longer;  // the last line takes the rest, elided below
        else
            lines << word;
    }
    for (QString& line : lines)
        line = metrics.elidedText(line, Qt::ElideRight, width);
    return lines;
}

}  // namespace ridgeline::ui
