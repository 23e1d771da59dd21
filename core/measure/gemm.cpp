#include "core/measure/gemm.h"

#include <cblas.h>

#include <algorithm>

namespace ridgeline {

int gemmPanelWidth(int n, double maxFlops)
{
    const double perColumn = 2.0 * n * static_cast<double>(n);
    const int width = static_cast<int>(maxFlops / perColumn);
    if (width >= n)
        return 0;
    return std::max(64, (width / 64) * 64);
}

bool gemmFp32(const float* a, const float* b, float* c, int n, int panelWidth, const std::function<bool()>& keepGoing)
{
    const int width = panelWidth > 0 ? panelWidth : n;
    for (int col = 0; col < n; col += width) {
        if (col > 0 && keepGoing && !keepGoing())
            return false;
        const int w = std::min(width, n - col);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, w, n, 1.0f, a, n, b + col, n, 0.0f, c + col, n);
    }
    return true;
}

bool gemmFp64(const double* a, const double* b, double* c, int n, int panelWidth,
              const std::function<bool()>& keepGoing)
{
    const int width = panelWidth > 0 ? panelWidth : n;
    for (int col = 0; col < n; col += width) {
        if (col > 0 && keepGoing && !keepGoing())
            return false;
        const int w = std::min(width, n - col);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, w, n, 1.0, a, n, b + col, n, 0.0, c + col, n);
    }
    return true;
}

void matrixTimesBatchFp32(const float* w, const float* x, float* y, int rows, int cols, int batch)
{
    // The same gemm call for every batch, so the curve shows batching and not a change of BLAS routine.
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, batch, cols, 1.0f, w, cols, x, batch, 0.0f, y, batch);
}

}  // namespace ridgeline
