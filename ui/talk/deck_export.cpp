#include "ui/talk/deck_export.h"

#include "core/save_file.h"
#include "ui/chart/roofline_chart.h"

#include "ui/widgets/vector_export.h"
#include "ui/widgets/widget_render.h"

#include <QCoreApplication>
#include <QDir>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("DeckExport", text);
}

std::optional<Error> checkSize(QSize size)
{
    return checkExportSize(size, tr("Slide size"));
}

// A hidden scene laid out at its design size now, synchronously, without a window appearing.
std::unique_ptr<SceneView> layoutScene(const Scene& scene, const Session* session, QSize size, TalkLook look, int index,
                                       int total)
{
    auto view = std::make_unique<SceneView>(scene, session, look);
    view->setAttribute(Qt::WA_DontShowOnScreen, true);
    view->setPosition(index, total);
    view->resize(SceneView::designSize(size));
    view->show();
    // Nested layouts (scene, panel, charts) settle over a few rounds of posted events.
    for (int round = 0; round < 3; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents();
    }
    view->finishAnimation();
    return view;
}

void paintScene(SceneView& view, QPainter& painter, QSize size, TalkLook look,
                ChartDrawing charts = ChartDrawing::Vector)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(size)), ChartTheme::make(look.theme).background);
    const double scale = SceneView::scaleFor(size);
    painter.scale(scale, scale);
    renderWidgetTree(&view, &view, painter, charts);
    painter.restore();
}

QString safeId(const QString& id)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]+"));
    QString safe = id;
    safe.replace(unsafe, QStringLiteral("-"));
    return safe.isEmpty() ? QStringLiteral("scene") : safe;
}

QString suffix(DeckFormat format)
{
    switch (format) {
        case DeckFormat::Pdf:
            return QStringLiteral("pdf");
        case DeckFormat::Png:
            return QStringLiteral("png");
        case DeckFormat::Svg:
            return QStringLiteral("svg");
    }
    return {};
}

}  // namespace

std::optional<DeckFormat> parseDeckFormat(const QString& text)
{
    const QString lower = text.trimmed().toLower();
    if (lower == QLatin1String("pdf"))
        return DeckFormat::Pdf;
    if (lower == QLatin1String("png"))
        return DeckFormat::Png;
    if (lower == QLatin1String("svg"))
        return DeckFormat::Svg;
    return std::nullopt;
}

QString sceneFileName(const Scene& scene, int index, DeckFormat format)
{
    return QStringLiteral("scene-%1-%2.%3")
        .arg(index + 1, 2, 10, QLatin1Char('0'))
        .arg(safeId(scene.id), suffix(format));
}

QImage renderSceneImage(const Scene& scene, const Session* session, QSize size, TalkLook look)
{
    const std::unique_ptr<SceneView> view = layoutScene(scene, session, size, look, 0, 0);
    QImage image(size, QImage::Format_RGB32);
    image.fill(ChartTheme::make(look.theme).background);
    QPainter painter(&image);
    paintScene(*view, painter, size, look);
    painter.end();
    return image;
}

std::vector<std::optional<ChartLayout>> deckChartLayouts(const Deck& deck, const Session* session, QSize size,
                                                         TalkLook look)
{
    std::vector<std::optional<ChartLayout>> layouts;
    const int total = static_cast<int>(deck.scenes.size());
    for (int i = 0; i < total; ++i) {
        const std::unique_ptr<SceneView> view =
            layoutScene(deck.scenes[static_cast<std::size_t>(i)], session, size, look, i, total);
        const RooflineChart* chart = view->rooflineChart();
        if (!chart || !chart->isVisibleTo(view.get())) {
            layouts.emplace_back();
            continue;
        }
        // The chart's viewport -> the scene -> the slide, scaled as paintScene draws it.
        const QPoint offset = chart->viewport()->mapTo(view.get(), QPoint(0, 0));
        const double scale = SceneView::scaleFor(size);
        layouts.emplace_back(chart->layoutReport().mapped(QTransform::fromTranslate(offset.x(), offset.y()) *
                                                          QTransform::fromScale(scale, scale)));
    }
    return layouts;
}

std::optional<Error> exportDeckLayouts(const Deck& deck, const Session* session, const QString& directory, QSize size,
                                       TalkLook look)
{
    if (auto error = checkSize(size))
        return error;
    if (!QDir().mkpath(directory))
        return makeError(Error::Code::Io, tr("Could not create the directory %1.").arg(directory));
    const QDir dir(directory);
    const std::vector<std::optional<ChartLayout>> layouts = deckChartLayouts(deck, session, size, look);
    std::vector<FileContents> files;
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        QString name = sceneFileName(deck.scenes[i], static_cast<int>(i), DeckFormat::Png);
        name.chop(3);
        files.push_back(
            {dir.filePath(name + QStringLiteral("json")), chartLayoutJson(layouts[i] ? &*layouts[i] : nullptr)});
    }
    return saveFiles(files);
}

std::optional<Error> exportDeckPdf(const Deck& deck, const Session* session, const QString& path, QSize size,
                                   TalkLook look)
{
    if (auto error = checkSize(size))
        return error;
    if (deck.scenes.empty())
        return makeError(Error::Code::InvalidArgument, tr("The deck has no scenes."));
    return saveEncoded(path, [&](QIODevice& device) {
        QPdfWriter writer(&device);
        setUpPdf(writer, size, deck.title);
        QPainter painter(&writer);
        const int total = static_cast<int>(deck.scenes.size());
        for (int i = 0; i < total; ++i) {
            if (i > 0)
                writer.newPage();
            const std::unique_ptr<SceneView> view =
                layoutScene(deck.scenes[static_cast<std::size_t>(i)], session, size, look, i, total);
            paintScene(*view, painter, size, look);
        }
        return painter.end();
    });
}

std::optional<Error> exportDeckFiles(const Deck& deck, const Session* session, const QString& directory,
                                     DeckFormat format, QSize size, TalkLook look, QStringList* written)
{
    if (format == DeckFormat::Pdf)
        return makeError(Error::Code::InvalidArgument, tr("One file per scene is PNG or SVG; PDF is one file."));
    if (auto error = checkSize(size))
        return error;
    if (deck.scenes.empty())
        return makeError(Error::Code::InvalidArgument, tr("The deck has no scenes."));
    if (!QDir().mkpath(directory))
        return makeError(Error::Code::Io, tr("Could not create the directory %1.").arg(directory));
    const QDir dir(directory);
    const int total = static_cast<int>(deck.scenes.size());
    // Every page is encoded first and the files saved all or nothing: a full disk leaves no half-written deck.
    std::vector<FileContents> files;
    for (int i = 0; i < total; ++i) {
        const Scene& scene = deck.scenes[static_cast<std::size_t>(i)];
        const QString path = dir.filePath(sceneFileName(scene, i, format));
        if (auto refused = checkSaveTarget(path))
            return refused;
        const std::unique_ptr<SceneView> view = layoutScene(scene, session, size, look, i, total);
        const std::optional<QByteArray> bytes = encodedBytes([&](QIODevice& device) {
            if (format == DeckFormat::Png) {
                QImage image(size, QImage::Format_RGB32);
                image.fill(ChartTheme::make(look.theme).background);
                QPainter painter(&image);
                paintScene(*view, painter, size, look);
                painter.end();
                return image.save(&device, "PNG");
            }
            QSvgGenerator generator;
            setUpSvg(generator, &device, size, scene.title);
            QPainter painter(&generator);
            paintScene(*view, painter, size, look, ChartDrawing::Raster);
            return painter.end();
        });
        if (!bytes)
            return makeError(Error::Code::Io, tr("Could not encode %1.").arg(path));
        files.push_back({path, *bytes});
    }
    if (auto failed = saveFiles(files))
        return failed;
    if (written)
        for (const FileContents& file : files)
            written->append(file.path);
    return std::nullopt;
}

}  // namespace ridgeline::ui
