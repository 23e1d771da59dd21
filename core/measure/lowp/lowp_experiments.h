#pragma once
// The low-precision experiments of a measurement: the bf16 matrix product beside sgemm of the same n,
// and the decode step with bf16 and int8 weights, through oneDNN. The engine runs them as steps; each function here
// is one step. Which units a machine has a ceiling of is lowp_ceilings.h's planLowpCeilings.

#include "core/measure/lowp/lowp_units.h"
#include "core/measure/lowp/onednn_matmul.h"
#include "core/measure/run/measure_control.h"
#include "core/session/session.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ridgeline {

// Kernel kinds and names: "bf16-gemm" ("bf16 gemm 2048"), "decode-fp32" / "decode-bf16" / "decode-int8"
// ("decode bf16 B=16"). Their own kinds, so that the views reading "decode" (OpenBLAS, the fp32 batching series)
// are not mixed with them.
QString lowpDecodeKind(MatmulType weights);

// The d of the decode series by weight precision. fp32, bf16 and int8 weights all go through oneDNN at one d,
// so that only the weights' type differs; d starts at the fp32 decode's and doubles while the int8 weights
// (d^2 bytes) are smaller than a DRAM working set of this machine: a cache would serve them, and the low
// precisions' figures would be the cache's. The fp32 weights twice (oneDNN packs its own copy) and a batch of
// kDecodeMaxBatch vectors stay within the memory budget, and d within kMaxLowpDecodeDim (fp32 weights of
// 256 MiB; 34 GFLOP a step at batch 256); a note says when the int8 weights stay below the DRAM working set.
inline constexpr int kMaxLowpDecodeDim = 8192;
struct LowpDecodeSize {
    int dim = 0;  // 0: does not fit the memory budget at the fp32 decode's d
    std::optional<Finding> note;
};
// `fitsTime(d)`, when given, says whether the series at d fits the run's time; d doubles only while it does.
LowpDecodeSize lowpDecodeSize(int decodeDim, std::int64_t dramBytes, std::int64_t memoryBudget, int maxBatch,
                              const std::function<bool(int)>& fitsTime = {});

// n x n bf16 x bf16 -> fp32 product from oneDNN, in row panels that each take at most kMaxSecondsPerBlasCall
// at `gflopsGuess` (the bf16 ceiling), so a cancel stays prompt.
std::optional<KernelResult> measureBf16Gemm(int n, int threads, double gflopsGuess, MeasureControl& control);

// Decode steps of a dim x dim weight matrix in fp32, bf16 or int8 (activations in the same type, fp32 results) on
// batches of token vectors; the weights are converted and packed once for every batch size.
class LowpDecodeExperiment {
public:
    LowpDecodeExperiment(MatmulType weights, int dim, int threads);
    std::optional<KernelResult> measure(int batch, MeasureControl& control);

private:
    MatmulType m_type;
    int m_dim;
    int m_threads;
    MatmulOperand m_weights;
    std::unique_ptr<OneDnnMatmul> m_first;  // the first batch's product, whose packed weights the others share
};

// The decode batches of the low-precision series: all of fp32's (1, 2, 4 ... 256), or on a quick run every
// other one (1, 4, 16, 64, 256), enough to see the knee move.
std::vector<int> lowpDecodeBatches(bool quick, int maxBatch);

// OpenBLAS's idle workers spin for about 0.1 s after a call (THREAD_TIMEOUT, 2^28 cycles) before they sleep;
// on a machine with few cores, oneDNN's OpenMP workers running then lose up to half their time to them. The
// engine waits this long when it turns from OpenBLAS to oneDNN.
inline constexpr double kBlasWorkersSpinSeconds = 0.12;
void waitForIdleBlasWorkers();

}  // namespace ridgeline
