#pragma once
// The low-precision experiments of a measurement (issue 16): what this machine can run, the bf16 matrix
// product beside sgemm of the same n, and the decode step with bf16 and int8 weights. The engine runs them as
// steps; each function here is one step.

#include "core/measure/lowp_units.h"
#include "core/measure/measure_control.h"
#include "core/measure/onednn_matmul.h"
#include "core/session/session.h"

#include <memory>
#include <optional>
#include <vector>

namespace ridgeline {

struct LowpPlan {
    std::vector<LowpUnit> units;             // the units to measure a ceiling of, in table order
    std::vector<SkippedExperiment> skipped;  // the others, each with its reason
};
// From the machine's flags (and, live, this processor and the kernel's AMX permission).
LowpPlan planLowpCeilings(const MachineInfo& machine);

// Kernel kinds and names: "bf16-gemm" ("bf16 gemm 2048"), "decode-bf16" / "decode-int8" ("decode bf16 B=16").
// Their own kinds, so that the views reading "decode" as the fp32 batching series are not mixed with them.
QString lowpDecodeKind(MatmulType weights);

// n x n bf16 x bf16 -> fp32 product from oneDNN, in row panels that each take at most kMaxSecondsPerBlasCall
// at `gflopsGuess` (the bf16 ceiling), so a cancel stays prompt.
std::optional<KernelResult> measureBf16Gemm(int n, int threads, double gflopsGuess, MeasureControl& control);

// Decode steps of a dim x dim weight matrix in bf16 or int8 (activations in the same type, fp32 results) on
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
