#include "ui/plots/roofline/kernel_presentation.h"

#include "core/model/units.h"
#include "ui/plots/roofline/point_explanation.h"

#include <QCoreApplication>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

}  // namespace

bool isImported(const KernelResult& k)
{
    return k.kind == QLatin1String("imported");
}

bool matchesKernelFilter(const KernelResult& kernel, const QString& filter)
{
    return filter.isEmpty() || kernel.name.contains(filter, Qt::CaseInsensitive) ||
           kernel.fullName.contains(filter, Qt::CaseInsensitive);
}

QColor kernelColorOf(const RooflinePlot& plot, const std::vector<Session>& sessions, const ChartTheme& theme,
                     KernelRef ref)
{
    if (ref.session < 0 || ref.session >= static_cast<int>(sessions.size()))
        return theme.text;
    const Session& s = sessions[static_cast<std::size_t>(ref.session)];
    if (ref.kernel < 0 || ref.kernel >= static_cast<int>(s.kernels.size()))
        return theme.text;
    if (ref.session < static_cast<int>(plot.kernelColors.size())) {
        const QColor own =
            plot.kernelColors[static_cast<std::size_t>(ref.session)][static_cast<std::size_t>(ref.kernel)];
        if (own.isValid())
            return own;
    }
    return sessions.size() > 1 ? theme.sessionColor(ref.session)
                               : theme.kernelColor(s.kernels[static_cast<std::size_t>(ref.kernel)].kind);
}

QString kernelTooltip(const Session& s, const KernelResult& k)
{
    QString html = kernelTooltipHtml(s, k);
    if (!isImported(k))
        return html;
    // A profiler's name is often a page of template arguments: the label shows the short one, this the rest.
    if (!k.fullName.isEmpty() && k.fullName != k.name)
        html += QStringLiteral("<br><span style=\"font-family:monospace\">%1</span>").arg(k.fullName.toHtmlEscaped());
    QStringList facts;
    facts << tr("%1 per run").arg(formatSeconds(k.seconds));
    if (!k.level.isEmpty())
        facts << tr("bytes at %1").arg(k.level.toHtmlEscaped());
    for (const LevelPoint& level : k.levels)
        facts << tr("%1: %2 FLOP/byte").arg(level.level.toHtmlEscaped(), formatCompact(level.intensity));
    if (!k.precision.isEmpty())
        facts << k.precision.toHtmlEscaped();
    if (k.tensorFlopsCounted)
        facts << tr("tensor FLOPs counted");
    html += QStringLiteral("<br>") + facts.join(QStringLiteral(", "));
    QString from = tr("from %1").arg(k.source.toHtmlEscaped());
    if (!k.group.isEmpty())
        from += tr(", group %1").arg(k.group.toHtmlEscaped());
    html += QStringLiteral("<br><i>%1</i>").arg(from);
    return html;
}

QString sessionLabel(const Session& session)
{
    QString label = session.title.isEmpty() ? session.machine.cpuModel : session.title;
    if (label.isEmpty())
        label = session.machine.hostname;
    if (label.isEmpty())
        label = tr("Unnamed machine");
    return label;
}

std::pair<double, double> gflopsRange(const KernelResult& k)
{
    if (k.gflops <= 0.0 || k.seconds <= 0.0 || k.spread.min <= 0.0 || k.spread.max <= 0.0)
        return {0.0, 0.0};
    // The drawn rate scaled by each run's time against the kernel's: the same as FLOPs over the run's time where the
    // file's figures agree, and a bar through the point where a file's FLOPs and GFLOP/s disagree.
    return {k.gflops * k.seconds / k.spread.max, k.gflops * k.seconds / k.spread.min};
}

}  // namespace ridgeline::ui
