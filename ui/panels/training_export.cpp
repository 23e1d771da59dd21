#include "ui/panels/training_export.h"

#include "core/save_file.h"
#include "ui/panels/training_controls.h"
#include "ui/panels/training_panel.h"
#include "ui/widgets/vector_export.h"
#include "ui/widgets/widget_render.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <memory>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("TrainingExport", text);
}

std::unique_ptr<TrainingPanel> layoutPanel(const TrainingContent& content, QSize size)
{
    auto panel = std::make_unique<TrainingPanel>();
    panel->setTheme(content.theme);
    panel->setRequest(content.request);
    panel->controls()->hide();
    layoutOffscreen(*panel, size);
    return panel;
}

void paintPanel(TrainingPanel& panel, QPainter& painter, QSize size, ThemeKind theme)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(size)), ChartTheme::make(theme).background);
    // Painted widgets only, no graphics view: vectors in every format.
    renderWidgetTree(&panel, &panel, painter, ChartDrawing::Vector);
}

QByteArray csvRows(const StackBarData& bar, const char* prefix, const char* unit)
{
    QByteArray rows;
    for (const StackPart& part : bar.parts)
        rows += QStringLiteral("%1_%2,%3,%4\n")
                    .arg(QLatin1String(prefix), part.name)
                    .arg(part.value, 0, 'g', 8)
                    .arg(QLatin1String(unit))
                    .toUtf8();
    return rows;
}

}  // namespace

Result<QByteArray> trainingCsv(const TrainingRequest& request)
{
    Result<TrainingView> view = computeTrainingView(request);
    if (!view)
        return view.error();
    const TrainingView& v = view.value();
    QByteArray csv = "quantity,value,unit\n";
    csv += csvRows(v.memory, "memory_per_gpu", "bytes");
    csv += QStringLiteral("memory_capacity,%1,bytes\n").arg(v.memory.capacity, 0, 'g', 8).toUtf8();
    csv += csvRows(v.time, "step_time", "s");
    csv += QStringLiteral("tokens_per_s,%1,tokens/s\n").arg(v.report.tokensPerSecond, 0, 'g', 8).toUtf8();
    csv += QStringLiteral("mfu,%1,fraction\n").arg(v.report.mfu, 0, 'g', 8).toUtf8();
    return csv;
}

QImage renderTrainingImage(const TrainingContent& content, QSize size, double devicePixelRatio)
{
    const std::unique_ptr<TrainingPanel> panel = layoutPanel(content, size);
    QImage image((QSizeF(size) * devicePixelRatio).toSize(), QImage::Format_RGB32);
    image.setDevicePixelRatio(devicePixelRatio);
    QPainter painter(&image);
    paintPanel(*panel, painter, size, content.theme);
    painter.end();
    return image;
}

std::optional<Error> exportTraining(const TrainingContent& content, const QString& path, QSize size,
                                    double devicePixelRatio)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) {
        Result<QByteArray> csv = trainingCsv(content.request);
        if (!csv)
            return csv.error();
        return saveFile(path, csv.value());
    }
    if (auto refused = checkExportSize(size, tr("Export size")))
        return refused;
    if (suffix == QLatin1String("png"))
        return saveEncoded(path, [&](QIODevice& device) {
            return renderTrainingImage(content, size, devicePixelRatio).save(&device, "PNG");
        });
    if (auto refused = checkSaveTarget(path))
        return refused;
    const std::unique_ptr<TrainingPanel> panel = layoutPanel(content, size);
    if (suffix == QLatin1String("svg"))
        return saveEncoded(path, [&](QIODevice& device) {
            QSvgGenerator generator;
            setUpSvg(generator, &device, size, tr("Training step"));
            QPainter painter(&generator);
            paintPanel(*panel, painter, size, content.theme);
            return painter.end();
        });
    if (suffix == QLatin1String("pdf"))
        return saveEncoded(path, [&](QIODevice& device) {
            QPdfWriter writer(&device);
            setUpPdf(writer, size, tr("Training step"));
            QPainter painter(&writer);
            paintPanel(*panel, painter, size, content.theme);
            return painter.end();
        });
    return makeError(Error::Code::InvalidArgument,
                     tr("Cannot export to %1: the file must end in .png, .svg, .pdf or .csv.").arg(path));
}

}  // namespace ridgeline::ui
