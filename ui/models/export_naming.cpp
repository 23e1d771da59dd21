#include "ui/models/export_naming.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ridgeline::ui {

namespace {

constexpr qsizetype kMaxStem = 60;

bool isImage(const QString& suffix)
{
    const QString lower = suffix.toLower();
    return lower == QLatin1String("png") || lower == QLatin1String("svg");
}

}  // namespace

QString fileNameStem(const QString& text)
{
    static const QRegularExpression other(QStringLiteral("[^a-z0-9]+"));
    // Accents go (é -> e) before anything that is not a letter or digit becomes a dash.
    QString stem;
    for (const QChar c : text.normalized(QString::NormalizationForm_KD))
        if (c.category() != QChar::Mark_NonSpacing)
            stem += c.toLower();
    stem.replace(other, QStringLiteral("-"));
    if (stem.size() > kMaxStem)
        stem.truncate(kMaxStem);
    while (stem.startsWith(QLatin1Char('-')))
        stem.remove(0, 1);
    while (stem.endsWith(QLatin1Char('-')))
        stem.chop(1);
    return stem.isEmpty() ? QStringLiteral("ridgeline") : stem;
}

QString defaultFileName(const QString& subject, const QString& what, const QString& suffix)
{
    QString name = fileNameStem(subject);
    if (!what.isEmpty())
        name += QLatin1Char('-') + fileNameStem(what);
    return name + QLatin1Char('.') + suffix;
}

QString defaultDirectory(const QString& last, const QString& suffix)
{
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    const auto location = isImage(suffix) ? QStandardPaths::PicturesLocation : QStandardPaths::DocumentsLocation;
    const QString standard = QStandardPaths::writableLocation(location);
    if (!standard.isEmpty() && QFileInfo(standard).isDir())
        return standard;
    return QDir::homePath();
}

}  // namespace ridgeline::ui
