#include "core/measure/lowp/lowp_kernels.h"

#include "core/measure/clock/clock_adds.h"
#include "core/measure/lowp/amx.h"
#include "core/measure/lowp/low_precision_numbers.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

// Independent accumulators per loop: enough to cover each instruction's latency (4-8 cycles) times its
// throughput (up to 2 per cycle), within the register file: 32 zmm registers for AVX-512, and the 16 ymm
// registers VEX-encoded AVX-VNNI can name.
constexpr int kChains512 = 16;
constexpr int kChainsAvxVnni = 12;

// The loops' bodies are inline assembly: exactly the instructions named, on registers, whatever the compiler
// would make of intrinsics (GCC 12 copies and spills vpdpbusd accumulators kept in an array). The accumulators
// are named locals, so they stay in registers for the whole loop; eight per statement, as GCC takes at most 30
// operands and an in-out operand counts twice.
#define RIDGELINE_STEPS_4(step) step(0) step(1) step(2) step(3)
#define RIDGELINE_STEPS_8(step) RIDGELINE_STEPS_4(step) step(4) step(5) step(6) step(7)
#define RIDGELINE_ACC_4(c, x0, x1, x2, x3) [c0] c(x0), [c1] c(x1), [c2] c(x2), [c3] c(x3)
#define RIDGELINE_ACC_8(c, x0, x1, x2, x3, x4, x5, x6, x7) \
    RIDGELINE_ACC_4(c, x0, x1, x2, x3), [c4] c(x4), [c5] c(x5), [c6] c(x6), [c7] c(x7)
// Sixteen chains of one instruction on accumulators c0..c15 and sources a, b (zmm registers).
#define RIDGELINE_CHAINS_16(step)                                              \
    asm volatile(RIDGELINE_STEPS_8(step)                                       \
                 : RIDGELINE_ACC_8("+v", c0, c1, c2, c3, c4, c5, c6, c7)       \
                 : [a] "v"(a), [b] "v"(b));                                    \
    asm volatile(RIDGELINE_STEPS_8(step)                                       \
                 : RIDGELINE_ACC_8("+v", c8, c9, c10, c11, c12, c13, c14, c15) \
                 : [a] "v"(a), [b] "v"(b))
#define RIDGELINE_BF16_STEP(k) "vdpbf16ps %[b], %[a], %[c" #k "]\n\t"             // c += a . b (bf16 pairs)
#define RIDGELINE_FP16_STEP(k) "vfmadd132ph %[a], %[b], %[c" #k "]\n\t"           // c = c x a + b
#define RIDGELINE_VNNI_STEP(k) "vpdpbusd %[b], %[a], %[c" #k "]\n\t"              // c += u8(a) . s8(b)
#define RIDGELINE_AVX_VNNI_STEP(k) "%{vex%} vpdpbusd %[b], %[a], %[c" #k "]\n\t"  // the same, VEX-encoded

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename Lane, int Chains, int Lanes>
void summarise(const Lane (&lanes)[Chains][Lanes], LowpRun& run)
{
    run.lanes = Chains * Lanes;
    run.firstLane = static_cast<double>(lanes[0][0]);
    run.laneSum = 0.0;
    for (const auto& chain : lanes)
        for (Lane value : chain)
            run.laneSum += static_cast<double>(value);
}

std::int8_t lowByte(double value)
{
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(static_cast<std::int64_t>(value) & 0xFF));
}

enum class Step512 { Bf16, Fp16, Vnni };

// Sixteen chains of one AVX-512 instruction; the registers' bits go to `out`. The asm does the arithmetic, so
// the C++ types are plain bits and the target needs only AVX-512F for the set-up.
template <Step512 kStep, bool kClockAdds>
__attribute__((target("avx512f"))) double chains512(std::int64_t iterations, __m512i a, __m512i b,
                                                    __m512i (&out)[kChains512])
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, c7 = zero;
    __m512i c8 = zero, c9 = zero, c10 = zero, c11 = zero, c12 = zero, c13 = zero, c14 = zero, c15 = zero;
    std::uint64_t counter = 0;
    const auto start = Clock::now();
    for (std::int64_t i = 0; i < iterations; ++i) {
        if constexpr (kStep == Step512::Bf16) {
            RIDGELINE_CHAINS_16(RIDGELINE_BF16_STEP);
        } else if constexpr (kStep == Step512::Fp16) {
            RIDGELINE_CHAINS_16(RIDGELINE_FP16_STEP);
        } else {
            RIDGELINE_CHAINS_16(RIDGELINE_VNNI_STEP);
        }
        if constexpr (kClockAdds)
            RIDGELINE_CLOCK_ADDS(counter);
    }
    const double seconds = secondsSince(start);
    const __m512i all[kChains512] = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15};
    std::copy(std::begin(all), std::end(all), std::begin(out));
    return seconds;
}

template <bool kClockAdds>
__attribute__((target("avx2"))) double chainsAvxVnni(std::int64_t iterations, __m256i a, __m256i b,
                                                     __m256i (&out)[kChainsAvxVnni])
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero;
    __m256i c6 = zero, c7 = zero, c8 = zero, c9 = zero, c10 = zero, c11 = zero;
    std::uint64_t counter = 0;
    const auto start = Clock::now();
    for (std::int64_t i = 0; i < iterations; ++i) {
        asm volatile(RIDGELINE_STEPS_8(RIDGELINE_AVX_VNNI_STEP)
                     : RIDGELINE_ACC_8("+x", c0, c1, c2, c3, c4, c5, c6, c7)
                     : [a] "x"(a), [b] "x"(b));
        asm volatile(RIDGELINE_STEPS_4(RIDGELINE_AVX_VNNI_STEP)
                     : RIDGELINE_ACC_4("+x", c8, c9, c10, c11)
                     : [a] "x"(a), [b] "x"(b));
        if constexpr (kClockAdds)
            RIDGELINE_CLOCK_ADDS(counter);
    }
    const double seconds = secondsSince(start);
    const __m256i all[kChainsAvxVnni] = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11};
    std::copy(std::begin(all), std::end(all), std::begin(out));
    return seconds;
}

template <Step512 kStep>
__attribute__((target("avx512f"))) double run512(std::int64_t iterations, __m512i a, __m512i b, bool clockAdds,
                                                 __m512i (&out)[kChains512])
{
    return clockAdds ? chains512<kStep, true>(iterations, a, b, out) : chains512<kStep, false>(iterations, a, b, out);
}

__attribute__((target("avx512f"))) LowpRun bf16Chains(std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const __m512i a = _mm512_set1_epi16(static_cast<short>(bf16FromFloat(static_cast<float>(inputs.a))));
    const __m512i b = _mm512_set1_epi16(static_cast<short>(bf16FromFloat(static_cast<float>(inputs.b))));
    __m512i registers[kChains512];
    LowpRun run;
    run.seconds = run512<Step512::Bf16>(iterations, a, b, clockAdds, registers);
    alignas(64) float lanes[kChains512][16];  // fp32 accumulators
    for (int k = 0; k < kChains512; ++k)
        _mm512_store_si512(lanes[k], registers[k]);
    summarise(lanes, run);
    return run;
}

__attribute__((target("avx512f"))) LowpRun fp16Chains(std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const __m512i a = _mm512_set1_epi16(static_cast<short>(fp16FromDouble(inputs.a)));
    const __m512i b = _mm512_set1_epi16(static_cast<short>(fp16FromDouble(inputs.b)));
    __m512i registers[kChains512];
    LowpRun run;
    run.seconds = run512<Step512::Fp16>(iterations, a, b, clockAdds, registers);
    alignas(64) std::uint16_t bits[kChains512][32];  // fp16 accumulators
    for (int k = 0; k < kChains512; ++k)
        _mm512_store_si512(bits[k], registers[k]);
    double lanes[kChains512][32];
    for (int k = 0; k < kChains512; ++k)
        for (int j = 0; j < 32; ++j)
            lanes[k][j] = doubleFromFp16(bits[k][j]);
    summarise(lanes, run);
    return run;
}

__attribute__((target("avx512f"))) LowpRun vnni512Chains(std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const __m512i a = _mm512_set1_epi8(lowByte(inputs.a));  // read as unsigned bytes
    const __m512i b = _mm512_set1_epi8(lowByte(inputs.b));  // read as signed bytes
    __m512i registers[kChains512];
    LowpRun run;
    run.seconds = run512<Step512::Vnni>(iterations, a, b, clockAdds, registers);
    alignas(64) std::int32_t lanes[kChains512][16];  // int32 accumulators
    for (int k = 0; k < kChains512; ++k)
        _mm512_store_si512(lanes[k], registers[k]);
    summarise(lanes, run);
    return run;
}

__attribute__((target("avx2"))) LowpRun avxVnniChains(std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const __m256i a = _mm256_set1_epi8(lowByte(inputs.a));
    const __m256i b = _mm256_set1_epi8(lowByte(inputs.b));
    __m256i registers[kChainsAvxVnni];
    LowpRun run;
    run.seconds = clockAdds ? chainsAvxVnni<true>(iterations, a, b, registers)
                            : chainsAvxVnni<false>(iterations, a, b, registers);
    alignas(32) std::int32_t lanes[kChainsAvxVnni][8];
    for (int k = 0; k < kChainsAvxVnni; ++k)
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[k]), registers[k]);
    summarise(lanes, run);
    return run;
}

// The unit's loop, with or without the clock's adds. The caller has checked the unit.
LowpRun runLoop(LowpUnit unit, std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const double instructionsPerIteration = unit == LowpUnit::AvxVnni ? kChainsAvxVnni : kChains512;
    LowpRun run;
    switch (unit) {
        case LowpUnit::Avx512Bf16:
            run = bf16Chains(iterations, inputs, clockAdds);
            break;
        case LowpUnit::Avx512Fp16:
            run = fp16Chains(iterations, inputs, clockAdds);
            break;
        case LowpUnit::Avx512Vnni:
            run = vnni512Chains(iterations, inputs, clockAdds);
            break;
        case LowpUnit::AvxVnni:
            run = avxVnniChains(iterations, inputs, clockAdds);
            break;
        case LowpUnit::AmxBf16:
        case LowpUnit::AmxInt8:
            return runAmxLoop(unit, iterations, inputs, clockAdds);
        default:
            return run;  // an ARM64 unit: lowpAvailability refuses it in this build
    }
    run.operations = static_cast<double>(iterations) * instructionsPerIteration * lowpUnitInfo(unit).opsPerInstruction;
    return run;
}

}  // namespace

UnitAvailability lowpAvailability(LowpUnit unit, const MachineInfo& machine)
{
    const UnitAvailability described = unitAvailability(unit, machine);
    if (!described.available())
        return described;
    if (lowpUnitInfo(unit).arch != CpuArch::X86_64)
        return {UnitState::NotOnThisCpu,
                QStringLiteral("%1 is an ARM64 unit; this is an x86-64 build").arg(lowpUnitInfo(unit).label)};
    const UnitAvailability here = unitAvailability(unit, hostMachine());
    if (!here.available())
        return here;
    if (unit == LowpUnit::AmxBf16 || unit == LowpUnit::AmxInt8)
        return amxAvailability(unit, hostMachine(), requestAmxTileData());  // asked only when the CPU has tiles
    return here;
}

Result<LowpRun> runLowpKernel(LowpUnit unit, std::int64_t iterations, LowpInputs inputs, const MachineInfo& machine)
{
    const UnitAvailability availability = lowpAvailability(unit, machine);
    if (!availability.available())
        return makeError(Error::Code::Unsupported, availability.reason);
    return runLoop(unit, std::max<std::int64_t>(iterations, 0), inputs, false);
}

Result<double> measureClockUnderLoad(LowpUnit unit, double seconds, const MachineInfo& machine)
{
    const UnitAvailability availability = lowpAvailability(unit, machine);
    if (!availability.available())
        return makeError(Error::Code::Unsupported, availability.reason);
    // Windows of about half a millisecond. The unit runs for a few milliseconds first, so the core has settled
    // into the unit's frequency licence; then the fastest window is the clock, as for the FMA ceilings (clock.cpp's
    // ChainTimer): anything that disturbs a window (an interrupt, a host's other guest, the adds losing a cycle to
    // the unit's instructions now and then) only makes it read low, and the ceiling it is held against is the best
    // repetition too. A median window reads a few per cent below the core's clock and lets a ceiling pass its peak.
    std::int64_t iterations = 16;
    while (runLoop(unit, iterations, {}, true).seconds < 0.0005 && iterations < (1LL << 30))
        iterations *= 2;
    runLoop(unit, iterations * 8, {}, true);
    std::vector<double> windows;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    do {
        const LowpRun window = runLoop(unit, iterations, {}, true);
        if (window.seconds > 0.0)
            windows.push_back(static_cast<double>(iterations) * kClockAddsPerIteration / window.seconds / 1e9);
    } while (Clock::now() < deadline || windows.size() < 5);
    return *std::max_element(windows.begin(), windows.end());
}

}  // namespace ridgeline
