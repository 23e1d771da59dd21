#include "core/import/kernel/known_cpus.h"

#include <QRegularExpression>

#include <vector>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// FLOPs per cycle: Zen 2 and Zen 3 have two 256-bit FMA pipes (4 doubles x 2 FLOPs x 2 = 16); Zen 4 runs AVX-512
// on the same two 256-bit pipes (16, not 32); Ice Lake SP's Platinum parts have two 512-bit FMA units
// (8 x 2 x 2 = 32), as Intel's page for the part states ("# of AVX-512 FMA Units: 2").
const std::vector<KnownCpu>& table()
{
    static const std::vector<KnownCpu> cpus = {
        {u"AMD EPYC 7742"_s, u"amd epyc 7742"_s, u"Zen 2"_s, 64, 2.25, 16, 8, 3200,
         u"AMD product page \"AMD EPYC 7742\", https://www.amd.com/en/products/processors/server/epyc/"
         "7002-series/amd-epyc-7742.html: 64 cores, base 2.25 GHz, 8 channels DDR4-3200"_s},
        {u"AMD EPYC 7763"_s, u"amd epyc 7763"_s, u"Zen 3"_s, 64, 2.45, 16, 8, 3200,
         u"AMD product page \"AMD EPYC 7763\", https://www.amd.com/en/products/processors/server/epyc/"
         "7003-series/amd-epyc-7763.html: 64 cores, base 2.45 GHz, 8 channels DDR4-3200"_s},
        {u"AMD EPYC 9654"_s, u"amd epyc 9654"_s, u"Zen 4"_s, 96, 2.4, 16, 12, 4800,
         u"AMD product page \"AMD EPYC 9654\", https://www.amd.com/en/products/processors/server/epyc/"
         "4th-generation-9004-and-8004-series/amd-epyc-9654.html: 96 cores, base 2.4 GHz, 12 channels DDR5-4800"_s},
        {u"Intel Xeon Platinum 8380"_s, u"intel xeon platinum 8380"_s, u"Ice Lake SP"_s, 40, 2.3, 32, 8, 3200,
         u"Intel ARK \"Intel Xeon Platinum 8380 Processor\", https://ark.intel.com/content/www/us/en/ark/"
         "products/212287/intel-xeon-platinum-8380-processor-60m-cache-2-30-ghz.html: 40 cores, base 2.30 GHz, "
         "2 AVX-512 FMA units, 8 channels DDR4-3200"_s},
    };
    return cpus;
}

QString figure(double value)
{
    return QString::number(value, 'g', 5);
}

ComputeCeiling peak(const KnownCpu& cpu, const QString& precision, double gflops, double flopsPerCycle)
{
    ComputeCeiling ceiling;
    ceiling.name = precision + u" peak, one socket at base "_s + figure(cpu.baseGhz) + u" GHz (datasheet)"_s;
    ceiling.precision = precision;
    ceiling.isa = u"datasheet"_s;
    ceiling.threads = cpu.cores;
    ceiling.gflops = gflops;
    ceiling.theoreticalGflops = gflops;
    ceiling.clockGhz = cpu.baseGhz;
    ceiling.flopsPerCycle = flopsPerCycle;
    ceiling.fmaPerCycle = 2.0;
    ceiling.peakBasis = cpu.source;
    return ceiling;
}

Finding note(const QString& message)
{
    return Finding{u"roofs"_s, u"note"_s, message};
}

}  // namespace

QString normalizedCpuName(QStringView name)
{
    static const QRegularExpression marks(u"\\((r|tm)\\)"_s, QRegularExpression::CaseInsensitiveOption);
    QString text = name.toString();
    text.remove(marks);
    return text.simplified().toLower();
}

bool sameCpuName(QStringView a, QStringView b)
{
    const QString left = normalizedCpuName(a);
    return !left.isEmpty() && left == normalizedCpuName(b);
}

std::optional<KnownCpu> knownCpu(QStringView cpuName)
{
    const QString name = normalizedCpuName(cpuName);
    for (const KnownCpu& cpu : table()) {
        // Whole words: "8380" must not match an 8380H, a different part.
        const QRegularExpression word(u"(^|\\W)"_s + QRegularExpression::escape(cpu.pattern) + u"($|\\W)"_s);
        if (word.match(name).hasMatch())
            return cpu;
    }
    return std::nullopt;
}

Session withKnownCpuRoofs(Session session)
{
    const QString cpuName = session.machine.cpuModel;
    const std::optional<KnownCpu> cpu = knownCpu(cpuName);
    if (!cpu) {
        session.findings.push_back(note(u"no roofs known for "_s + cpuName +
                                        u": the table of known CPUs lacks it, so its kernels are drawn without a "
                                        "roof (never against another machine's)"_s));
        return session;
    }
    session.machine.cores = cpu->cores;
    session.machine.coreName = cpu->core;
    session.machine.coreBasis = u"the table of known CPUs, by the name likwid printed"_s;
    session.computeCeilings.push_back(peak(*cpu, u"fp64"_s, cpu->fp64Gflops(), cpu->dpFlopsPerCycle));
    session.computeCeilings.push_back(peak(*cpu, u"fp32"_s, cpu->fp32Gflops(), 2.0 * cpu->dpFlopsPerCycle));
    BandwidthCeiling dram;
    dram.level = u"DRAM"_s;
    dram.mix = u"datasheet"_s;
    dram.gbps = cpu->dramGbps();
    dram.threads = cpu->cores;
    session.bandwidthCeilings.push_back(dram);
    session.findings.push_back(
        note(u"roofs of "_s + cpu->name + u" from its datasheet, not measured: one socket (" +
             QString::number(cpu->cores) + u" cores) at the base clock " + figure(cpu->baseGhz) + u" GHz, " +
             QString::number(cpu->dpFlopsPerCycle) + u" FP64 FLOPs per cycle per core (" + cpu->core + u"), DRAM " +
             QString::number(cpu->memoryChannels) + u" channels x " + QString::number(cpu->memoryMts) +
             u" MT/s x 8 B = " + figure(cpu->dramGbps()) + u" GB/s; source: " + cpu->source));
    return session;
}

}  // namespace ridgeline
