#pragma once
// Real kernels placed on the roofline: OpenBLAS gemm, elementwise add, decode (weights x batch of
// vectors) and the fused vs unfused elementwise chain. FLOPs and bytes are counted as the source text
// counts them (core/model/intensity.h).

#include "core/measure/machine/isa.h"
#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/measure_control.h"
#include "core/session/session.h"

#include <optional>

namespace ridgeline {

// One OpenBLAS call lasts at most this long, so that cancel stays prompt (<= 200 ms in all).
inline constexpr double kMaxSecondsPerBlasCall = 0.12;

// n x n gemm in as few OpenBLAS calls as keep each under kMaxSecondsPerBlasCall; `gflopsGuess` (the compute
// ceiling, say) sizes the warm-up run, whose measured rate then sizes the timed ones.
std::optional<KernelResult> measureGemm(Precision precision, int n, int threads, double gflopsGuess,
                                        MeasureControl& control);

// Elementwise fp32 adds of n x n matrices, every n up to maxN from one allocation (untouched memory costs
// nothing), filled piece by piece as the sizes grow: the fill and first touch of the largest cost more than all
// the timed runs.
class AddExperiment {
public:
    AddExperiment(int maxN, int threads);
    std::optional<KernelResult> measure(int n, MeasureControl& control);
    // GB/s of the last fill (first touch included); 0 before the first.
    double fillGbps() const;

private:
    int m_threads;
    AlignedBuffer<float> m_a;
    AlignedBuffer<float> m_b;
    AlignedBuffer<float> m_c;
    std::size_t m_filled = 0;  // elements of each array filled so far
    double m_lastFillSeconds = 0.0;
    double m_lastFillBytes = 0.0;
};

// Decode steps of a dim x dim fp32 weight matrix on batches of token vectors. The weights are allocated and
// filled once for every batch size.
class DecodeExperiment {
public:
    DecodeExperiment(int dim, int maxBatch, int threads);
    std::optional<KernelResult> measure(int batch, MeasureControl& control);

private:
    int m_dim;
    int m_threads;
    AlignedBuffer<float> m_weights;
    AlignedBuffer<float> m_inputs;
    AlignedBuffer<float> m_outputs;
};

struct FusionMeasurement {
    FusionResult summary;
    KernelResult unfused;
    KernelResult fused;
};
// Seconds per element of the fused chain's arithmetic on `threads` threads, timed in cache on one: what fusion
// costs where memory is not the limit (an emulator), for sizing it in time.
double fusionSecondsPerElement(std::int64_t columns, int threads);
// Bias add, GELU and dropout over `rows` x `columns` fp32 elements, as three passes and as one.
std::optional<FusionMeasurement> measureFusion(std::int64_t rows, std::int64_t columns, int threads,
                                               MeasureControl& control);

}  // namespace ridgeline
