#pragma once
// Real kernels placed on the roofline: OpenBLAS gemm, elementwise add, decode (weights x batch of
// vectors) and the fused vs unfused elementwise chain. FLOPs and bytes are counted as the source text
// counts them (core/model/intensity.h).

#include "core/measure/measure_control.h"
#include "core/measure/probe.h"

#include <optional>

namespace ridgeline {

std::optional<KernelResult> measureGemm(Precision precision, int n, int threads, MeasureControl& control);
std::optional<KernelResult> measureAdd(int n, int threads, MeasureControl& control);

// One decode step of a dim x dim fp32 weight matrix on a batch of `batch` token vectors.
std::optional<KernelResult> measureDecode(int dim, int batch, int threads, MeasureControl& control);

struct FusionMeasurement {
    FusionResult summary;
    KernelResult unfused;
    KernelResult fused;
};
// Bias add, GELU and dropout over `rows` x `columns` fp32 elements, as three passes and as one.
std::optional<FusionMeasurement> measureFusion(std::int64_t rows, std::int64_t columns, int threads,
                                               MeasureControl& control);

}  // namespace ridgeline
