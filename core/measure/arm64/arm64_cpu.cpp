#include "core/measure/arm64/arm64_cpu.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <utility>

namespace ridgeline {

namespace {

struct FeatureBit {
    Arm64Feature feature;
    bool second;  // AT_HWCAP2 rather than AT_HWCAP
    int bit;
    const char* name;
};

// Bit positions from the kernel's uapi header; they never move once released.
constexpr std::array<FeatureBit, 10> kFeatureBits = {{
    {Arm64Feature::Asimd, false, 1, "asimd"},
    {Arm64Feature::AsimdHp, false, 10, "asimdhp"},
    {Arm64Feature::AsimdDp, false, 20, "asimddp"},
    {Arm64Feature::Sve, false, 22, "sve"},
    {Arm64Feature::Sve2, true, 1, "sve2"},
    {Arm64Feature::Bf16, true, 14, "bf16"},
    {Arm64Feature::I8mm, true, 13, "i8mm"},
    {Arm64Feature::SveBf16, true, 12, "svebf16"},
    {Arm64Feature::SveI8mm, true, 9, "svei8mm"},
    {Arm64Feature::Sme, true, 23, "sme"},
}};

const FeatureBit& bitOf(Arm64Feature feature)
{
    for (const FeatureBit& entry : kFeatureBits)
        if (entry.feature == feature)
            return entry;
    return kFeatureBits[0];
}

// Cores whose FMA pipes are published; tests/data/README.md (ARM64 machines) names the sources.
// Cores not listed are measured all the same; only the cross-check against a published pipe count is missing.
const std::vector<KnownArm64Core>& knownCores()
{
    static const std::vector<KnownArm64Core> cores = {
        {0x41, 0xd08, QStringLiteral("Cortex-A72"), 2, 0, 0, QStringLiteral("AWS Graviton (1st gen.), Raspberry Pi 4")},
        {0x41, 0xd0b, QStringLiteral("Cortex-A76"), 2, 0, 0, QStringLiteral("Raspberry Pi 5, phones")},
        {0x41, 0xd0c, QStringLiteral("Neoverse N1"), 2, 0, 0, QStringLiteral("AWS Graviton2, Ampere Altra")},
        {0x41, 0xd40, QStringLiteral("Neoverse V1"), 4, 2, 256, QStringLiteral("AWS Graviton3")},
        {0x41, 0xd49, QStringLiteral("Neoverse N2"), 2, 2, 128, QStringLiteral("Azure Cobalt 100")},
        {0x41, 0xd4f, QStringLiteral("Neoverse V2"), 4, 4, 128, QStringLiteral("NVIDIA Grace, AWS Graviton4")},
        {0x41, 0xd84, QStringLiteral("Neoverse V3"), 4, 4, 128, QString()},
        {0x41, 0xd8e, QStringLiteral("Neoverse N3"), 2, 2, 128, QString()},
        {0x41, 0xd44, QStringLiteral("Cortex-X1"), 4, 0, 0, QString()},
        {0x41, 0xd4e, QStringLiteral("Cortex-X3"), 4, 0, 0, QString()},
        {0x46, 0x001, QStringLiteral("A64FX"), 2, 2, 512, QStringLiteral("Fujitsu FX1000, Fugaku")},
        {0x61, 0x023, QStringLiteral("Apple Firestorm (M1)"), 4, 0, 0, QStringLiteral("Apple M1")},
        {0x61, 0x025, QStringLiteral("Apple Firestorm (M1 Pro)"), 4, 0, 0, QStringLiteral("Apple M1 Pro")},
        {0x61, 0x029, QStringLiteral("Apple Firestorm (M1 Max)"), 4, 0, 0, QStringLiteral("Apple M1 Max")},
        {0x61, 0x033, QStringLiteral("Apple Avalanche (M2)"), 4, 0, 0, QStringLiteral("Apple M2")},
        {0x61, 0x035, QStringLiteral("Apple Avalanche (M2 Pro)"), 4, 0, 0, QStringLiteral("Apple M2 Pro")},
        {0x61, 0x039, QStringLiteral("Apple Avalanche (M2 Max)"), 4, 0, 0, QStringLiteral("Apple M2 Max")},
        {0x61, 0x049, QStringLiteral("Apple Everest (M3)"), 4, 0, 0, QStringLiteral("Apple M3")},
        {0x61, 0x053, QStringLiteral("Apple Everest (M4)"), 4, 0, 0, QStringLiteral("Apple M4")},
    };
    return cores;
}

// Names of cores Ridgeline knows but has no pipe count for (efficiency cores): named, not used for peaks.
QString namedOnly(const Arm64CpuId& id)
{
    static const std::array<std::pair<int, const char*>, 8> apple = {{
        {0x022, "Apple Icestorm (M1)"},
        {0x024, "Apple Icestorm (M1 Pro)"},
        {0x028, "Apple Icestorm (M1 Max)"},
        {0x032, "Apple Blizzard (M2)"},
        {0x034, "Apple Blizzard (M2 Pro)"},
        {0x038, "Apple Blizzard (M2 Max)"},
        {0x048, "Apple Sawtooth (M3)"},
        {0x052, "Apple Sawtooth (M4)"},
    }};
    static const std::array<std::pair<int, const char*>, 3> arm = {{
        {0xd03, "Cortex-A53"},
        {0xd05, "Cortex-A55"},
        {0xd07, "Cortex-A57"},
    }};
    if (id.implementer == 0x61)
        for (const auto& [part, name] : apple)
            if (part == id.part)
                return QString::fromLatin1(name);
    if (id.implementer == 0x41)
        for (const auto& [part, name] : arm)
            if (part == id.part)
                return QString::fromLatin1(name);
    return {};
}

QString hex(int value, int digits)
{
    return QStringLiteral("0x%1").arg(value, digits, 16, QLatin1Char('0'));
}

QString coreName(const Arm64CpuId& id)
{
    if (const auto known = knownArm64Core(id))
        return known->name;
    if (const QString named = namedOnly(id); !named.isEmpty())
        return named;
    if (id.implementer == 0)
        return QStringLiteral("unnamed core (implementer 0: an emulator or a hypervisor hides it)");
    if (id.part == 0)
        return arm64ImplementerName(id.implementer) + QStringLiteral(" core (part hidden by the hypervisor)");
    return arm64ImplementerName(id.implementer) + QStringLiteral(" part ") + hex(id.part, 3) +
           QStringLiteral(" (not in Ridgeline's table)");
}

}  // namespace

bool Arm64Hwcaps::has(Arm64Feature feature) const
{
    const FeatureBit& entry = bitOf(feature);
    const std::uint64_t word = entry.second ? hwcap2 : hwcap;
    return ((word >> entry.bit) & 1U) != 0;
}

QString arm64FeatureName(Arm64Feature feature)
{
    return QString::fromLatin1(bitOf(feature).name);
}

QStringList arm64FeatureNames(const Arm64Hwcaps& hwcaps)
{
    QStringList names;
    for (const FeatureBit& entry : kFeatureBits)
        if (hwcaps.has(entry.feature))
            names.append(QString::fromLatin1(entry.name));
    return names;
}

Arm64Hwcaps arm64HwcapsFromFeatureNames(const QStringList& names)
{
    Arm64Hwcaps hwcaps;
    for (const FeatureBit& entry : kFeatureBits) {
        if (!names.contains(QLatin1String(entry.name)))
            continue;
        std::uint64_t& word = entry.second ? hwcaps.hwcap2 : hwcaps.hwcap;
        word |= std::uint64_t{1} << entry.bit;
    }
    return hwcaps;
}

Arm64Cpuinfo parseArm64Cpuinfo(const QString& text)
{
    // "CPU implementer\t: 0x41", "CPU part\t: 0xd0c": hexadecimal, or decimal for variant and revision.
    static const QRegularExpression field(QStringLiteral("^CPU (implementer|variant|part|revision)\\s*:\\s*(\\S+)"));
    static const QRegularExpression named(QStringLiteral("^(Features|model name)\\s*:\\s*(.*)$"));
    Arm64Cpuinfo info;
    std::vector<Arm64CpuId>& cpus = info.cpus;
    Arm64CpuId current;
    bool hasImplementer = false;
    bool hasPart = false;
    auto finish = [&] {
        if (hasImplementer && hasPart)
            cpus.push_back(current);
        current = {};
        hasImplementer = hasPart = false;
    };
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty()) {
            finish();
            continue;
        }
        if (const auto entry = named.match(line); entry.hasMatch()) {
            const QString value = entry.captured(2).trimmed();
            if (entry.captured(1) == QLatin1String("Features") && info.features.isEmpty())
                info.features = value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            else if (entry.captured(1) == QLatin1String("model name") && info.modelName.isEmpty())
                info.modelName = value;
            continue;
        }
        const auto match = field.match(line);
        if (!match.hasMatch())
            continue;
        bool ok = false;
        const int value = match.captured(2).toInt(&ok, 0);
        if (!ok)
            continue;
        const QString key = match.captured(1);
        if (key == QLatin1String("implementer")) {
            current.implementer = value;
            hasImplementer = true;
        } else if (key == QLatin1String("part")) {
            current.part = value;
            hasPart = true;
        } else if (key == QLatin1String("variant")) {
            current.variant = value;
        } else {
            current.revision = value;
        }
    }
    finish();
    return info;
}

Arm64CpuId arm64CpuIdFromMidr(std::uint64_t midr)
{
    Arm64CpuId id;
    id.implementer = static_cast<int>((midr >> 24) & 0xFF);
    id.variant = static_cast<int>((midr >> 20) & 0xF);
    id.part = static_cast<int>((midr >> 4) & 0xFFF);
    id.revision = static_cast<int>(midr & 0xF);
    return id;
}

std::optional<KnownArm64Core> knownArm64Core(const Arm64CpuId& id)
{
    for (const KnownArm64Core& core : knownCores())
        if (core.implementer == id.implementer && core.part == id.part)
            return core;
    return std::nullopt;
}

QString arm64ImplementerName(int implementer)
{
    static const std::array<std::pair<int, const char*>, 11> names = {{
        {0x41, "Arm"},
        {0x42, "Broadcom"},
        {0x43, "Cavium"},
        {0x46, "Fujitsu"},
        {0x48, "HiSilicon"},
        {0x4e, "NVIDIA"},
        {0x50, "Applied Micro"},
        {0x51, "Qualcomm"},
        {0x61, "Apple"},
        {0x6d, "Microsoft"},
        {0xc0, "Ampere"},
    }};
    for (const auto& [code, name] : names)
        if (code == implementer)
            return QString::fromLatin1(name);
    return QStringLiteral("implementer ") + hex(implementer, 2);
}

QString arm64CpuModel(const Arm64Cpuinfo& cpuinfo)
{
    if (!cpuinfo.modelName.isEmpty())
        return cpuinfo.modelName;
    // Each kind of core once, in order of first appearance, with its count when there is more than one kind.
    std::vector<std::pair<QString, int>> kinds;
    for (const Arm64CpuId& id : cpuinfo.cpus) {
        const QString name = coreName(id);
        auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& kind) { return kind.first == name; });
        if (it == kinds.end())
            kinds.emplace_back(name, 1);
        else
            ++it->second;
    }
    if (kinds.empty())
        return QStringLiteral("ARM64 core (not identified)");
    if (kinds.size() == 1)
        return kinds.front().first;
    QStringList parts;
    for (const auto& [name, count] : kinds)
        parts.append(QStringLiteral("%1x %2").arg(count).arg(name));
    return parts.join(QStringLiteral(" + "));
}

}  // namespace ridgeline
