#pragma once
// ARM64's streaming loops for the bandwidth ceilings and elementwise kernels: NEON loads and stores,
// and SVE ones at the hardware's vector length with predicated tails. The plain entry points choose SVE where
// the hwcaps (system_facts.h) report it, else NEON; the explicit variants exist so a test can check each on any CPU
// that has it.

#include <cstddef>
#include <cstdint>

namespace ridgeline {

enum class Arm64StreamIsa { Neon, Sve };

// The variant the plain entry points use on this CPU.
Arm64StreamIsa arm64StreamIsa();
const char* arm64StreamIsaName(Arm64StreamIsa isa);  // "neon", "sve"

// Reads every element once; returns their sum (wrapping) so the loads cannot be dropped.
std::uint64_t arm64StreamRead(const std::uint64_t* data, std::size_t count);
std::uint64_t arm64StreamRead(Arm64StreamIsa isa, const std::uint64_t* data, std::size_t count);

// STREAM triad: a[i] = b[i] + scalar * c[i] (one fused multiply-add per element, as FMLA computes it).
void arm64StreamTriad(double* a, const double* b, const double* c, double scalar, std::size_t count);
void arm64StreamTriad(Arm64StreamIsa isa, double* a, const double* b, const double* c, double scalar,
                      std::size_t count);

// c[i] = a[i] + b[i], fp32.
void arm64AddFp32(float* c, const float* a, const float* b, std::size_t count);
void arm64AddFp32(Arm64StreamIsa isa, float* c, const float* a, const float* b, std::size_t count);

}  // namespace ridgeline
