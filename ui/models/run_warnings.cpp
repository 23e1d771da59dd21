#include "ui/models/run_warnings.h"

#include "core/measure/compute/peaks.h"
#include "core/measure/run/load.h"
#include "core/model/units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RunWarnings", text);
}

bool isKernel(const Session& session, const QString& name)
{
    return std::any_of(session.kernels.begin(), session.kernels.end(),
                       [&](const KernelResult& k) { return k.name == name; });
}

bool isComputeCeiling(const Session& session, const QString& name)
{
    return std::any_of(session.computeCeilings.begin(), session.computeCeilings.end(),
                       [&](const ComputeCeiling& c) { return c.name == name; });
}

// (max - min) / median of a spread; 0 when it has no median.
double relativeSpread(const Spread& spread)
{
    return spread.median > 0.0 ? (spread.max - spread.min) / spread.median : 0.0;
}

void addCrossChecks(const Session& session, std::vector<RunWarning>& warnings)
{
    for (const Finding& f : crossCheckSession(session)) {
        if (isKernel(session, f.subject))
            warnings.push_back({RunWarningKind::AboveRoof, QStringLiteral("%1: %2").arg(f.subject, f.message)});
        else if (isComputeCeiling(session, f.subject))
            warnings.push_back({RunWarningKind::PrecisionRatio, QStringLiteral("%1: %2").arg(f.subject, f.message)});
        else
            warnings.push_back({RunWarningKind::LevelsOutOfOrder, f.message});
    }
}

void addSpreads(const Session& session, std::vector<RunWarning>& warnings)
{
    // The engine names the ceilings whose repetitions spread; kernels keep their seconds' spread.
    for (const QString& name : session.noisyMeasurements)
        warnings.push_back(
            {RunWarningKind::WideSpread,
             tr("%1: repetitions differ by more than %2 %").arg(name, formatCompact(100.0 * Session::kNoisySpread))});
    for (const KernelResult& k : session.kernels) {
        const double spread = relativeSpread(k.spread);
        if (spread > Session::kNoisySpread && std::isfinite(spread))
            warnings.push_back(
                {RunWarningKind::WideSpread, tr("%1: its runs took %2 to %3 (%4 % apart)")
                                                 .arg(k.name, formatSeconds(k.spread.min), formatSeconds(k.spread.max),
                                                      formatCompact(100.0 * spread))});
    }
}

void addLoad(const Session& session, const RunContext& context, std::vector<RunWarning>& warnings)
{
    for (const Finding& f : session.findings)
        if (f.subject == kLoadFindingSubject)
            warnings.push_back({RunWarningKind::BusyMachine, f.message});
    const int cpus = context.cpus > 0 ? context.cpus : session.machine.cores;
    if (context.loadAverageAtStart && cpus > 0 && *context.loadAverageAtStart >= kBusyLoadPerCpu * cpus)
        warnings.push_back({RunWarningKind::BusyMachine,
                            tr("the load average was %1 on %2 CPUs when the run started: other work competed "
                               "for them")
                                .arg(formatCompact(*context.loadAverageAtStart))
                                .arg(cpus)});
}

QString heading(RunWarningKind kind, int count)
{
    switch (kind) {
        case RunWarningKind::AboveRoof:
            return count == 1 ? tr("A kernel is above its roof, which physics does not allow:")
                              : tr("%1 kernels are above their roofs, which physics does not allow:").arg(count);
        case RunWarningKind::PrecisionRatio:
            return tr("fp32 is not about twice fp64 at the same vector width:");
        case RunWarningKind::LevelsOutOfOrder:
            return tr("A nearer memory level is not faster than the one behind it:");
        case RunWarningKind::WideSpread:
            return tr("Repetitions spread widely:");
        case RunWarningKind::BusyMachine:
            return tr("The machine was busy:");
    }
    return {};
}

}  // namespace

std::vector<RunWarning> runWarnings(const Session& session, const RunContext& context)
{
    std::vector<RunWarning> warnings;
    addCrossChecks(session, warnings);
    addSpreads(session, warnings);
    addLoad(session, context, warnings);
    std::stable_sort(warnings.begin(), warnings.end(),
                     [](const RunWarning& a, const RunWarning& b) { return a.kind < b.kind; });
    return warnings;
}

QString runWarningsMessage(const std::vector<RunWarning>& warnings)
{
    if (warnings.empty())
        return {};
    constexpr int kExamples = 3;
    QStringList lines{tr("Some figures of this run cannot be trusted as they are.")};
    for (const RunWarningKind kind :
         {RunWarningKind::AboveRoof, RunWarningKind::PrecisionRatio, RunWarningKind::LevelsOutOfOrder,
          RunWarningKind::WideSpread, RunWarningKind::BusyMachine}) {
        QStringList texts;
        for (const RunWarning& w : warnings)
            if (w.kind == kind)
                texts << w.text;
        if (texts.isEmpty())
            continue;
        lines << QString() << heading(kind, static_cast<int>(texts.size()));
        for (qsizetype i = 0; i < std::min<qsizetype>(texts.size(), kExamples); ++i)
            lines << QStringLiteral("• ") + texts[i];
        if (texts.size() > kExamples)
            lines << tr("• and %1 more").arg(texts.size() - kExamples);
    }
    lines << QString()
          << tr("Close other programs and measure again; this run stays open until the new one finishes, and you can "
                "still save it.");
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ridgeline::ui
