#include "core/measure/arm64/arm64_kernels.h"

#include "core/measure/machine/system_facts.h"

#include <arm_neon.h>
#include <arm_sve.h>

#include <cmath>
#include <cstring>

// Sixteen independent chains: enough to cover a 4-cycle FMA latency on four pipes (Neoverse V2, Apple
// Firestorm), within NEON's and SVE's 32 vector registers. SVE vectors are sizeless (no arrays of them), so
// every chain is its own variable, declared and stepped through this list.
#define RIDGELINE_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
constexpr int kChains = 16;

namespace ridgeline {

namespace {

// bf16 bits of x, rounded to nearest even (the inputs are finite).
std::uint16_t bf16Bits(double x)
{
    const float f = static_cast<float>(x);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>(bits >> 16);
}

// x rounded to an integer and wrapped to a signed byte, as a byte register holds it.
std::int8_t s8(double x)
{
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(static_cast<long long>(std::llround(x)) & 0xFF));
}

template <typename Scalar>
void addLanes(Arm64LoopRun& run, const Scalar* lanes, int count, bool first)
{
    for (int i = 0; i < count; ++i) {
        const auto value = static_cast<double>(lanes[i]);
        if (first && i == 0)
            run.firstLane = value;
        run.laneSum += value;
    }
    run.lanes += count;
}

// Longest SVE vector the architecture allows: 2048 bits.
constexpr int kMaxSveBytes = 256;

// The body every loop shares. Before it, a loop defines RL_VEC (the accumulator type), RL_ZERO, RL_STEP(acc)
// and RL_STORE(acc) (to `lanes`), and the locals `lanes`, `lanesPerChain` and `opsPerInstruction`.
#define RL_DECL(i) RL_VEC acc##i = RL_ZERO;
#define RL_DO(i) RL_STEP(acc##i);
#define RL_SUM(i)     \
    RL_STORE(acc##i); \
    addLanes(run, lanes, lanesPerChain, (i) == 0);
#define RIDGELINE_LOOP_BODY()                                              \
    RIDGELINE_CHAINS(RL_DECL)                                              \
    for (std::int64_t it = 0; it < n; ++it) {                              \
        RIDGELINE_CHAINS(RL_DO)                                            \
    }                                                                      \
    Arm64LoopRun run;                                                      \
    RIDGELINE_CHAINS(RL_SUM)                                               \
    run.operations = opsPerInstruction * kChains * static_cast<double>(n); \
    return run;

Arm64LoopRun scalarFp64(std::int64_t n, double a, double b)
{
    double lanes[1];
    const int lanesPerChain = 1;
    const double opsPerInstruction = 2.0;
#define RL_VEC double
#define RL_ZERO 0.0
#define RL_STEP(acc) acc = __builtin_fma(a, b, acc)
#define RL_STORE(acc) lanes[0] = acc
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

Arm64LoopRun scalarFp32(std::int64_t n, double a, double b)
{
    const auto x = static_cast<float>(a);
    const auto y = static_cast<float>(b);
    float lanes[1];
    const int lanesPerChain = 1;
    const double opsPerInstruction = 2.0;
#define RL_VEC float
#define RL_ZERO 0.0f
#define RL_STEP(acc) acc = __builtin_fmaf(x, y, acc)
#define RL_STORE(acc) lanes[0] = acc
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

Arm64LoopRun neonFp64(std::int64_t n, double a, double b)
{
    const float64x2_t x = vdupq_n_f64(a);
    const float64x2_t y = vdupq_n_f64(b);
    double lanes[2];
    const int lanesPerChain = 2;
    const double opsPerInstruction = 4.0;
#define RL_VEC float64x2_t
#define RL_ZERO vdupq_n_f64(0.0)
#define RL_STEP(acc) acc = vfmaq_f64(acc, x, y)
#define RL_STORE(acc) vst1q_f64(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

Arm64LoopRun neonFp32(std::int64_t n, double a, double b)
{
    const float32x4_t x = vdupq_n_f32(static_cast<float>(a));
    const float32x4_t y = vdupq_n_f32(static_cast<float>(b));
    float lanes[4];
    const int lanesPerChain = 4;
    const double opsPerInstruction = 8.0;
#define RL_VEC float32x4_t
#define RL_ZERO vdupq_n_f32(0.0f)
#define RL_STEP(acc) acc = vfmaq_f32(acc, x, y)
#define RL_STORE(acc) vst1q_f32(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+fp16"))) Arm64LoopRun neonFp16(std::int64_t n, double a, double b)
{
    const float16x8_t x = vdupq_n_f16(static_cast<float16_t>(a));
    const float16x8_t y = vdupq_n_f16(static_cast<float16_t>(b));
    float16_t lanes[8];
    const int lanesPerChain = 8;
    const double opsPerInstruction = 16.0;
#define RL_VEC float16x8_t
#define RL_ZERO vdupq_n_f16(0)
#define RL_STEP(acc) acc = vfmaq_f16(acc, x, y)
#define RL_STORE(acc) vst1q_f16(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+bf16"))) Arm64LoopRun neonBfdot(std::int64_t n, double a, double b)
{
    const bfloat16x8_t x = vreinterpretq_bf16_u16(vdupq_n_u16(bf16Bits(a)));
    const bfloat16x8_t y = vreinterpretq_bf16_u16(vdupq_n_u16(bf16Bits(b)));
    float lanes[4];
    const int lanesPerChain = 4;
    const double opsPerInstruction = 16.0;  // 4 lanes x 2 products x 2
#define RL_VEC float32x4_t
#define RL_ZERO vdupq_n_f32(0.0f)
#define RL_STEP(acc) acc = vbfdotq_f32(acc, x, y)
#define RL_STORE(acc) vst1q_f32(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+bf16"))) Arm64LoopRun neonBfmmla(std::int64_t n, double a, double b)
{
    const bfloat16x8_t x = vreinterpretq_bf16_u16(vdupq_n_u16(bf16Bits(a)));
    const bfloat16x8_t y = vreinterpretq_bf16_u16(vdupq_n_u16(bf16Bits(b)));
    float lanes[4];
    const int lanesPerChain = 4;
    const double opsPerInstruction = 32.0;  // a 2x4 by 4x2 product into 2x2: 16 multiply-adds
#define RL_VEC float32x4_t
#define RL_ZERO vdupq_n_f32(0.0f)
#define RL_STEP(acc) acc = vbfmmlaq_f32(acc, x, y)
#define RL_STORE(acc) vst1q_f32(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+dotprod"))) Arm64LoopRun neonSdot(std::int64_t n, double a, double b)
{
    const int8x16_t x = vdupq_n_s8(s8(a));
    const int8x16_t y = vdupq_n_s8(s8(b));
    std::int32_t lanes[4];
    const int lanesPerChain = 4;
    const double opsPerInstruction = 32.0;  // 4 lanes x 4 products x 2
#define RL_VEC int32x4_t
#define RL_ZERO vdupq_n_s32(0)
#define RL_STEP(acc) acc = vdotq_s32(acc, x, y)
#define RL_STORE(acc) vst1q_s32(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+i8mm"))) Arm64LoopRun neonSmmla(std::int64_t n, double a, double b)
{
    const int8x16_t x = vdupq_n_s8(s8(a));
    const int8x16_t y = vdupq_n_s8(s8(b));
    std::int32_t lanes[4];
    const int lanesPerChain = 4;
    const double opsPerInstruction = 64.0;  // a 2x8 by 8x2 product into 2x2: 32 multiply-adds
#define RL_VEC int32x4_t
#define RL_ZERO vdupq_n_s32(0)
#define RL_STEP(acc) acc = vmmlaq_s32(acc, x, y)
#define RL_STORE(acc) vst1q_s32(lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

// SVE: the same loops at the hardware's vector length; `segments` counts its 128-bit quarters.
__attribute__((target("arch=armv8.2-a+sve"))) Arm64LoopRun sveFp64(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b64();
    const svfloat64_t x = svdup_f64(a);
    const svfloat64_t y = svdup_f64(b);
    double lanes[kMaxSveBytes / 8];
    const int lanesPerChain = static_cast<int>(svcntd());
    const double opsPerInstruction = 2.0 * lanesPerChain;
#define RL_VEC svfloat64_t
#define RL_ZERO svdup_f64(0.0)
#define RL_STEP(acc) acc = svmla_f64_x(all, acc, x, y)
#define RL_STORE(acc) svst1_f64(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve"))) Arm64LoopRun sveFp32(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b32();
    const svfloat32_t x = svdup_f32(static_cast<float>(a));
    const svfloat32_t y = svdup_f32(static_cast<float>(b));
    float lanes[kMaxSveBytes / 4];
    const int lanesPerChain = static_cast<int>(svcntw());
    const double opsPerInstruction = 2.0 * lanesPerChain;
#define RL_VEC svfloat32_t
#define RL_ZERO svdup_f32(0.0f)
#define RL_STEP(acc) acc = svmla_f32_x(all, acc, x, y)
#define RL_STORE(acc) svst1_f32(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve+fp16"))) Arm64LoopRun sveFp16(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b16();
    const svfloat16_t x = svdup_f16(static_cast<float16_t>(a));
    const svfloat16_t y = svdup_f16(static_cast<float16_t>(b));
    float16_t lanes[kMaxSveBytes / 2];
    const int lanesPerChain = static_cast<int>(svcnth());
    const double opsPerInstruction = 2.0 * lanesPerChain;
#define RL_VEC svfloat16_t
#define RL_ZERO svdup_f16(0)
#define RL_STEP(acc) acc = svmla_f16_x(all, acc, x, y)
#define RL_STORE(acc) svst1_f16(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve+bf16"))) Arm64LoopRun sveBfdot(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b32();
    const svbfloat16_t x = svreinterpret_bf16_u16(svdup_u16(bf16Bits(a)));
    const svbfloat16_t y = svreinterpret_bf16_u16(svdup_u16(bf16Bits(b)));
    float lanes[kMaxSveBytes / 4];
    const int lanesPerChain = static_cast<int>(svcntw());
    const double opsPerInstruction = 4.0 * lanesPerChain;
#define RL_VEC svfloat32_t
#define RL_ZERO svdup_f32(0.0f)
#define RL_STEP(acc) acc = svbfdot_f32(acc, x, y)
#define RL_STORE(acc) svst1_f32(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve+bf16"))) Arm64LoopRun sveBfmmla(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b32();
    const svbfloat16_t x = svreinterpret_bf16_u16(svdup_u16(bf16Bits(a)));
    const svbfloat16_t y = svreinterpret_bf16_u16(svdup_u16(bf16Bits(b)));
    float lanes[kMaxSveBytes / 4];
    const int lanesPerChain = static_cast<int>(svcntw());
    const double opsPerInstruction = 8.0 * lanesPerChain;  // per 128-bit segment: 16 multiply-adds into 4 lanes
#define RL_VEC svfloat32_t
#define RL_ZERO svdup_f32(0.0f)
#define RL_STEP(acc) acc = svbfmmla_f32(acc, x, y)
#define RL_STORE(acc) svst1_f32(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve"))) Arm64LoopRun sveSdot(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b32();
    const svint8_t x = svdup_s8(s8(a));
    const svint8_t y = svdup_s8(s8(b));
    std::int32_t lanes[kMaxSveBytes / 4];
    const int lanesPerChain = static_cast<int>(svcntw());
    const double opsPerInstruction = 8.0 * lanesPerChain;  // 4 products per lane
#define RL_VEC svint32_t
#define RL_ZERO svdup_s32(0)
#define RL_STEP(acc) acc = svdot_s32(acc, x, y)
#define RL_STORE(acc) svst1_s32(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve+i8mm"))) Arm64LoopRun sveSmmla(std::int64_t n, double a, double b)
{
    const svbool_t all = svptrue_b32();
    const svint8_t x = svdup_s8(s8(a));
    const svint8_t y = svdup_s8(s8(b));
    std::int32_t lanes[kMaxSveBytes / 4];
    const int lanesPerChain = static_cast<int>(svcntw());
    const double opsPerInstruction = 16.0 * lanesPerChain;  // per 128-bit segment: 32 multiply-adds into 4 lanes
#define RL_VEC svint32_t
#define RL_ZERO svdup_s32(0)
#define RL_STEP(acc) acc = svmmla_s32(acc, x, y)
#define RL_STORE(acc) svst1_s32(all, lanes, acc)
    RIDGELINE_LOOP_BODY()
#undef RL_VEC
#undef RL_ZERO
#undef RL_STEP
#undef RL_STORE
}

__attribute__((target("arch=armv8.2-a+sve"))) int sveBytes()
{
    return static_cast<int>(svcntb());
}

}  // namespace

const std::vector<Arm64LoopInfo>& arm64Loops()
{
    static const std::vector<Arm64LoopInfo> loops = {
        {Arm64Loop::ScalarFp64, "scalar", "fp64", "fmadd d", false},
        {Arm64Loop::ScalarFp32, "scalar", "fp32", "fmadd s", false},
        {Arm64Loop::NeonFp64, "neon", "fp64", "fmla v.2d", false},
        {Arm64Loop::NeonFp32, "neon", "fp32", "fmla v.4s", false},
        {Arm64Loop::NeonFp16, "neon", "fp16", "fmla v.8h", false},
        {Arm64Loop::NeonBfdot, "neon", "bf16", "bfdot v.4s", false},
        {Arm64Loop::NeonBfmmla, "neon", "bf16", "bfmmla v.4s", false},
        {Arm64Loop::NeonSdot, "neon", "int8", "sdot v.4s", true},
        {Arm64Loop::NeonSmmla, "neon", "int8", "smmla v.4s", true},
        {Arm64Loop::SveFp64, "sve", "fp64", "fmla z.d", false},
        {Arm64Loop::SveFp32, "sve", "fp32", "fmla z.s", false},
        {Arm64Loop::SveFp16, "sve", "fp16", "fmla z.h", false},
        {Arm64Loop::SveBfdot, "sve", "bf16", "bfdot z.s", false},
        {Arm64Loop::SveBfmmla, "sve", "bf16", "bfmmla z.s", false},
        {Arm64Loop::SveSdot, "sve", "int8", "sdot z.s", true},
        {Arm64Loop::SveSmmla, "sve", "int8", "smmla z.s", true},
    };
    return loops;
}

const Arm64LoopInfo& arm64LoopInfo(Arm64Loop loop)
{
    for (const Arm64LoopInfo& info : arm64Loops())
        if (info.loop == loop)
            return info;
    return arm64Loops().front();
}

// The hwcaps come from the system-facts seam (getauxval there). Linux sets FP and ASIMD together on every ARM64
// system, so the scalar loops need what NEON needs.
bool arm64Has(Arm64Loop loop)
{
    const Arm64Hwcaps& caps = arm64Hwcaps();
    const bool sve = caps.has(Arm64Feature::Sve);
    switch (loop) {
        case Arm64Loop::ScalarFp64:
        case Arm64Loop::ScalarFp32:
        case Arm64Loop::NeonFp64:
        case Arm64Loop::NeonFp32:
            return caps.has(Arm64Feature::Asimd);
        case Arm64Loop::NeonFp16:
            return caps.has(Arm64Feature::AsimdHp);
        case Arm64Loop::NeonBfdot:
        case Arm64Loop::NeonBfmmla:
            return caps.has(Arm64Feature::Bf16);
        case Arm64Loop::NeonSdot:
            return caps.has(Arm64Feature::AsimdDp);
        case Arm64Loop::NeonSmmla:
            return caps.has(Arm64Feature::I8mm);
        case Arm64Loop::SveFp64:
        case Arm64Loop::SveFp32:
        case Arm64Loop::SveSdot:
            return sve;
        case Arm64Loop::SveFp16:
            return sve && caps.has(Arm64Feature::AsimdHp);
        case Arm64Loop::SveBfdot:
        case Arm64Loop::SveBfmmla:
            return sve && caps.has(Arm64Feature::SveBf16);
        case Arm64Loop::SveSmmla:
            return sve && caps.has(Arm64Feature::SveI8mm);
    }
    return false;
}

int arm64SveBytes()
{
    return arm64Hwcaps().has(Arm64Feature::Sve) ? sveBytes() : 0;
}

Arm64LoopRun runArm64Loop(Arm64Loop loop, std::int64_t iterations, double a, double b)
{
    switch (loop) {
        case Arm64Loop::ScalarFp64:
            return scalarFp64(iterations, a, b);
        case Arm64Loop::ScalarFp32:
            return scalarFp32(iterations, a, b);
        case Arm64Loop::NeonFp64:
            return neonFp64(iterations, a, b);
        case Arm64Loop::NeonFp32:
            return neonFp32(iterations, a, b);
        case Arm64Loop::NeonFp16:
            return neonFp16(iterations, a, b);
        case Arm64Loop::NeonBfdot:
            return neonBfdot(iterations, a, b);
        case Arm64Loop::NeonBfmmla:
            return neonBfmmla(iterations, a, b);
        case Arm64Loop::NeonSdot:
            return neonSdot(iterations, a, b);
        case Arm64Loop::NeonSmmla:
            return neonSmmla(iterations, a, b);
        case Arm64Loop::SveFp64:
            return sveFp64(iterations, a, b);
        case Arm64Loop::SveFp32:
            return sveFp32(iterations, a, b);
        case Arm64Loop::SveFp16:
            return sveFp16(iterations, a, b);
        case Arm64Loop::SveBfdot:
            return sveBfdot(iterations, a, b);
        case Arm64Loop::SveBfmmla:
            return sveBfmmla(iterations, a, b);
        case Arm64Loop::SveSdot:
            return sveSdot(iterations, a, b);
        case Arm64Loop::SveSmmla:
            return sveSmmla(iterations, a, b);
    }
    return {};
}

}  // namespace ridgeline
