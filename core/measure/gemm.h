#pragma once
// OpenBLAS matrix products used by the kernels: square gemm and a weight matrix times a batch of vectors.

#include <functional>

namespace ridgeline {

// C = A x B for row-major n x n matrices, computed in column panels of `panelWidth` (0 = one call)
// so that a cancel request waits for one panel at most: `keepGoing` is asked between panels.
// Returns false when it was stopped part-way.
bool gemmFp32(const float* a, const float* b, float* c, int n, int panelWidth,
              const std::function<bool()>& keepGoing = {});
bool gemmFp64(const double* a, const double* b, double* c, int n, int panelWidth,
              const std::function<bool()>& keepGoing = {});

// Y (rows x batch) = W (rows x cols) x X (cols x batch), row-major, one OpenBLAS call.
void matrixTimesBatchFp32(const float* w, const float* x, float* y, int rows, int cols, int batch);

// Panel width that keeps one OpenBLAS call under about `maxFlops` floating-point operations.
int gemmPanelWidth(int n, double maxFlops);

}  // namespace ridgeline
