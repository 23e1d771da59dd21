#pragma once
// The vocabulary of compute ceilings: instruction sets, precisions and how many FLOPs one FMA instruction
// does. One home for these rules, so that new ISAs (bf16, AMX, NEON, SVE) are one entry more.

#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline {

enum class CpuArch { X86_64, Arm64 };
enum class Isa { Scalar, Avx2, Avx512, Neon, Sve };
enum class Precision { Fp32, Fp64 };

QString isaName(Isa isa);
QString precisionName(Precision precision);
int bytesPerElement(Precision precision);

// Register width the ISA's FMA instructions use, in bits (scalar: one element; SVE: this CPU's vector length).
int vectorBits(Isa isa, Precision precision);
// FLOPs of one FMA instruction of this ISA and precision: lanes x 2 (a multiply and an add).
double flopsPerFma(Isa isa, Precision precision);

// ISAs whose FMA kernels a CPU with these feature flags (Linux /proc/cpuinfo names) can run, narrowest
// first. The flags are the operating system's view, so a feature the kernel has not enabled is absent.
// ARM64: "asimd" gives scalar FMADD and NEON, "sve" SVE.
std::vector<Isa> fmaIsasFromFlags(const QStringList& flags);

// The SVE vector length of the CPU this runs on, in bits; 0 without SVE or off ARM64.
int sveVectorBits();

}  // namespace ridgeline
