#include "core/measure/machine/known_cores.h"

#include "core/measure/arm64/arm64_cpu.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ridgeline {

namespace {

// ARM64 cores come from arm64_cpu's table (implementer and part); scalar FMADD uses the same pipes as NEON.
CoreModel identifyArm64Core(const QString& implementer, int part)
{
    bool ok = false;
    const Arm64CpuId id{implementer.toInt(&ok, 16), 0, part, 0};
    Arm64Cpuinfo one;
    one.cpus.push_back(id);
    CoreModel core;
    core.name = arm64CpuModel(one);
    const auto known = ok ? knownArm64Core(id) : std::nullopt;
    if (!known) {
        core.basis = QStringLiteral("CPU implementer %1, part 0x%2: not in the table of known cores")
                         .arg(implementer)
                         .arg(part, 3, 16, QLatin1Char('0'));
        return core;
    }
    core.inTable = true;
    core.basis = QStringLiteral("CPU implementer %1, part 0x%2").arg(implementer).arg(part, 3, 16, QLatin1Char('0'));
    const auto pipes = static_cast<double>(known->neonPipes);
    core.scalar = {pipes, pipes};
    core.neon = {pipes, pipes};
    if (known->svePipes > 0)
        core.sve = {static_cast<double>(known->svePipes), static_cast<double>(known->svePipes)};
    return core;
}

struct ModelRange {
    int first;
    int last;
};

struct KnownCore {
    const char* vendor;
    int family;
    std::vector<ModelRange> models;
    const char* name;
    FmaRate scalar;
    FmaRate avx2;
    FmaRate avx512;  // {0, 0}: the core has no AVX-512
};

constexpr FmaRate kOne{1.0, 1.0};
constexpr FmaRate kTwo{2.0, 2.0};
constexpr FmaRate kOneOrTwo{1.0, 2.0};
constexpr FmaRate kNone{};

const char* const kIntel = "GenuineIntel";
const char* const kAmd = "AuthenticAMD";
const char* const kHygon = "HygonGenuine";

// Family 6 model numbers are Intel's; AMD's families 17h (23), 19h (25) and 1Ah (26) split by model range.
const KnownCore kCores[] = {
    {kIntel, 6, {{0x3C, 0x3C}, {0x3F, 0x3F}, {0x45, 0x46}}, "Intel Haswell", kTwo, kTwo, kNone},
    {kIntel, 6, {{0x3D, 0x3D}, {0x47, 0x47}, {0x4F, 0x4F}, {0x56, 0x56}}, "Intel Broadwell", kTwo, kTwo, kNone},
    {kIntel,
     6,
     {{0x4E, 0x4E}, {0x5E, 0x5E}, {0x8E, 0x8E}, {0x9E, 0x9E}, {0xA5, 0xA6}},
     "Intel Skylake client (Skylake to Comet Lake)",
     kTwo,
     kTwo,
     kNone},
    // One 512-bit FMA unit on Bronze, Silver and some Gold SKUs, two on the others.
    {kIntel, 6, {{0x55, 0x55}}, "Intel Xeon Skylake-SP / Cascade Lake / Cooper Lake", kTwo, kTwo, kOneOrTwo},
    {kIntel, 6, {{0x6A, 0x6A}, {0x6C, 0x6C}}, "Intel Xeon Ice Lake-SP", kTwo, kTwo, kOneOrTwo},
    // Client cores with AVX-512 fuse ports 0 and 1 into one 512-bit FMA.
    {kIntel,
     6,
     {{0x66, 0x66}, {0x7D, 0x7E}, {0x8C, 0x8D}, {0xA7, 0xA7}},
     "Intel client core with AVX-512 (Cannon Lake to Rocket Lake)",
     kTwo,
     kTwo,
     kOne},
    {kIntel,
     6,
     {{0x8F, 0x8F}, {0xCF, 0xCF}, {0xAD, 0xAE}},
     "Intel Xeon Sapphire Rapids / Emerald Rapids / Granite Rapids",
     kTwo,
     kTwo,
     kTwo},
    // Hybrid parts: the efficient cores start one 256-bit FMA per cycle where the performance cores start two.
    {kIntel,
     6,
     {{0x97, 0x97}, {0x9A, 0x9A}, {0xB7, 0xB7}, {0xBA, 0xBA}, {0xBF, 0xBF}, {0xAA, 0xAC}, {0xBD, 0xBD}, {0xC5, 0xC6}},
     "Intel hybrid client (Alder Lake and later)",
     kTwo,
     kOneOrTwo,
     kNone},
    {kIntel,
     6,
     {{0xAF, 0xAF}, {0xDD, 0xDD}},
     "Intel Xeon with E-cores only (Sierra Forest and later)",
     kTwo,
     kOne,
     kNone},
    // Zen and Zen+ split 256-bit operations over two 128-bit FMA pipes.
    {kAmd, 0x17, {{0x00, 0x2F}, {0x50, 0x5F}}, "AMD Zen / Zen+", kTwo, kOne, kNone},
    {kHygon, 0x18, {{0x00, 0xFF}}, "Hygon Dhyana (Zen)", kTwo, kOne, kNone},
    {kAmd, 0x17, {{0x30, 0x4F}, {0x60, 0x7F}, {0x90, 0x91}, {0xA0, 0xAF}}, "AMD Zen 2", kTwo, kTwo, kNone},
    {kAmd, 0x19, {{0x00, 0x0F}, {0x20, 0x5F}}, "AMD Zen 3", kTwo, kTwo, kNone},
    // Zen 4 runs a 512-bit FMA as two 256-bit halves: one per cycle.
    {kAmd, 0x19, {{0x10, 0x1F}, {0x60, 0xAF}}, "AMD Zen 4", kTwo, kTwo, kOne},
    // Zen 5 has full 512-bit FMA pipes in servers and desktops; the Strix Point and Krackan laptop parts
    // keep 256-bit datapaths, as Zen 4 does.
    {kAmd, 0x1A, {{0x00, 0x1F}, {0x40, 0x4F}, {0x70, 0x7F}}, "AMD Zen 5", kTwo, kTwo, kTwo},
    {kAmd, 0x1A, {{0x20, 0x2F}, {0x60, 0x6F}}, "AMD Zen 5 (laptop, 256-bit datapath)", kTwo, kTwo, kOne},
};

bool matches(const KnownCore& core, const QString& vendor, int family, int model)
{
    if (vendor != QLatin1String(core.vendor) || family != core.family)
        return false;
    return std::any_of(core.models.begin(), core.models.end(),
                       [model](const ModelRange& r) { return model >= r.first && model <= r.last; });
}

QString familyModelText(int family, int model)
{
    return QStringLiteral("family %1 model %2 (%3h)").arg(family).arg(model).arg(model, 2, 16, QLatin1Char('0'));
}

CoreModel fromTable(const KnownCore& core, const QString& basis)
{
    CoreModel result;
    result.name = QString::fromLatin1(core.name);
    result.basis = basis;
    result.inTable = true;
    result.scalar = core.scalar;
    result.avx2 = core.avx2;
    result.avx512 = core.avx512;
    return result;
}

CoreModel generic(const QString& vendor, int family, int model, const QStringList& flags)
{
    CoreModel result;
    result.name = QStringLiteral("unknown x86-64 core");
    result.basis =
        QStringLiteral("%1 %2 is not in the table of known cores").arg(vendor, familyModelText(family, model));
    if (flags.contains(QLatin1String("fma")))
        result.scalar = kOneOrTwo;
    if (flags.contains(QLatin1String("avx2")))
        result.avx2 = kOneOrTwo;
    if (flags.contains(QLatin1String("avx512f")))
        result.avx512 = kOneOrTwo;
    return result;
}

}  // namespace

FmaRate CoreModel::rate(Isa isa) const
{
    switch (isa) {
        case Isa::Scalar:
            return scalar;
        case Isa::Avx2:
            return avx2;
        case Isa::Avx512:
            return avx512;
        case Isa::Neon:
            return neon;
        case Isa::Sve:
            return sve;
    }
    return {};
}

CoreModel identifyCore(const QString& vendor, int family, int model, const QStringList& flags)
{
    if (vendor.startsWith(QLatin1String("0x")))
        return identifyArm64Core(vendor, model);
    const KnownCore* byModel = nullptr;
    for (const KnownCore& core : kCores)
        if (matches(core, vendor, family, model))
            byModel = &core;
    const bool amx = flags.contains(QLatin1String("amx_tile"));
    const bool avx512 = flags.contains(QLatin1String("avx512f"));

    // AMX is only on Intel's server cores since Sapphire Rapids, which all have two 512-bit FMA units.
    // Features cannot be made up the way a VM's model number can, so they win over it.
    if (vendor == QLatin1String(kIntel) && amx) {
        static const KnownCore kAmxServer{kIntel, 6,    {},  "Intel Xeon with AMX (Sapphire Rapids or later)",
                                          kTwo,   kTwo, kTwo};
        QString basis = QStringLiteral("features: amx_tile");
        if (byModel && !byModel->avx512.known()) {
            basis += QStringLiteral("; the model number (%1) says %2, which has no AVX-512: a hypervisor's CPU model")
                         .arg(familyModelText(family, model), QString::fromLatin1(byModel->name));
        } else if (byModel && byModel->avx512.max < 2.0) {
            basis += QStringLiteral("; the model number (%1) says %2, which has no AMX: a hypervisor's CPU model")
                         .arg(familyModelText(family, model), QString::fromLatin1(byModel->name));
        }
        return fromTable(kAmxServer, basis);
    }
    if (!byModel)
        return generic(vendor, family, model, flags);

    CoreModel core = fromTable(*byModel, familyModelText(family, model));
    if (avx512 && !core.avx512.known()) {
        core.basis += QStringLiteral(
                          "; but the CPU has AVX-512, which %1 has not: the model number may be a "
                          "hypervisor's; AVX-512 FMA rate from the measurement")
                          .arg(core.name);
        core.avx512 = kOneOrTwo;
    }
    return core;
}

}  // namespace ridgeline
