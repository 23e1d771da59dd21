#pragma once
// ARM64 compute loops for the ceilings: independent chains of one instruction each, NEON at 128 bits
// and SVE at the hardware's vector length. Each loop is compiled for its own extension with a target attribute,
// so the program needs only baseline ARMv8-A and the caller runs a loop only where the kernel's hwcaps say the CPU
// has it (arm64Has(), from system_facts.h's arm64Hwcaps()).
//
// The loops compute something checkable. Every lane of every chain starts at zero and, per iteration, becomes:
//   fma (FMADD, FMLA; fp64, fp32, fp16):  acc = acc + a x b   one rounding per step, in the loop's precision
//   bfdot (BFDOT):    acc += 2 x bf16(a) x bf16(b)   fp32 lanes; two bf16 products per lane
//   bfmmla (BFMMLA):  acc += 4 x bf16(a) x bf16(b)   fp32 2x2 tiles; four products per element
//   sdot (SDOT):      acc += 4 x s8(a) x s8(b)       int32 lanes, wrapping as the instruction does
//   smmla (SMMLA):    acc += 8 x s8(a) x s8(b)       int32 2x2 tiles
// (FMLA accumulates into its destination, so the chains are acc += a x b, never a move and a multiply-add.)
// bf16(x) rounds to nearest even; s8(x) is x rounded to an integer and wrapped to a signed byte.

#include <cstdint>
#include <vector>

namespace ridgeline {

enum class Arm64Loop {
    ScalarFp64,  // FMADD d
    ScalarFp32,  // FMADD s
    NeonFp64,    // FMLA v.2d
    NeonFp32,    // FMLA v.4s
    NeonFp16,    // FMLA v.8h (FEAT_FP16)
    NeonBfdot,   // BFDOT v.4s (FEAT_BF16)
    NeonBfmmla,  // BFMMLA v.4s (FEAT_BF16)
    NeonSdot,    // SDOT v.4s (FEAT_DotProd)
    NeonSmmla,   // SMMLA v.4s (FEAT_I8MM)
    SveFp64,     // FMLA z.d
    SveFp32,     // FMLA z.s
    SveFp16,     // FMLA z.h
    SveBfdot,    // BFDOT z.s (SVE BF16)
    SveBfmmla,   // BFMMLA z.s (SVE BF16)
    SveSdot,     // SDOT z.s (SVE)
    SveSmmla,    // SMMLA z.s (SVE I8MM)
};

struct Arm64LoopInfo {
    Arm64Loop loop;
    const char* isa;          // session ISA name: "scalar", "neon" or "sve"
    const char* precision;    // "fp64", "fp32", "fp16", "bf16", "int8"
    const char* instruction;  // "fmla z.s", "bfmmla v.4s", ...
    bool integer;             // int8: operations, not FLOPs
};

const std::vector<Arm64LoopInfo>& arm64Loops();
const Arm64LoopInfo& arm64LoopInfo(Arm64Loop loop);

struct Arm64LoopRun {
    double operations = 0.0;  // multiply-adds counted as two
    int lanes = 0;            // accumulator lanes (elements) in all chains
    double firstLane = 0.0;   // final value of the first lane of the first chain
    double laneSum = 0.0;     // sum of the final values of every lane of every chain
};

// Runs `iterations` rounds of the loop on the calling thread. Only call it where arm64Has(loop) (or, for a
// described machine, the caller checked the features): an absent extension traps with SIGILL.
Arm64LoopRun runArm64Loop(Arm64Loop loop, std::int64_t iterations, double a = 0.999999, double b = 0.000001);

// Whether this CPU can run the loop (the hwcaps, system_facts.h).
bool arm64Has(Arm64Loop loop);

// Bytes of one SVE vector on this CPU (RDVL), 0 without SVE.
int arm64SveBytes();

}  // namespace ridgeline
