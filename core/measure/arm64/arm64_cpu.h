#pragma once
// What an ARM64 CPU is, from what Linux tells a process about it: the hwcap bits of the auxiliary vector
// (getauxval(AT_HWCAP), getauxval(AT_HWCAP2)) and the "CPU implementer" / "CPU part" lines of /proc/cpuinfo,
// which on ARM64 has no "model name". Pure functions of those bits and that text, compiled on every host, so
// any ARM64 machine can be a fixture in a test; reading them from the running system is the probe's business.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// The hwcap features the measurement cares about, with the kernel's bit positions (linux/arch/arm64/include/uapi/
// asm/hwcap.h) and the names /proc/cpuinfo prints for them.
enum class Arm64Feature {
    Asimd,    // NEON (HWCAP_ASIMD)
    AsimdHp,  // NEON half precision arithmetic, FEAT_FP16 (HWCAP_ASIMDHP)
    AsimdDp,  // SDOT / UDOT, FEAT_DotProd (HWCAP_ASIMDDP)
    Sve,      // HWCAP_SVE
    Sve2,     // HWCAP2_SVE2
    Bf16,     // BFDOT, BFMMLA on NEON, FEAT_BF16 (HWCAP2_BF16)
    I8mm,     // SMMLA, UMMLA, USDOT on NEON, FEAT_I8MM (HWCAP2_I8MM)
    SveBf16,  // BFDOT, BFMMLA on SVE (HWCAP2_SVEBF16)
    SveI8mm,  // SMMLA on SVE (HWCAP2_SVEI8MM)
    Sme,      // HWCAP2_SME
};

struct Arm64Hwcaps {
    std::uint64_t hwcap = 0;
    std::uint64_t hwcap2 = 0;
    bool has(Arm64Feature feature) const;
};

// /proc/cpuinfo's name for the feature: "asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm", "svebf16",
// "svei8mm", "sme".
QString arm64FeatureName(Arm64Feature feature);

// Every feature above that the bits say this CPU has, in enum order, by /proc/cpuinfo name.
QStringList arm64FeatureNames(const Arm64Hwcaps& hwcaps);

// The bits of the features above named in a /proc/cpuinfo "Features" line (the kernel's own rendering of the
// hwcaps), so a machine described by its cpuinfo text takes the same path as a live getauxval.
Arm64Hwcaps arm64HwcapsFromFeatureNames(const QStringList& names);

// One processor's identification, MIDR_EL1 as /proc/cpuinfo prints it.
struct Arm64CpuId {
    int implementer = 0;  // 0x41 Arm, 0x61 Apple, 0xc0 Ampere, ...
    int variant = 0;
    int part = 0;  // 0xd0c Neoverse N1, 0xd4f Neoverse V2, ...
    int revision = 0;
    bool operator==(const Arm64CpuId&) const = default;
};

struct Arm64Cpuinfo {
    std::vector<Arm64CpuId> cpus;  // every processor block that names an implementer and a part, in order
    QStringList features;          // the first processor's "Features" line
    QString modelName;             // a "model name" line, which a few vendors' kernels add (Phytium); else empty
};
Arm64Cpuinfo parseArm64Cpuinfo(const QString& text);

// The fields of a MIDR_EL1 value (readable from user space where HWCAP_CPUID is set, e.g. under qemu-user,
// whose /proc/cpuinfo is the host's).
Arm64CpuId arm64CpuIdFromMidr(std::uint64_t midr);

// A core whose FMA pipes are published. FLOP/cycle = pipes x lanes of the pipe's width x 2 (an FMA is two FLOPs).
struct KnownArm64Core {
    int implementer = 0;
    int part = 0;
    QString name;        // "Neoverse V2"
    int neonPipes = 0;   // 128-bit NEON FMA pipes
    int svePipes = 0;    // SVE FMA pipes, 0 without SVE
    int sveBits = 0;     // the SVE vector length the core implements, 0 without SVE
    QString whereFound;  // the machines people meet it in: "AWS Graviton4, NVIDIA Grace"
};

// The core with this implementer and part, if the table knows it. Apple VMs and qemu's "max" CPU zero the part
// (or the implementer): those are unknown, never guessed.
std::optional<KnownArm64Core> knownArm64Core(const Arm64CpuId& id);

// "Arm", "Apple", "Ampere", ... or "implementer 0x4f".
QString arm64ImplementerName(int implementer);

// What to show as the CPU model: the kernel's "model name" if it gave one, else "Neoverse V2",
// "Apple core (part hidden by the hypervisor)", "Cavium part 0x0af (not in Ridgeline's table)"; mixed clusters
// list each kind of core once with its count, "4x Apple Icestorm (M1) + 4x Apple Firestorm (M1)".
QString arm64CpuModel(const Arm64Cpuinfo& cpuinfo);

}  // namespace ridgeline
