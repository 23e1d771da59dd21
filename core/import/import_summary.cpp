#include "core/import/import_summary.h"

#include "core/import/import_format.h"

#include <algorithm>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

QString duration(double seconds)
{
    if (seconds >= 1.0)
        return number(seconds) + u" s"_s;
    if (seconds >= 1e-3)
        return number(seconds * 1e3) + u" ms"_s;
    if (seconds >= 1e-6)
        return number(seconds * 1e6) + u" us"_s;
    return number(seconds * 1e9) + u" ns"_s;
}

QString count(std::size_t n, const QString& one, const QString& many)
{
    return QString::number(n) + u' ' + (n == 1 ? one : many);
}

QString kernelLine(const KernelResult& kernel)
{
    QString line = u"  kernel   "_s + kernel.name;
    if (!kernel.group.isEmpty())
        line += u" ["_s + kernel.group + u']';
    line += u": "_s + number(kernel.gflops) + u" GFLOP/s, "_s + number(kernel.intensity) + u" FLOP/byte"_s;
    if (!kernel.level.isEmpty())
        line += u" ("_s + kernel.level + u')';
    for (const LevelPoint& point : kernel.levels)
        line += u", "_s + number(point.intensity) + u" ("_s + point.level + u')';
    line += u", "_s + duration(kernel.seconds);
    if (kernel.tensorFlopsCounted)
        line += u", tensor FLOPs counted"_s;
    return line;
}

QString skippedLine(const SkippedRow& row)
{
    QString line = u"  skipped  "_s;
    if (row.line > 0)
        line += u"line "_s + QString::number(row.line) + u' ';
    if (!row.what.isEmpty())
        line += row.what + u' ';
    return line + u"- "_s + row.reason;
}

}  // namespace

QStringList importSummaryLines(const ImportResult& import, const QString& into, std::size_t maxListed)
{
    return importSummaryLines(import, import.kernels, into, maxListed);
}

QStringList importSummaryLines(const ImportResult& import, std::span<const KernelResult> kernels, const QString& into,
                               std::size_t maxListed)
{
    QStringList lines;
    QString head = import.fileName + u" ("_s + formatName(import.format) + u"): "_s;
    if (import.hasCeilings())
        head += QString::number(import.computeCeilings.size()) + u" compute and "_s +
                QString::number(import.bandwidthCeilings.size()) + u" bandwidth ceilings for "_s + import.machineName +
                u", "_s;
    lines.append(head + count(kernels.size(), u"kernel"_s, u"kernels"_s) + u", "_s +
                 QString::number(import.skipped.size()) + u" skipped"_s);
    for (const ComputeCeiling& ceiling : import.computeCeilings)
        lines.append(u"  ceiling  "_s + ceiling.name + u": "_s + number(ceiling.gflops) + u" GFLOP/s"_s);
    for (const BandwidthCeiling& ceiling : import.bandwidthCeilings)
        lines.append(u"  ceiling  "_s + ceiling.level + u": "_s + number(ceiling.gbps) + u" GB/s"_s);
    for (std::size_t i = 0; i < std::min(kernels.size(), maxListed); ++i)
        lines.append(kernelLine(kernels[i]));
    if (kernels.size() > maxListed)
        lines.append(u"  ... and "_s + QString::number(kernels.size() - maxListed) + u" more kernels"_s);
    for (std::size_t i = 0; i < std::min(import.skipped.size(), maxListed); ++i)
        lines.append(skippedLine(import.skipped[i]));
    if (import.skipped.size() > maxListed)
        lines.append(u"  ... and "_s + QString::number(import.skipped.size() - maxListed) + u" more skipped"_s);
    for (const QString& note : import.notes)
        lines.append(u"  note     "_s + note);
    lines.append(u"  into     "_s + into);
    return lines;
}

}  // namespace ridgeline
