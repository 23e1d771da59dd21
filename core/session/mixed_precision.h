#pragma once
// The source text's "mixed precision roughly doubles matrix multiply throughput", as a session measured it:
// each bf16 matrix product beside the fp32 sgemm of the same n and thread count. The measure
// table, the talk's captions and the chart's point pairs all pair them here.

#include "core/session/session.h"

#include <vector>

namespace ridgeline {

struct MixedPrecisionPair {
    const KernelResult* bf16 = nullptr;   // kind "bf16-gemm"
    const KernelResult* sgemm = nullptr;  // kind "sgemm", same size and threads
    double speedup() const { return bf16->gflops / sgemm->gflops; }
};

// The sgemm of the same n and threads as `bf16`, measured above 0 GFLOP/s; null when there is none.
const KernelResult* sgemmBeside(const Session& session, const KernelResult& bf16);

// Every bf16 product of the session that has its sgemm, in session order.
std::vector<MixedPrecisionPair> mixedPrecisionPairs(const Session& session);
// The pairs point into the session: a temporary one would leave them dangling.
const KernelResult* sgemmBeside(const Session&& session, const KernelResult& bf16) = delete;
std::vector<MixedPrecisionPair> mixedPrecisionPairs(const Session&& session) = delete;

}  // namespace ridgeline
