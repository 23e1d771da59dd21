#include "app/cli/measure_report.h"

#include "core/model/session_roof.h"
#include "core/model/units.h"

#include <algorithm>

namespace ridgeline::cli {

namespace {

QString fixed(double value, int decimals, int width)
{
    return QLocale::c().toString(value, 'f', decimals).rightJustified(width);
}

// 1,194 style: thousands separators, as the source text prints its figures.
QString grouped(double value, int decimals, int width)
{
    return formatGrouped(value, decimals).rightJustified(width);
}

QString bytesText(std::int64_t bytes)
{
    return formatBinaryBytes(static_cast<double>(bytes));
}

// The findings that name `subject`, as a marker for its table row: "!" impossible, "?" doubtful.
QString checkMark(const Session& s, const QString& subject)
{
    QString mark;
    for (const Finding& f : s.findings) {
        if (f.subject != subject)
            continue;
        if (f.kind == QLatin1String("impossible"))
            return QStringLiteral("!");
        if (f.kind == QLatin1String("doubtful"))
            mark = QStringLiteral("?");
    }
    return mark;
}

void printClock(const MachineInfo& m, QTextStream& out)
{
    const ClockMeasurement& c = m.clock;
    if (c.method.isEmpty()) {  // a session from before schema 2
        out << "Clock     " << fixed(m.clockGhz, 2, 0) << " GHz\n";
        return;
    }
    out << "Clock     " << fixed(m.clockGhz, 2, 0) << " GHz by " << c.method << '\n';
    out << "          add chain " << fixed(c.addChainGhz, 2, 0) << " GHz, imul chain " << fixed(c.mulChainGhz, 2, 0)
        << " GHz";
    if (c.tscGhz > 0.0)
        out << ", TSC " << fixed(c.tscGhz, 2, 0) << " GHz";
    if (c.reportedGhz > 0.0)
        out << ", " << c.reportedSource << ' ' << fixed(c.reportedGhz, 2, 0) << " GHz";
    out << (c.doubtful ? QStringLiteral("\n          DOUBTFUL: ") + c.doubt : QStringLiteral(" (plausible)")) << '\n';
}

void printMachine(const Session& s, QTextStream& out)
{
    const MachineInfo& m = s.machine;
    out << "Machine   " << m.cpuModel << ", " << m.cores << " CPUs, " << m.isa.join(QLatin1Char(' ')) << '\n';
    if (!m.coreName.isEmpty())
        out << "Core      " << m.coreName << " (" << m.coreBasis << ")\n";
    out << "Caches   ";
    for (const CacheInfo& c : m.caches)
        out << " L" << c.level << ' ' << bytesText(c.sizeBytes) << " (shared by " << c.sharedByCpus << ")";
    out << '\n';
    const LastLevelCache& llc = m.lastLevelCache;
    if (llc.level > 0 && llc.effectiveBytes != llc.reportedBytes)
        out << "          L" << llc.level << " as measured: " << bytesText(llc.effectiveBytes) << " of the "
            << bytesText(llc.reportedBytes) << " reported (" << llc.basis << ")\n";
    out << "OpenBLAS  " << m.openblasVersion << ", kernel " << m.openblasCore << ", " << m.openblasThreads
        << " threads\n";
    printClock(m, out);
    out << '\n';
}

void printComputeCeilings(const Session& s, QTextStream& out)
{
    out << "compute ceiling          GFLOP/s   theoretical   of peak    clock   FLOP/cycle   FMA/cycle   spread "
           "(min..max)\n";
    for (const ComputeCeiling& c : s.computeCeilings) {
        const double share = c.theoreticalGflops > 0.0 ? 100.0 * c.gflops / c.theoreticalGflops : 0.0;
        out << c.name.leftJustified(22) << grouped(c.gflops, 1, 11) << grouped(c.theoreticalGflops, 1, 14)
            << fixed(share, 1, 9) << " %";
        if (c.clockGhz > 0.0)
            out << fixed(c.clockGhz, 2, 8) << fixed(c.flopsPerCycle, 1, 13) << fixed(c.fmaPerCycle, 2, 12);
        else
            out << QString(33, QLatin1Char(' '));
        out << "   " << fixed(c.spread.min, 1, 0) << ".." << fixed(c.spread.max, 1, 0) << ' ' << checkMark(s, c.name)
            << '\n';
    }
    out << '\n';
}

void printBandwidthCeilings(const Session& s, QTextStream& out)
{
    out << "bandwidth ceiling     GB/s   working set   mix     spread (min..max)\n";
    for (const BandwidthCeiling& c : s.bandwidthCeilings)
        out << c.level.leftJustified(16) << grouped(c.gbps, 1, 9) << bytesText(c.workingSetBytes).rightJustified(14)
            << "   " << c.mix.leftJustified(6) << "  " << fixed(c.spread.min, 1, 0) << ".." << fixed(c.spread.max, 1, 0)
            << '\n';
    const BandwidthCeiling* dram = memoryCeiling(s, kDramLevel);
    if (s.streamTriadGbps > 0.0) {
        out << "STREAM triad    " << grouped(s.streamTriadGbps, 1, 9) << " GB/s";
        if (dram)
            out << "   (DRAM ceiling / triad = " << fixed(dram->gbps / s.streamTriadGbps, 2, 0) << ")";
        out << '\n';
    }
    out << '\n';
}

void printKernels(const Session& s, QTextStream& out)
{
    const ComputeCeiling* fp32 = bestComputeCeiling(s, u"fp32");
    const ComputeCeiling* fp64 = bestComputeCeiling(s, u"fp64");
    out << "kernel                 size              GFLOP/s   intensity       GB/s    time (ms)   of FMA peak\n";
    for (const KernelResult& k : s.kernels) {
        if (k.kind == QLatin1String("decode"))
            continue;
        const ComputeCeiling* peak = k.precision == QLatin1String("fp64") ? fp64 : fp32;
        out << k.kind.leftJustified(22) << ' ' << k.size.leftJustified(14) << grouped(k.gflops, 1, 11)
            << fixed(k.intensity, k.intensity < 1.0 ? 2 : 0, 12) << grouped(k.gbps, 1, 11)
            << fixed(k.seconds * 1e3, 2, 13);
        if (peak && peak->gflops > 0.0)
            out << fixed(100.0 * k.gflops / peak->gflops, 1, 12) << " %";
        out << ' ' << checkMark(s, k.name) << '\n';
    }
    out << '\n';
}

void printDecode(const Session& s, QTextStream& out)
{
    std::vector<const KernelResult*> decode;
    for (const KernelResult& k : s.kernels)
        if (k.kind == QLatin1String("decode"))
            decode.push_back(&k);
    if (decode.empty())
        return;
    out << "decode on this CPU: 4096 x 4096 fp32 weights x a batch of B token vectors\n";
    out << "batch   time per step (ms)   tokens/s   vs batch 1   intensity\n";
    const double base = decode.front()->tokensPerSecond;
    const double baseTime = decode.front()->seconds;
    for (const KernelResult* k : decode)
        out << QString::number(k->batch).rightJustified(5) << fixed(k->seconds * 1e3, 3, 21) << "  ("
            << fixed(k->seconds / baseTime, 2, 0) << "x)" << grouped(k->tokensPerSecond, 0, 9)
            << fixed(base > 0.0 ? k->tokensPerSecond / base : 0.0, 1, 11) << 'x' << fixed(k->intensity, 1, 12) << '\n';
    out << '\n';
}

void printFusion(const Session& s, QTextStream& out)
{
    const FusionResult& f = s.fusion;
    if (f.elements == 0)
        return;  // said under "not measured"
    out << "fusion: bias add + GELU + dropout over " << f.elements << " fp32 elements\n";
    out << "  unfused, 3 passes: " << fixed(f.unfusedBytes / 1e6, 0, 0) << " MB moved in "
        << fixed(f.unfusedSeconds * 1e3, 2, 0) << " ms\n";
    out << "  fused, 1 pass:     " << fixed(f.fusedBytes / 1e6, 0, 0) << " MB moved in "
        << fixed(f.fusedSeconds * 1e3, 2, 0) << " ms\n";
    out << "  speed-up " << fixed(f.speedup, 2, 0) << "x for " << fixed(f.unfusedBytes / f.fusedBytes, 1, 0)
        << "x less traffic (outputs agree within " << QString::number(f.maxAbsDifference, 'g', 2) << ")\n\n";
}

// Every finding, impossible ones first, then what did not run: nothing is left out silently.
void printChecks(const Session& s, QTextStream& out)
{
    if (!s.findings.empty()) {
        out << "checks (! impossible, ? doubtful)\n";
        for (const char* kind : {"impossible", "doubtful", "note"})
            for (const Finding& f : s.findings)
                if (f.kind == QLatin1String(kind))
                    out << "  " << QString::fromLatin1(kind).leftJustified(11) << f.subject << ": " << f.message
                        << '\n';
        out << '\n';
    }
    if (!s.skipped.empty()) {
        out << "not measured\n";
        for (const SkippedExperiment& k : s.skipped)
            out << "  " << k.experiment << ": " << k.reason << '\n';
        out << '\n';
    }
}

}  // namespace

void printMeasureReport(const Session& session, QTextStream& out)
{
    printMachine(session, out);
    printComputeCeilings(session, out);
    printBandwidthCeilings(session, out);
    printKernels(session, out);
    printDecode(session, out);
    printFusion(session, out);
    printChecks(session, out);
    if (session.noisy())
        out << "NOISY: the machine was busy; these ceilings spread by more than "
            << fixed(100.0 * Session::kNoisySpread, 0, 0)
            << " % between repetitions: " << session.noisyMeasurements.join(QStringLiteral(", ")) << "\n";
    out << "wall time " << fixed(session.wallSeconds, 1, 0) << " s (" << (session.quick ? "quick" : "full")
        << " run)\n";
}

}  // namespace ridgeline::cli
