#include "core/measure/arm64/arm64_stream.h"

#include "core/measure/machine/system_facts.h"

#include <arm_neon.h>
#include <arm_sve.h>

namespace ridgeline {

namespace {

std::uint64_t readNeon(const std::uint64_t* data, std::size_t count)
{
    // Four independent accumulators of two lanes: 64 bytes per step, so the loads set the pace, not one add chain.
    uint64x2_t s0 = vdupq_n_u64(0), s1 = s0, s2 = s0, s3 = s0;
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        s0 = vaddq_u64(s0, vld1q_u64(data + i));
        s1 = vaddq_u64(s1, vld1q_u64(data + i + 2));
        s2 = vaddq_u64(s2, vld1q_u64(data + i + 4));
        s3 = vaddq_u64(s3, vld1q_u64(data + i + 6));
    }
    std::uint64_t sum = vaddvq_u64(vaddq_u64(vaddq_u64(s0, s1), vaddq_u64(s2, s3)));
    for (; i < count; ++i)
        sum += data[i];
    return sum;
}

__attribute__((target("arch=armv8.2-a+sve"))) std::uint64_t readSve(const std::uint64_t* data, std::size_t count)
{
    const std::size_t step = svcntd();
    const svbool_t all = svptrue_b64();
    svuint64_t s0 = svdup_u64(0), s1 = s0, s2 = s0, s3 = s0;
    std::size_t i = 0;
    for (; i + 4 * step <= count; i += 4 * step) {
        s0 = svadd_u64_x(all, s0, svld1_u64(all, data + i));
        s1 = svadd_u64_x(all, s1, svld1_u64(all, data + i + step));
        s2 = svadd_u64_x(all, s2, svld1_u64(all, data + i + 2 * step));
        s3 = svadd_u64_x(all, s3, svld1_u64(all, data + i + 3 * step));
    }
    for (svbool_t tail = svwhilelt_b64_u64(i, count); svptest_any(all, tail);
         i += step, tail = svwhilelt_b64_u64(i, count))
        s0 = svadd_u64_m(tail, s0, svld1_u64(tail, data + i));
    return svaddv_u64(all, svadd_u64_x(all, svadd_u64_x(all, s0, s1), svadd_u64_x(all, s2, s3)));
}

void triadNeon(double* __restrict a, const double* __restrict b, const double* __restrict c, double scalar,
               std::size_t count)
{
    const float64x2_t s = vdupq_n_f64(scalar);
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        vst1q_f64(a + i, vfmaq_f64(vld1q_f64(b + i), vld1q_f64(c + i), s));
        vst1q_f64(a + i + 2, vfmaq_f64(vld1q_f64(b + i + 2), vld1q_f64(c + i + 2), s));
    }
    for (; i < count; ++i)
        a[i] = __builtin_fma(scalar, c[i], b[i]);
}

__attribute__((target("arch=armv8.2-a+sve"))) void triadSve(double* __restrict a, const double* __restrict b,
                                                            const double* __restrict c, double scalar,
                                                            std::size_t count)
{
    const svfloat64_t s = svdup_f64(scalar);
    for (std::size_t i = 0; i < count; i += svcntd()) {
        const svbool_t pg = svwhilelt_b64_u64(i, count);
        svst1_f64(pg, a + i, svmla_f64_x(pg, svld1_f64(pg, b + i), svld1_f64(pg, c + i), s));
    }
}

void addNeon(float* __restrict c, const float* __restrict a, const float* __restrict b, std::size_t count)
{
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        vst1q_f32(c + i, vaddq_f32(vld1q_f32(a + i), vld1q_f32(b + i)));
        vst1q_f32(c + i + 4, vaddq_f32(vld1q_f32(a + i + 4), vld1q_f32(b + i + 4)));
    }
    for (; i < count; ++i)
        c[i] = a[i] + b[i];
}

__attribute__((target("arch=armv8.2-a+sve"))) void addSve(float* __restrict c, const float* __restrict a,
                                                          const float* __restrict b, std::size_t count)
{
    for (std::size_t i = 0; i < count; i += svcntw()) {
        const svbool_t pg = svwhilelt_b32_u64(i, count);
        svst1_f32(pg, c + i, svadd_f32_x(pg, svld1_f32(pg, a + i), svld1_f32(pg, b + i)));
    }
}

}  // namespace

Arm64StreamIsa arm64StreamIsa()
{
    static const Arm64StreamIsa isa = arm64Hwcaps().has(Arm64Feature::Sve) ? Arm64StreamIsa::Sve : Arm64StreamIsa::Neon;
    return isa;
}

const char* arm64StreamIsaName(Arm64StreamIsa isa)
{
    return isa == Arm64StreamIsa::Sve ? "sve" : "neon";
}

std::uint64_t arm64StreamRead(Arm64StreamIsa isa, const std::uint64_t* data, std::size_t count)
{
    return isa == Arm64StreamIsa::Sve ? readSve(data, count) : readNeon(data, count);
}

std::uint64_t arm64StreamRead(const std::uint64_t* data, std::size_t count)
{
    return arm64StreamRead(arm64StreamIsa(), data, count);
}

void arm64StreamTriad(Arm64StreamIsa isa, double* a, const double* b, const double* c, double scalar, std::size_t count)
{
    if (isa == Arm64StreamIsa::Sve)
        triadSve(a, b, c, scalar, count);
    else
        triadNeon(a, b, c, scalar, count);
}

void arm64StreamTriad(double* a, const double* b, const double* c, double scalar, std::size_t count)
{
    arm64StreamTriad(arm64StreamIsa(), a, b, c, scalar, count);
}

void arm64AddFp32(Arm64StreamIsa isa, float* c, const float* a, const float* b, std::size_t count)
{
    if (isa == Arm64StreamIsa::Sve)
        addSve(c, a, b, count);
    else
        addNeon(c, a, b, count);
}

void arm64AddFp32(float* c, const float* a, const float* b, std::size_t count)
{
    arm64AddFp32(arm64StreamIsa(), c, a, b, count);
}

}  // namespace ridgeline
