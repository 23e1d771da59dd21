#include "core/measure/compute/fma_kernels.h"

#include <immintrin.h>

namespace ridgeline {

namespace {

volatile double g_sink = 0.0;

// Enough independent chains to cover FMA latency (4 cycles) x pipes (2), with margin; within the
// register file (16 registers for AVX2 and scalar, 32 for AVX-512).
constexpr int kChains256 = 12;
constexpr int kChains512 = 16;

#define RIDGELINE_FMA_KERNEL(NAME, TARGET, VEC, SET1, FMADD, ADD, TO_DOUBLE, CHAINS, FLOPS_PER_FMA)     \
    __attribute__((target(TARGET))) double NAME(std::int64_t iterations)                                \
    {                                                                                                   \
        VEC acc[CHAINS];                                                                                \
        for (int k = 0; k < CHAINS; ++k)                                                                \
            acc[k] = SET1(1.0 + 0.001 * k);                                                             \
        const VEC mul = SET1(0.999999);                                                                 \
        const VEC add = SET1(0.000001);                                                                 \
        for (std::int64_t i = 0; i < iterations; ++i) {                                                 \
            _Pragma("GCC unroll 16") for (int k = 0; k < CHAINS; ++k) acc[k] = FMADD(acc[k], mul, add); \
        }                                                                                               \
        VEC total = acc[0];                                                                             \
        for (int k = 1; k < CHAINS; ++k)                                                                \
            total = ADD(total, acc[k]);                                                                 \
        g_sink = g_sink + TO_DOUBLE(total);                                                             \
        return static_cast<double>(iterations) * CHAINS * (FLOPS_PER_FMA);                              \
    }

// Every lane of every chain reaches the sink, so none of the work can be dropped.
template <typename Scalar, int Lanes>
double sumOf(const Scalar (&lanes)[Lanes])
{
    double sum = 0.0;
    for (Scalar x : lanes)
        sum += static_cast<double>(x);
    return sum;
}
__attribute__((target("avx512f"))) double sumLanes(__m512 v)
{
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    return sumOf(t);
}
__attribute__((target("avx512f"))) double sumLanes(__m512d v)
{
    alignas(64) double t[8];
    _mm512_store_pd(t, v);
    return sumOf(t);
}
__attribute__((target("avx2"))) double sumLanes(__m256 v)
{
    alignas(32) float t[8];
    _mm256_store_ps(t, v);
    return sumOf(t);
}
__attribute__((target("avx2"))) double sumLanes(__m256d v)
{
    alignas(32) double t[4];
    _mm256_store_pd(t, v);
    return sumOf(t);
}
__attribute__((target("fma"))) double sumLanes(__m128 v)
{
    return _mm_cvtss_f32(v);
}
__attribute__((target("fma"))) double sumLanes(__m128d v)
{
    return _mm_cvtsd_f64(v);
}

__attribute__((target("fma"))) __m128 set1ss(double x)
{
    return _mm_set_ss(static_cast<float>(x));
}
__attribute__((target("fma"))) __m128d set1sd(double x)
{
    return _mm_set_sd(x);
}
__attribute__((target("avx2"))) __m256 set1ps256(double x)
{
    return _mm256_set1_ps(static_cast<float>(x));
}
__attribute__((target("avx512f"))) __m512 set1ps512(double x)
{
    return _mm512_set1_ps(static_cast<float>(x));
}

RIDGELINE_FMA_KERNEL(fmaScalarF32, "fma", __m128, set1ss, _mm_fmadd_ss, _mm_add_ss, sumLanes, kChains256, 2.0)
RIDGELINE_FMA_KERNEL(fmaScalarF64, "fma", __m128d, set1sd, _mm_fmadd_sd, _mm_add_sd, sumLanes, kChains256, 2.0)
RIDGELINE_FMA_KERNEL(fmaAvx2F32, "avx2,fma", __m256, set1ps256, _mm256_fmadd_ps, _mm256_add_ps, sumLanes, kChains256,
                     16.0)
RIDGELINE_FMA_KERNEL(fmaAvx2F64, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, sumLanes,
                     kChains256, 8.0)
RIDGELINE_FMA_KERNEL(fmaAvx512F32, "avx512f", __m512, set1ps512, _mm512_fmadd_ps, _mm512_add_ps, sumLanes, kChains512,
                     32.0)
RIDGELINE_FMA_KERNEL(fmaAvx512F64, "avx512f", __m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, sumLanes,
                     kChains512, 16.0)

#undef RIDGELINE_FMA_KERNEL

}  // namespace

double runFmaChains(Isa isa, Precision precision, std::int64_t iterations)
{
    const bool fp32 = precision == Precision::Fp32;
    switch (isa) {
        case Isa::Scalar:
            return fp32 ? fmaScalarF32(iterations) : fmaScalarF64(iterations);
        case Isa::Avx2:
            return fp32 ? fmaAvx2F32(iterations) : fmaAvx2F64(iterations);
        case Isa::Avx512:
            return fp32 ? fmaAvx512F32(iterations) : fmaAvx512F64(iterations);
        case Isa::Neon:
        case Isa::Sve:
            break;  // ARM64 ISAs: never chosen on x86-64 (fmaIsasFromFlags)
    }
    return 0.0;
}

}  // namespace ridgeline
