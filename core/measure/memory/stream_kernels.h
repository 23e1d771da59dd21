#pragma once
// Streaming kernels for bandwidth and elementwise measurements, one binary for every CPU of an architecture.
// x86-64: each is compiled for AVX-512, AVX2 and baseline x86-64 (target_clones) and the loader picks the best one
// for this CPU when the program starts. ARM64: the read, triad and add loops are arm64/arm64_stream's NEON and SVE
// ones (SVE where the hwcaps have it); the elementwise passes are plain loops that vectorise for NEON.

#include <cstddef>
#include <cstdint>

namespace ridgeline {

// Reads every element once; returns their sum so the loads cannot be optimised away.
std::uint64_t streamRead(const std::uint64_t* data, std::size_t count);

// STREAM triad: a[i] = b[i] + scalar * c[i].
void streamTriad(double* a, const double* b, const double* c, double scalar, std::size_t count);

// c[i] = a[i] + b[i], fp32.
void addFp32(float* c, const float* a, const float* b, std::size_t count);

// The elementwise chain after a linear layer, as separate passes or as one fused pass.
// bias[] is indexed by column (i % columns); dropout keeps an element when a hash of its index passes.
struct ChainParams {
    const float* bias = nullptr;
    std::size_t columns = 1;
    std::size_t firstIndex = 0;  // global index of element 0, so slices hash like the whole tensor
    float dropoutKeepScale = 1.0f / 0.9f;
    std::uint32_t dropoutThreshold = 26;  // of 256: drop ~10 %
};
void biasAddPass(float* out, const float* in, std::size_t count, const ChainParams& params);
void geluPass(float* out, const float* in, std::size_t count);
void dropoutPass(float* out, const float* in, std::size_t count, const ChainParams& params);
void fusedBiasGeluDropout(float* out, const float* in, std::size_t count, const ChainParams& params);

// The GELU used by both paths: tanh form with a rational tanh approximation that vectorises.
float geluApprox(float x);

}  // namespace ridgeline
