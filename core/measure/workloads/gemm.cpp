#include "core/measure/workloads/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

// Depth of call `part` of `parts`, in multiples of 16 so OpenBLAS's packing stays aligned.
int sliceBegin(int n, int parts, int part)
{
    if (part >= parts)
        return n;
    const int step = ((n / parts) / 16) * 16;
    return std::min(n, part * std::max(step, 16));
}

}  // namespace

int gemmParts(int n, double gflops, double maxCallSeconds)
{
    if (!(gflops > 0.0) || !(maxCallSeconds > 0.0))
        return 1;
    const double seconds = 2.0 * n * static_cast<double>(n) * n / (gflops * 1e9);
    const int parts = static_cast<int>(std::ceil(seconds / maxCallSeconds));
    return std::clamp(parts, 1, std::max(1, n / 64));
}

bool gemmFp32(const float* a, const float* b, float* c, int n, int parts, const std::function<bool()>& keepGoing)
{
    parts = std::max(parts, 1);
    for (int part = 0; part < parts; ++part) {
        if (part > 0 && keepGoing && !keepGoing())
            return false;
        const int k0 = sliceBegin(n, parts, part);
        const int k1 = part + 1 == parts ? n : sliceBegin(n, parts, part + 1);
        if (k1 <= k0)
            continue;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, k1 - k0, 1.0f, a + k0, n,
                    b + static_cast<std::ptrdiff_t>(k0) * n, n, part == 0 ? 0.0f : 1.0f, c, n);
    }
    return true;
}

bool gemmFp64(const double* a, const double* b, double* c, int n, int parts, const std::function<bool()>& keepGoing)
{
    parts = std::max(parts, 1);
    for (int part = 0; part < parts; ++part) {
        if (part > 0 && keepGoing && !keepGoing())
            return false;
        const int k0 = sliceBegin(n, parts, part);
        const int k1 = part + 1 == parts ? n : sliceBegin(n, parts, part + 1);
        if (k1 <= k0)
            continue;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, k1 - k0, 1.0, a + k0, n,
                    b + static_cast<std::ptrdiff_t>(k0) * n, n, part == 0 ? 0.0 : 1.0, c, n);
    }
    return true;
}

void matrixTimesBatchFp32(const float* w, const float* x, float* y, int rows, int cols, int batch)
{
    // The same gemm call for every batch, so the curve shows batching and not a change of BLAS routine.
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, batch, cols, 1.0f, w, cols, x, batch, 0.0f, y, batch);
}

}  // namespace ridgeline
