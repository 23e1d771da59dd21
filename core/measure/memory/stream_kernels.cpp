#include "core/measure/memory/stream_kernels.h"

#include <algorithm>

// One binary for every x86-64 CPU: the loader resolves each clone from the CPU's features.
#if defined(__x86_64__)
#define RIDGELINE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
// ARM64: the bandwidth loops are arm64_stream's NEON / SVE ones; the elementwise passes below
// vectorise for NEON as they are.
#include "core/measure/arm64/arm64_stream.h"
#define RIDGELINE_CLONES
#endif

namespace ridgeline {

namespace {

inline float tanhRational(float x)
{
    // Pade-style approximation, exact at 0 and clamped to [-1, 1]; GELU stays within 0.025 of the erf form.
    // Written as selects, not std::clamp, so the loops that call it stay branch-free and vectorise.
    const float x2 = x * x;
    const float t = x * (27.0f + x2) / (27.0f + 9.0f * x2);
    const float upper = t > 1.0f ? 1.0f : t;
    return upper < -1.0f ? -1.0f : upper;
}

inline float gelu(float x)
{
    constexpr float kSqrt2OverPi = 0.7978845608f;
    return 0.5f * x * (1.0f + tanhRational(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

// Parameters copied into locals: read through a pointer that may alias the output, they would be
// reloaded every element and the loop would not vectorise.
struct Dropout {
    std::uint32_t threshold;
    float keepScale;
    explicit Dropout(const ChainParams& p) : threshold(p.dropoutThreshold), keepScale(p.dropoutKeepScale) {}

    float operator()(float x, std::uint32_t index) const
    {
        // A counter-based hash: the same mask in every pass and every thread, without a random state.
        std::uint32_t h = index * 2654435761u;
        h ^= h >> 15;
        const float scale = (h & 0xFFu) >= threshold ? keepScale : 0.0f;
        return x * scale;
    }
};

}  // namespace

float geluApprox(float x)
{
    return gelu(x);
}

RIDGELINE_CLONES std::uint64_t streamRead(const std::uint64_t* data, std::size_t count)
{
#if !defined(__x86_64__)
    return arm64StreamRead(data, count);
#else
    // 32 running sums: four independent vector accumulators with AVX-512, so the loads, not the
    // dependency of one add chain, set the pace.
    constexpr std::size_t kLanes = 32;
    std::uint64_t lanes[kLanes] = {};
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes)
        for (std::size_t j = 0; j < kLanes; ++j)
            lanes[j] += data[i + j];
    std::uint64_t sum = 0;
    for (; i < count; ++i)
        sum += data[i];
    for (std::uint64_t lane : lanes)
        sum += lane;
    return sum;
#endif
}

RIDGELINE_CLONES void streamTriad(double* __restrict a, const double* __restrict b, const double* __restrict c,
                                  double scalar, std::size_t count)
{
#if !defined(__x86_64__)
    arm64StreamTriad(a, b, c, scalar, count);
#else
    for (std::size_t i = 0; i < count; ++i)
        a[i] = b[i] + scalar * c[i];
#endif
}

RIDGELINE_CLONES void addFp32(float* __restrict c, const float* __restrict a, const float* __restrict b,
                              std::size_t count)
{
#if !defined(__x86_64__)
    arm64AddFp32(c, a, b, count);
#else
    for (std::size_t i = 0; i < count; ++i)
        c[i] = a[i] + b[i];
#endif
}

RIDGELINE_CLONES void biasAddPass(float* out, const float* in, std::size_t count, const ChainParams& params)
{
    // Row by row, so the inner loop is contiguous and vectorises.
    std::size_t column = params.firstIndex % params.columns;
    for (std::size_t done = 0; done < count;) {
        const std::size_t span = std::min(count - done, params.columns - column);
        const float* bias = params.bias + column;
        for (std::size_t j = 0; j < span; ++j)
            out[done + j] = in[done + j] + bias[j];
        done += span;
        column = 0;
    }
}

RIDGELINE_CLONES void geluPass(float* out, const float* in, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = gelu(in[i]);
}

RIDGELINE_CLONES void dropoutPass(float* out, const float* in, std::size_t count, const ChainParams& params)
{
    const Dropout dropout(params);
    const auto base = static_cast<std::uint32_t>(params.firstIndex);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = dropout(in[i], base + static_cast<std::uint32_t>(i));
}

RIDGELINE_CLONES void fusedBiasGeluDropout(float* __restrict out, const float* __restrict in, std::size_t count,
                                           const ChainParams& params)
{
    const Dropout dropout(params);
    std::size_t column = params.firstIndex % params.columns;
    for (std::size_t done = 0; done < count;) {
        const std::size_t span = std::min(count - done, params.columns - column);
        const float* bias = params.bias + column;
        const auto base = static_cast<std::uint32_t>(params.firstIndex + done);
        for (std::size_t j = 0; j < span; ++j)
            out[done + j] = dropout(gelu(in[done + j] + bias[j]), base + static_cast<std::uint32_t>(j));
        done += span;
        column = 0;
    }
}

}  // namespace ridgeline
