#include "core/session/measure_report.h"

#include "core/model/units.h"
#include "core/session/decode_energy.h"
#include "core/session/decode_series.h"
#include "core/session/mixed_precision.h"
#include "core/session/session_roof.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ridgeline {

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

// Instructions per cycle: "2.00", or "1/16" for a unit that takes several cycles per instruction (AMX).
QString rateText(double perCycle, int width)
{
    if (perCycle > 0.0 && perCycle < 1.0 && std::abs(1.0 / perCycle - std::round(1.0 / perCycle)) < 1e-9)
        return QString(QStringLiteral("1/") + QString::number(std::lround(1.0 / perCycle))).rightJustified(width);
    return fixed(perCycle, 2, width);
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
    out << "compute ceiling          GFLOP/s   theoretical   of peak    clock   FLOP/cycle  instr/cycle  spread "
           "(min..max)\n";
    for (const ComputeCeiling& c : s.computeCeilings) {
        const double share = c.theoreticalGflops > 0.0 ? 100.0 * c.gflops / c.theoreticalGflops : 0.0;
        out << c.name.leftJustified(22) << grouped(c.gflops, 1, 11) << grouped(c.theoreticalGflops, 1, 14)
            << fixed(share, 1, 9) << " %";
        if (c.clockGhz > 0.0)
            out << fixed(c.clockGhz, 2, 8) << fixed(c.flopsPerCycle, 1, 13) << rateText(c.fmaPerCycle, 12);
        else
            out << QString(33, QLatin1Char(' '));
        out << "   " << fixed(c.spread.min, 1, 0) << ".." << fixed(c.spread.max, 1, 0) << ' ' << checkMark(s, c.name)
            << '\n';
    }
    if (std::any_of(s.computeCeilings.begin(), s.computeCeilings.end(),
                    [](const ComputeCeiling& c) { return countsOperations(c.precision); }))
        out << "int8 rows count operations (GOPS; 1,000 GOPS = 1 TOPS), not floating-point ones; instr/cycle is the\n"
               "unit's own instruction (an FMA, vdpbf16ps, vpdpbusd, a tile product) per core\n";
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
    out << "kernel                 size              GFLOP/s   intensity       GB/s    time (ms)  of its roof\n";
    for (const KernelResult& k : s.kernels) {
        if (isDecodeKind(k.kind))
            continue;
        // The best ceiling of the kernel's own precision: bf16 products under the bf16 roof.
        const ComputeCeiling* peak = bestComputeCeiling(s, k.precision);
        if (!peak)
            peak = bestComputeCeiling(s, u"fp32");
        out << k.kind.leftJustified(22) << ' ' << k.size.leftJustified(14) << grouped(k.gflops, 1, 11)
            << fixed(k.intensity, k.intensity < 1.0 ? 2 : 0, 12) << grouped(k.gbps, 1, 11)
            << fixed(k.seconds * 1e3, 2, 13);
        if (peak && peak->gflops > 0.0)
            out << fixed(100.0 * k.gflops / peak->gflops, 1, 12) << " %";
        out << ' ' << checkMark(s, k.name) << '\n';
    }
    out << '\n';
}

// The decode series of one weight precision ("decode" is fp32), in batch order.
std::vector<const KernelResult*> decodeSeries(const Session& s, const QString& kind)
{
    std::vector<const KernelResult*> series;
    for (const KernelResult& k : s.kernels)
        if (k.kind == kind && k.batch > 0)
            series.push_back(&k);
    return series;
}

// The decode batches' energy per token where RAPL was read, else one line that says why there is none.
void printDecodeEnergy(const Session& s, QTextStream& out)
{
    if (const QString missing = decodeEnergyMissing(s); !missing.isEmpty()) {
        out << missing << '\n';
        return;
    }
    double shortest = 0.0, longest = 0.0;
    for (const KernelResult* k : decodeBatchesWithEnergy(s)) {
        shortest = shortest > 0.0 ? std::min(shortest, k->energy.seconds) : k->energy.seconds;
        longest = std::max(longest, k->energy.seconds);
    }
    // Package (and DRAM) energy over each batch's warm-up and timed runs, divided by its tokens.
    out << "energy: " << s.energy.basis << ", read across each batch's runs (" << formatSeconds(shortest)
        << (longest > shortest ? QStringLiteral(" to ") + formatSeconds(longest) : QString())
        << "; the counters step about every 1 ms)\n";
}

void printDecode(const Session& s, QTextStream& out)
{
    const std::vector<const KernelResult*> decode = decodeSeries(s, QStringLiteral("decode"));
    if (decode.empty())
        return;
    const bool energy =
        std::any_of(decode.begin(), decode.end(), [](const KernelResult* k) { return k->energy.measured(); });
    out << "decode on this CPU: 4096 x 4096 fp32 weights x a batch of B token vectors\n";
    const bool dram =
        std::any_of(decode.begin(), decode.end(), [](const KernelResult* k) { return k->energy.dramWatts > 0.0; });
    out << "batch   time per step (ms)   tokens/s   vs batch 1   intensity" << (energy ? "    J/token   package W" : "")
        << (dram ? "    DRAM W" : "") << '\n';
    const double base = decode.front()->tokensPerSecond;
    const double baseTime = decode.front()->seconds;
    for (const KernelResult* k : decode) {
        out << QString::number(k->batch).rightJustified(5) << fixed(k->seconds * 1e3, 3, 21) << "  ("
            << fixed(k->seconds / baseTime, 2, 0) << "x)" << grouped(k->tokensPerSecond, 0, 9)
            << fixed(base > 0.0 ? k->tokensPerSecond / base : 0.0, 1, 11) << 'x' << fixed(k->intensity, 1, 12);
        if (energy)
            out << (k->energy.measured() ? formatSignificant(k->energy.joulesPerToken, 3) : QStringLiteral("-"))
                       .rightJustified(11)
                << (k->energy.measured() ? fixed(k->energy.packageWatts, 1, 12)
                                         : QStringLiteral("-").rightJustified(12));
        if (dram)
            out << (k->energy.measured() ? fixed(k->energy.dramWatts, 1, 10) : QStringLiteral("-").rightJustified(10));
        out << '\n';
    }
    printDecodeEnergy(s, out);
    out << '\n';
}

// Tokens/s by weight precision: bf16 and int8 weights move half and a quarter of fp32's bytes;
// under them the roofline's batch 1 and knee on each precision's own roof (decode_series.h).
void printLowpDecode(const Session& s, QTextStream& out)
{
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(s);
    const auto fp32 = std::find_if(all.begin(), all.end(),
                                   [](const DecodeSeries& d) { return d.precision == QLatin1String("fp32"); });
    if (all.empty() || (all.size() == 1 && fp32 != all.end()))
        return;  // fp32 alone: printDecode has said it all
    // A label column, then per precision a value and a note: "    16       495  (2.77x)".
    auto cell = [](const QString& value, const QString& note = {}) -> QString {  // not a QStringBuilder of temporaries
        return value.rightJustified(12) +
               (note.isEmpty() ? QString(9, QLatin1Char(' ')) : u"  " + note.leftJustified(7));
    };
    out << "decode by weight precision: tokens/s (x fp32 at the same batch)\n"
        << QStringLiteral("batch").leftJustified(17);
    for (const DecodeSeries& d : all)
        out << cell(d.precision);
    out << '\n';
    // Every batch any precision ran (a time-bounded run may skip different batches in each series).
    std::set<int> batches;
    for (const DecodeSeries& d : all)
        for (const KernelResult* k : d.measured)
            batches.insert(k->batch);
    for (int batch : batches) {
        const KernelResult* f = fp32 != all.end() ? fp32->at(batch) : nullptr;
        out << QString::number(batch).rightJustified(5).leftJustified(17);
        for (const DecodeSeries& d : all) {
            const KernelResult* l = d.at(batch);
            const bool ratio = l && f && l != f && f->tokensPerSecond > 0.0;
            out << (l ? cell(formatGrouped(l->tokensPerSecond, 0),
                             ratio ? QStringLiteral("(%1x)").arg(fixed(l->tokensPerSecond / f->tokensPerSecond, 2, 0))
                                   : QString())
                      : cell(QString()));
        }
        out << '\n';
    }
    // The prediction: batch 1 is the weights over DRAM; the knee is where the step turns compute-bound.
    out << QStringLiteral("roofline, batch 1").leftJustified(17);
    for (const DecodeSeries& d : all) {
        const double predicted = d.predictedTokensPerSecond(1.0);
        out << cell(predicted > 0.0 ? formatGrouped(predicted, 0) : QStringLiteral("-"));
    }
    out << '\n' << QStringLiteral("knee (roofline)").leftJustified(17);
    for (const DecodeSeries& d : all)
        out << cell(d.kneeBatch ? u"B = " + formatGrouped(*d.kneeBatch, 0) : QStringLiteral("never"));
    out << '\n';
    for (const DecodeSeries& d : all) {
        out << "  " << d.precision << " roof: ";
        if (!d.roof) {
            out << "no " << d.precision << " compute ceiling or no DRAM ceiling: no prediction\n";
            continue;
        }
        const bool ops = countsOperations(d.precision);
        out << d.roof->compute->name << ' ' << formatGrouped(d.roof->compute->gflops, 0) << (ops ? " GOPS" : " GFLOP/s")
            << " over DRAM " << fixed(d.roof->memory->gbps, 1, 0) << " GB/s, ridge "
            << formatGrouped(ridgeIntensity(d.roof->roof()), 0) << (ops ? " op/byte" : " FLOP/byte");
        if (!d.counts)
            out << " (its kernels' counts are not one d x d matrix times B vectors: no prediction)";
        out << '\n';
    }
    out << '\n';
}

// The source text's "mixed precision roughly doubles matrix multiply throughput", as measured here.
void printMixedPrecision(const Session& s, QTextStream& out)
{
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(s);
    if (pairs.empty())
        return;
    out << "mixed precision: bf16 gemm against fp32 sgemm of the same n\n";
    for (const MixedPrecisionPair& p : pairs)
        out << "  n = " << p.bf16->size.section(QLatin1Char('x'), 0, 0).leftJustified(5)
            << grouped(p.bf16->gflops, 1, 10) << " against" << grouped(p.sgemm->gflops, 1, 10)
            << " GFLOP/s: " << fixed(p.speedup(), 1, 0) << "x\n";
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

// The training step's three ways, and the checks each one answers: what checkpointing costs against the claim
// of a third, what memory it and accumulation save, and whether accumulation gives the large batch's gradients.
void printTraining(const Session& s, QTextStream& out)
{
    const TrainingResult& t = s.training;
    if (t.tokens == 0)
        return;  // said under "not measured"
    auto mib = [](double bytes) -> QString { return fixed(bytes / (1024.0 * 1024.0), 1, 0) + QStringLiteral(" MiB"); };
    out << "training step: " << t.layers << " MLP blocks " << t.model << " -> " << t.hidden << " -> " << t.model
        << " (GELU), " << t.tokens << " tokens, fp32, SGD\n";
    for (const KernelResult& k : s.kernels)
        if (k.kind == QLatin1String("training-step"))
            out << "  " << k.name.leftJustified(36) << fixed(k.seconds * 1e3, 1, 9) << " ms" << grouped(k.gflops, 1, 10)
                << " GFLOP/s\n";
    out << "  activations at the peak: " << mib(t.plainPeakBytes) << " plain, " << mib(t.checkpointPeakBytes)
        << " checkpointed (" << mib(t.plainPeakBytes - t.checkpointPeakBytes) << " saved), "
        << mib(t.microBatchPeakBytes) << " a micro-batch\n";
    auto percent = [](double share) -> QString { return fixed(100.0 * share, 1, 0) + QStringLiteral(" %"); };
    // The claim of a third is a whole forward run again; this step recomputes each block's hidden layer only (the
    // next block kept the output of its second product), so its own figures are set beside the forward's share.
    out << "  checkpointing: recomputes " << percent(t.extraCompute()) << " of the plain step's FLOPs (each block's "
        << "first product and GELU)";
    if (t.recomputeSeconds > 0.0)
        out << ", timed at " << percent(t.recomputeTime()) << " of a plain step";
    out << "; the checkpointed step took " << percent(t.extraTime()) << " longer\n";
    if (t.forwardFlops > 0.0)
        out << "    the claim of about a third is a whole forward again: " << percent(t.forwardShare())
            << " of this step's FLOPs, which a framework's layer checkpoint reruns\n";
    out << "  accumulation: " << t.microBatches << " micro-batches of " << t.tokens / std::max(t.microBatches, 1)
        << " tokens, gradients within " << QString::number(t.gradientDifference, 'g', 2) << " of the full batch's ("
        << (t.gradientDifference <= t.tolerance ? "within" : "OUTSIDE") << " the tolerance "
        << QString::number(t.tolerance, 'g', 2) << ")\n";
    if (t.bf16Seconds > 0.0)
        out << "  bf16 mixed precision (" << t.bf16Products
            << "; fp32 master weights and gradients): " << fixed(t.bf16Seconds * 1e3, 1, 0) << " ms against fp32's "
            << fixed(t.bf16Fp32Seconds * 1e3, 1, 0) << " ms timed before it ("
            << fixed(t.bf16Fp32Seconds / t.bf16Seconds, 2, 0) << "x); activations " << mib(t.bf16PeakBytes)
            << " against " << mib(t.plainPeakBytes) << " ("
            << fixed(t.bf16PeakBytes / std::max(t.plainPeakBytes, 1.0), 2, 0) << "x); gradients within "
            << QString::number(t.bf16GradientDifference, 'g', 2) << " of fp32's\n";
    out << '\n';
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
    printLowpDecode(session, out);
    printMixedPrecision(session, out);
    printFusion(session, out);
    printTraining(session, out);
    printChecks(session, out);
    if (session.noisy())
        out << "NOISY: the machine was busy; these ceilings spread by more than "
            << fixed(100.0 * Session::kNoisySpread, 0, 0)
            << " % between repetitions: " << session.noisyMeasurements.join(QStringLiteral(", ")) << "\n";
    out << "wall time " << fixed(session.wallSeconds, 1, 0) << " s (" << (session.quick ? "quick" : "full")
        << " run)\n";
}

QString measureReportText(const Session& session)
{
    QString text;
    QTextStream out(&text);
    printMeasureReport(session, out);
    out.flush();
    return text;
}

}  // namespace ridgeline
