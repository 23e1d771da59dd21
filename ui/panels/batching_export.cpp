#include "ui/panels/batching_export.h"

#include "core/save_file.h"

#include "ui/panels/batching_panel.h"
#include "ui/plots/batching/batching_scenario.h"
#include "ui/widgets/vector_export.h"
#include "ui/widgets/widget_render.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <functional>
#include <memory>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("BatchingExport", text);
}

std::unique_ptr<BatchingPanel> layoutPanel(const BatchingContent& content, QSize size)
{
    auto panel = std::make_unique<BatchingPanel>();
    panel->setStackWhenNarrow(false);
    panel->setTheme(content.theme);
    panel->setInputs(content.inputs);
    if (content.session)
        panel->setSession(*content.session);
    if (QWidget* controls = panel->findChild<QWidget*>(QStringLiteral("BatchingControlsScroll")))
        controls->hide();
    layoutOffscreen(*panel, size);
    return panel;
}

void paintPanel(BatchingPanel& panel, QPainter& painter, QSize size, ThemeKind theme, ChartDrawing charts)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(size)), ChartTheme::make(theme).background);
    renderWidgetTree(&panel, &panel, painter, charts);
}

QByteArray throughputCsv(const InferenceRequest& inputs)
{
    const BatchingScenario scenario = computeBatchingScenario(inputs);
    QByteArray csv = "batch,tokens_per_s,step_s,intensity_flop_per_byte,tflops_per_gpu,fits_in_memory\n";
    for (const BatchSample& s : scenario.throughput.curve)
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                   .arg(s.batch)
                   .arg(s.tokensPerSecond, 0, 'g', 8)
                   .arg(s.stepSeconds, 0, 'g', 8)
                   .arg(s.intensity, 0, 'g', 8)
                   .arg(s.achievedTflops, 0, 'g', 8)
                   .arg(s.fits ? QStringLiteral("yes") : QStringLiteral("no"))
                   .toUtf8();
    return csv;
}

}  // namespace

QImage renderBatchingImage(const BatchingContent& content, QSize size, double devicePixelRatio)
{
    const std::unique_ptr<BatchingPanel> panel = layoutPanel(content, size);
    QImage image((QSizeF(size) * devicePixelRatio).toSize(), QImage::Format_RGB32);
    image.setDevicePixelRatio(devicePixelRatio);
    QPainter painter(&image);
    paintPanel(*panel, painter, size, content.theme, ChartDrawing::Vector);
    painter.end();
    return image;
}

std::optional<Error> exportBatching(const BatchingContent& content, const QString& path, QSize size,
                                    double devicePixelRatio)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return saveFile(path, throughputCsv(content.inputs));
    if (auto refused = checkExportSize(size, tr("Export size")))
        return refused;
    if (suffix == QLatin1String("png"))
        return saveEncoded(path, [&](QIODevice& device) {
            return renderBatchingImage(content, size, devicePixelRatio).save(&device, "PNG");
        });
    if (auto refused = checkSaveTarget(path))
        return refused;
    const std::unique_ptr<BatchingPanel> panel = layoutPanel(content, size);
    if (suffix == QLatin1String("svg"))
        return saveEncoded(path, [&](QIODevice& device) {
            QSvgGenerator generator;
            setUpSvg(generator, &device, size, tr("Batching and KV cache"));
            QPainter painter(&generator);
            paintPanel(*panel, painter, size, content.theme, ChartDrawing::Raster);
            return painter.end();
        });
    if (suffix == QLatin1String("pdf"))
        return saveEncoded(path, [&](QIODevice& device) {
            QPdfWriter writer(&device);
            setUpPdf(writer, size, tr("Batching and KV cache"));
            QPainter painter(&writer);
            paintPanel(*panel, painter, size, content.theme, ChartDrawing::Vector);
            return painter.end();
        });
    return makeError(Error::Code::InvalidArgument,
                     tr("Cannot export to %1: the file must end in .png, .svg, .pdf or .csv.").arg(path));
}

}  // namespace ridgeline::ui
