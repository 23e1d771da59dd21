#pragma once
// OpenBLAS matrix products used by the kernels: square gemm and a weight matrix times a batch of vectors.

#include <functional>

namespace ridgeline {

// C = A x B for row-major n x n matrices in `parts` OpenBLAS calls (1 = one plain call), so that a cancel
// request waits for one call at most: `keepGoing` is asked between calls. The cut is along the shared
// dimension: each call is C += A[:, slice] x B[slice, :], a full n x n product of depth n / parts, which
// OpenBLAS runs as fast as one call (skinny column panels were up to 37 % slower).
// Returns false when it was stopped part-way.
bool gemmFp32(const float* a, const float* b, float* c, int n, int parts, const std::function<bool()>& keepGoing = {});
bool gemmFp64(const double* a, const double* b, double* c, int n, int parts,
              const std::function<bool()>& keepGoing = {});

// Y (rows x batch) = W (rows x cols) x X (cols x batch), row-major, one OpenBLAS call.
void matrixTimesBatchFp32(const float* w, const float* x, float* y, int rows, int cols, int batch);

// Calls needed so that one lasts at most `maxCallSeconds` at `gflops` (>= 1; at most n / 64).
int gemmParts(int n, double gflops, double maxCallSeconds);

}  // namespace ridgeline
