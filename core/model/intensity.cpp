#include "core/model/intensity.h"

namespace ridgeline {

OpCount elementwiseAddCount(std::int64_t n, int bytesPerElement)
{
    const double elements = static_cast<double>(n) * static_cast<double>(n);
    return {elements, 3.0 * elements * bytesPerElement};
}

OpCount matmulCount(std::int64_t n, int bytesPerElement)
{
    const double nd = static_cast<double>(n);
    return {2.0 * nd * nd * nd, 3.0 * nd * nd * bytesPerElement};
}

OpCount matrixTimesBatchCount(std::int64_t rows, std::int64_t cols, std::int64_t batch, int bytesPerElement)
{
    const double r = static_cast<double>(rows);
    const double c = static_cast<double>(cols);
    const double b = static_cast<double>(batch);
    return {2.0 * r * c * b, (r * c + c * b + r * b) * bytesPerElement};
}

double FusionTraffic::savedFraction() const
{
    return unfusedTransfers > 0 ? 1.0 - static_cast<double>(fusedTransfers) / unfusedTransfers : 0.0;
}

double FusionTraffic::idealSpeedup() const
{
    return fusedTransfers > 0 ? static_cast<double>(unfusedTransfers) / fusedTransfers : 0.0;
}

FusionTraffic elementwiseChainTraffic(int ops)
{
    // Each elementwise op after the producer is a separate kernel: its input was written to memory
    // and is read back, i.e. two transfers per op. Fused into the producer, only the final write is left.
    return {2 * ops, 1};
}

}  // namespace ridgeline
