#include "ui/chart/chart_export.h"

#include "core/save_file.h"
#include "ui/chart/series_clip.h"
#include "ui/widgets/vector_export.h"
#include "ui/widgets/widget_render.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <memory>
#include <utility>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ChartExport", text);
}

// A hidden chart laid out at exactly `size`, now.
std::unique_ptr<RooflineChart> layoutChart(ChartContent content, QSize size)
{
    auto chart = std::make_unique<RooflineChart>();
    chart->setOptions(content.options);
    chart->setExtraRoofs(std::move(content.extraRoofs));
    chart->setSessions(std::move(content.sessions));
    chart->setHighlightedLevel(content.highlightedLevel);
    layoutOffscreen(*chart, size);
    return chart;
}

void paintChart(RooflineChart& chart, QPainter& painter, QSize size)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(size)), chart.theme().background);
    const ItemCachesOff drawAfresh(chart.scene());
    chart.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), chart.viewport()->rect());
}

std::optional<Error> checkSize(QSize size)
{
    if (!size.isValid() || size.width() < 16 || size.height() < 16 || size.width() > 16384 || size.height() > 16384)
        return makeError(Error::Code::InvalidArgument,
                         tr("Export size %1x%2 is outside 16..16384 pixels.").arg(size.width()).arg(size.height()));
    return std::nullopt;
}

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString number(double value)
{
    return value == 0.0 ? QString() : QString::number(value, 'g', 8);
}

}  // namespace

ChartContent ChartContent::of(const RooflineChart& chart)
{
    // The highlighted roof (a cache level picked on the staircase) is a pointer for the person at the window, like the
    // selection ring: neither goes into an export.
    return {chart.sessions(), chart.extraRoofs(), chart.options(), QString()};
}

std::optional<ExportFormat> exportFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    return std::nullopt;
}

QSize parseSize(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,5})\\s*[xX]\\s*(\\d{1,5})\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return {};
    return {match.captured(1).toInt(), match.captured(2).toInt()};
}

QImage renderChartImage(ChartContent content, QSize size, double devicePixelRatio, ChartLayout* layout)
{
    const std::unique_ptr<RooflineChart> chart = layoutChart(std::move(content), size);
    if (layout)
        *layout = chart->layoutReport();
    QImage image(size * devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(chart->theme().background);
    QPainter painter(&image);
    paintChart(*chart, painter, size);
    painter.end();
    return image;
}

ChartLayout chartLayoutAt(ChartContent content, QSize size)
{
    return layoutChart(std::move(content), size)->layoutReport();
}

std::optional<Error> exportPng(ChartContent content, const QString& path, QSize size, double devicePixelRatio,
                               ChartLayout* layout)
{
    if (auto error = checkSize(size))
        return error;
    if (!(devicePixelRatio >= 0.5 && devicePixelRatio <= 4.0))
        return makeError(Error::Code::InvalidArgument,
                         tr("Device pixel ratio %1 is outside 0.5..4.").arg(devicePixelRatio));
    if (auto refused = checkSaveTarget(path))
        return refused;
    const QImage image = renderChartImage(std::move(content), size, devicePixelRatio, layout);
    return saveEncoded(path, [&image](QIODevice& device) { return image.save(&device, "PNG"); });
}

std::optional<Error> exportSvg(ChartContent content, const QString& path, QSize size, ChartLayout* layout)
{
    if (auto error = checkSize(size))
        return error;
    if (auto refused = checkSaveTarget(path))
        return refused;
    const std::unique_ptr<RooflineChart> chart = layoutChart(std::move(content), size);
    if (layout)
        *layout = chart->layoutReport();
    clipSeriesToAxes(chart->chart());  // an SVG has no clip paths from Qt 6.4: cut the lines to the plot instead
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return saveEncoded(path, [&](QIODevice& device) {
        QSvgGenerator generator;
        setUpSvg(generator, &device, size, tr("Roofline"));
        QPainter painter(&generator);
        paintChart(*chart, painter, size);
        return painter.end();
    });
}

std::optional<Error> exportPdf(ChartContent content, const QString& path, QSize size, ChartLayout* layout)
{
    if (auto error = checkSize(size))
        return error;
    if (auto refused = checkSaveTarget(path))
        return refused;
    const std::unique_ptr<RooflineChart> chart = layoutChart(std::move(content), size);
    if (layout)
        *layout = chart->layoutReport();
    return saveEncoded(path, [&](QIODevice& device) {
        QPdfWriter writer(&device);
        setUpPdf(writer, size, tr("Roofline"));
        QPainter painter(&writer);
        paintChart(*chart, painter, size);
        return painter.end();
    });
}

QByteArray chartCsv(const ChartContent& content)
{
    QString csv = QStringLiteral(
        "session,machine,type,name,kind,precision,intensity_flop_per_byte,gflops,gflops_min,gflops_max,gbps\n");
    auto row = [&csv](const QStringList& fields) {
        QStringList escaped;
        for (const QString& f : fields)
            escaped << csvField(f);
        csv += escaped.join(QLatin1Char(',')) + QLatin1Char('\n');
    };
    for (std::size_t i = 0; i < content.sessions.size(); ++i) {
        const Session& s = content.sessions[i];
        const QString index = QString::number(i);
        const QString machine = s.machine.cpuModel;
        for (const ComputeCeiling& c : s.computeCeilings)
            row({index, machine, QStringLiteral("compute"), c.name, c.isa, c.precision, QString(), number(c.gflops),
                 number(c.spread.min), number(c.spread.max), QString()});
        for (const BandwidthCeiling& b : s.bandwidthCeilings)
            row({index, machine, QStringLiteral("bandwidth"), b.level, b.mix, QString(), QString(), QString(),
                 QString(), QString(), number(b.gbps)});
        for (const KernelResult& k : s.kernels) {
            const double low = k.spread.max > 0.0 ? k.flops / k.spread.max / 1e9 : 0.0;
            const double high = k.spread.min > 0.0 ? k.flops / k.spread.min / 1e9 : 0.0;
            row({index, machine, QStringLiteral("kernel"), k.name, k.kind, k.precision, number(k.intensity),
                 number(k.gflops), number(low), number(high), number(k.gbps)});
        }
    }
    for (const NamedRoof& r : content.extraRoofs)
        row({QString(), r.name, QStringLiteral("roof"), r.name, QString(), QString(), number(ridgeIntensity(r.roof)),
             number(r.roof.peakGflops), QString(), QString(), number(r.roof.bandwidthGbps)});
    return csv.toUtf8();
}

std::optional<Error> exportCsv(const ChartContent& content, const QString& path)
{
    return saveFile(path, chartCsv(content));
}

std::optional<Error> exportChart(ChartContent content, const QString& path, QSize size, double devicePixelRatio,
                                 ChartLayout* layout)
{
    const std::optional<ExportFormat> format = exportFormatForPath(path);
    if (!format)
        return makeError(Error::Code::Unsupported,
                         tr("Cannot export to %1: use a .png, .svg, .pdf or .csv file name.").arg(path));
    switch (*format) {
        case ExportFormat::Png:
            return exportPng(std::move(content), path, size, devicePixelRatio, layout);
        case ExportFormat::Svg:
            return exportSvg(std::move(content), path, size, layout);
        case ExportFormat::Pdf:
            return exportPdf(std::move(content), path, size, layout);
        case ExportFormat::Csv:
            if (layout)
                *layout = chartLayoutAt(content, size);
            return exportCsv(content, path);
    }
    return std::nullopt;
}

}  // namespace ridgeline::ui
