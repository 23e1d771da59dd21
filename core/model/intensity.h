#pragma once
// FLOPs and bytes of the source text's operations, counted the way it counts them:
// each operand crosses the memory bus exactly once.

#include <cstdint>

namespace ridgeline {

struct OpCount {
    double flops = 0.0;
    double bytes = 0.0;
    double intensity() const { return bytes > 0.0 ? flops / bytes : 0.0; }
};

// C = A + B on n x n tensors: n^2 FLOPs; read A and B, write C.
OpCount elementwiseAddCount(std::int64_t n, int bytesPerElement);

// C = A x B on n x n matrices: 2 n^3 FLOPs; read A and B, write C.
OpCount matmulCount(std::int64_t n, int bytesPerElement);

// Y = W x X with W rows x cols and X cols x batch: 2 rows cols batch FLOPs; read W and X, write Y.
OpCount matrixTimesBatchCount(std::int64_t rows, std::int64_t cols, std::int64_t batch, int bytesPerElement);

// Traffic of `ops` elementwise operations that follow a producer (e.g. a linear layer) on the same
// tensor, in tensor-sized transfers. Unfused, the intermediate result is written and read back once
// per op: 2 x ops transfers. Fused into the producer, the result is written once.
struct FusionTraffic {
    int unfusedTransfers = 0;      // the source text's "six tensor-sized transfers" for ops = 3
    int fusedTransfers = 0;        // "written once"
    double savedFraction() const;  // share of the unfused traffic that fusion removes
    double idealSpeedup() const;   // for a memory-bound chain: unfused / fused traffic
};
FusionTraffic elementwiseChainTraffic(int ops);

}  // namespace ridgeline
