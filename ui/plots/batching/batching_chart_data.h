#pragma once
// What the batching explorer's charts draw: plain value structs, filled by the panel's computation
// (ui/plots/batching/batching_scenario.h) and handed whole to each chart. No widgets here.

#include "core/model/llm/llm_model.h"
#include "core/model/roofline.h"

#include <QPointF>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline::ui {

// The decode step at one batch size (one GPU's share when tensor-parallel, tokens/s for all of them).
struct BatchSample {
    std::int64_t batch = 1;
    double tokensPerSecond = 0.0;  // aggregate over the batch
    double stepSeconds = 0.0;
    double intensity = 0.0;       // FLOP/byte of the whole step
    double achievedTflops = 0.0;  // per GPU: FLOPs / step time
    bool fits = true;             // weights + KV of this batch fit in the card(s)
};

// Tokens/s and time per step against batch at one context.
struct ThroughputData {
    std::vector<BatchSample> curve;  // ascending batch, 1 .. maxShownBatch
    std::int64_t maxShownBatch = 4096;
    std::int64_t context = 1;  // tokens of context each sequence attends to
    std::int64_t batch = 1;    // the current batch, marked
    double tokensPerSecond = 0.0;
    double stepSeconds = 0.0;
    std::optional<std::int64_t> kneeBatch;  // smallest compute-bound batch (nullopt: never at this context)
    std::int64_t maxFittingBatch = 0;       // largest batch that fits; 0 = not even one sequence
};

// One kernel of the decode step (a weight GEMM group, attention over the KV cache) as a point on the roofline: its
// FLOPs over the bytes it reads, and the rate the model gives it (its FLOPs over its time), per GPU.
struct OperatorPoint {
    QString name;  // as `ridgeline model --json` lists it under "operators"
    double intensity = 0.0;
    double tflops = 0.0;
    double share = 0.0;  // of the step's time
};

// The decode step as a point on one GPU's roofline, TFLOP/s against FLOP/byte.
struct DecodeRooflineData {
    QString gpuName;                      // "NVIDIA A100 40GB SXM4"
    QString precision;                    // arithmetic format: "bf16"
    Roof effective;                       // GFLOP/s and GB/s with the efficiency factors (the roof the model uses)
    std::optional<Roof> datasheet;        // the datasheet roof, when it differs from the effective one
    std::vector<BatchSample> trajectory;  // ascending batch
    BatchSample current;
    Bound bound = Bound::Memory;
    bool hasAttention = false;
    double attentionIntensity = 0.0;  // the attention alone: its FLOPs over the KV bytes it reads
    double attentionTflops = 0.0;     // what it attains on the effective roof
    Bound attentionBound = Bound::Memory;
    // The step's kernels at the current batch and context: the weight GEMMs slide right with the batch, decode
    // attention stays at its KV intensity.
    std::vector<OperatorPoint> operators;
};

// Weights, KV cache and free space against one card's capacity.
struct MemoryBarData {
    QString gpuName;
    int gpus = 1;
    std::int64_t batch = 1;
    std::int64_t context = 1;             // tokens each sequence keeps in its KV cache
    std::int64_t weightsBytes = 0;        // per GPU
    std::int64_t kvBytes = 0;             // per GPU, whole batch
    std::int64_t kvBytesPerSequence = 0;  // per GPU
    std::int64_t capacityBytes = 0;       // per GPU
    std::int64_t maxFittingBatch = 0;
    bool fits = true;
};

// Where one decode step's time goes (the CLI's "where it goes" and --json "breakdown"), per GPU.
struct StepBreakdownData {
    StepBreakdown breakdown;
    std::int64_t batch = 1;
    int gpus = 1;
    bool speculative = false;  // the step is a draft and a verify pass
    // The work behind parts that can take no time of their own: a part hidden under a longer one (compute under
    // the weight stream at small batches, the weights under compute at large ones) still happens.
    double computeSeconds = 0;  // all FLOPs at the effective peaks, as if nothing else ran
    double weightBytes = 0;
    double kvBytes = 0;
};

// Decode by weight precision: the same step with fp32, bf16 or int8 weights (one library, one matrix),
// measured, and predicted on the roof of the weights' own precision (core/session/decode_series.h).
struct WeightPrecisionCurve {
    QString precision;                // "fp32", "bf16", "int8"
    std::vector<QPointF> measured;    // (batch, tokens/s), ascending batch
    std::vector<QPointF> predicted;   // (batch, tokens/s), dense, ascending; empty without the precision's roof
    std::optional<double> kneeBatch;  // where that prediction turns compute-bound
};

// This CPU's measured decode sweep against the roofline's prediction for the same matrix.
struct CpuBatchingData {
    bool valid = false;  // false: no session, or no decode kernels / ceilings in it
    QString reason;      // why not valid, for the chart's placeholder
    QString machineName;
    int matrixDim = 4096;
    double peakGflops = 0.0;          // best fp32 compute ceiling
    double bandwidthGbps = 0.0;       // best DRAM bandwidth ceiling
    std::vector<QPointF> measured;    // (batch, tokens/s), ascending batch
    std::vector<QPointF> predicted;   // (batch, tokens/s), dense, ascending
    std::optional<double> kneeBatch;  // where the prediction turns compute-bound
    // When the session measured decode by weight precision, the chart draws these instead of the OpenBLAS curve.
    std::vector<WeightPrecisionCurve> byWeightPrecision;
    int precisionMatrixDim = 0;  // their matrix's d
    QString energy;              // the decode batches' energy per token, or why there is none (decode_energy.h)
};

}  // namespace ridgeline::ui
