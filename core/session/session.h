#pragma once
// The measurement session: plain value structs, filled by the engine, saved and loaded as JSON.

#include "core/session/calibration_record.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace ridgeline {

struct CacheInfo {
    int level = 0;               // 1, 2, 3 ...
    QString type;                // "Data", "Instruction" or "Unified"
    std::int64_t sizeBytes = 0;  // per instance, as sysfs reports it
    int sharedByCpus = 1;        // how many logical CPUs share one instance
};

// How the core clock was measured, and whether it can be believed. Schema 2.
struct ClockMeasurement {
    QString method;            // how `MachineInfo::clockGhz` was obtained, in words
    double addChainGhz = 0.0;  // dependent register-register adds, one cycle each
    double mulChainGhz = 0.0;  // dependent 32-bit imuls, three cycles each: a second, independent chain
    double tscGhz = 0.0;       // the time-stamp counter's rate (x86), 0 when there is none
    double reportedGhz = 0.0;  // what the system says: cpufreq's maximum, else /proc/cpuinfo's MHz; 0 = nothing
    QString reportedSource;    // where reportedGhz comes from
    bool doubtful = false;     // the readings disagree with each other or with the reported rates
    QString doubt;             // why, when doubtful
};

// The last-level cache as sysfs reports it and as large as this guest can use it. A VM often reports the
// host's whole L3 (480 MiB on a 2-vCPU Xeon); then the effective size comes from the bandwidth curve.
// Sizes are aggregate over the threads measured (private caches counted once per thread). Schema 2.
struct LastLevelCache {
    int level = 0;                    // 0: sysfs reports no cache at all
    std::int64_t reportedBytes = 0;   // from sysfs
    std::int64_t effectiveBytes = 0;  // what sizing and labelling used
    QString basis;                    // "sysfs", or why the curve was used and what it showed
};

struct MachineInfo {
    QString cpuModel;
    QString hostname;
    QString os;
    int cores = 0;    // logical CPUs this process may run on
    QStringList isa;  // e.g. "sse2", "avx2", "fma", "avx512f", "avx512_bf16", "amx_tile"
    std::vector<CacheInfo> caches;
    QString openblasVersion;
    QString openblasCore;  // openblas_get_corename(): the kernel that actually ran
    QString openblasConfig;
    int openblasThreads = 0;
    double clockGhz = 0.0;  // measured by dependent chains (clock.method), not read from a label
    std::int64_t memoryAvailableBytes = 0;
    // Schema 2; empty or zero in older files.
    QString vendor;  // "GenuineIntel", "AuthenticAMD", ...
    int family = 0;  // CPUID family and model as /proc/cpuinfo gives them (a VM may mask them)
    int model = 0;
    bool hypervisor = false;  // the CPU says it runs under a hypervisor
    QString coreName;         // the entry of the table of known cores, e.g. "AMD Zen 4"
    QString coreBasis;        // how it was identified, and any conflict between model number and features
    ClockMeasurement clock;
    LastLevelCache lastLevelCache;
};

// min / median / max of one quantity over the repetitions of a measurement.
struct Spread {
    double min = 0.0;
    double median = 0.0;
    double max = 0.0;
};

struct ComputeCeiling {
    QString name;       // "fp32 avx512 x2 threads"
    QString precision;  // "fp32", "fp64"; "bf16", "fp16", "int8"
    QString isa;        // "scalar", "avx2", "avx512"; the low precisions' unit: "avx512_bf16", "avx512_fp16",
                        // "avx512_vnni", "avx_vnni", "amx"
    int threads = 1;
    double gflops = 0.0;             // the ceiling: the best repetition's GFLOP/s (spread keeps the median);
                                     // for int8, giga-operations per second (GOPS), not FLOPs
    double theoreticalGflops = 0.0;  // threads x clockGhz x fmaPerCycle x FLOPs per FMA
    Spread spread;                   // GFLOP/s over repetitions
    int repetitions = 0;
    // Schema 2; zero in older files.
    double clockGhz = 0.0;       // the clock while this ISA's FMA units were busy (AVX-512 may lower it)
    double flopsPerCycle = 0.0;  // measured, per core: gflops / threads / clockGhz
    double fmaPerCycle = 0.0;    // FMA instructions per cycle per core behind theoreticalGflops (a low-precision
                                 // unit: its own instruction's, e.g. 1/16 tile product for AMX)
    QString peakBasis;           // where fmaPerCycle comes from: the table of known cores, the measurement
};

struct BandwidthCeiling {
    QString level;      // "L1", "L2", "L3", "DRAM"
    QString mix;        // "read" or "triad"
    double gbps = 0.0;  // the ceiling: the best repetition's GB/s at the chosen working set
    std::int64_t workingSetBytes = 0;
    int threads = 1;
    Spread spread;  // GB/s over repetitions
    int repetitions = 0;
};

struct BandwidthPoint {
    std::int64_t workingSetBytes = 0;
    QString mix;    // "read" or "triad"
    QString level;  // level whose capacity holds this working set, or "" in a transition
    int threads = 1;
    double gbps = 0.0;  // median
    Spread spread;
};

// Traffic of one kernel at another level of the memory hierarchy (hierarchical roofline): the same FLOPs and
// time, other bytes. The kernel's own bytes/gbps/intensity are its primary point, at KernelResult::level.
struct LevelPoint {
    QString level;  // "L1", "L2", "DRAM"
    double bytes = 0.0;
    double gbps = 0.0;
    double intensity = 0.0;  // kernel flops / these bytes
};

// The device an imported kernel ran on when it is not the session's own machine: a GPU, whose roof is
// not this CPU's. Schema 2; empty (kind "") for every measured kernel.
struct KernelDevice {
    QString kind;   // "gpu"; "" = the session's machine
    QString name;   // as the profiler names it ("NVIDIA A100-SXM4-40GB"); "" when the file does not say
    QString gpu;    // the catalog GPU whose roofline applies ("a100-40gb-sxm"); "" when none is known
    QString basis;  // how gpu was chosen: the profiler's name matched, --device, chosen on import
    bool isGpu() const { return kind == QLatin1String("gpu"); }
};

// Energy of one measured decode batch from the CPU's RAPL counters (core/measure/machine/rapl.h), read around the
// batch's runs, its warm-up included. Schema 2, optional: all zero where the machine exposes no readable counters.
struct KernelEnergy {
    double seconds = 0.0;         // how long the counters were read across
    double packageWatts = 0.0;    // mean power of every package over those seconds; 0 = not measured
    double dramWatts = 0.0;       // of every DRAM domain (servers); 0 where there is none
    double joulesPerToken = 0.0;  // (package + DRAM) watts / the kernel's tokens per second
    bool measured() const { return packageWatts > 0.0; }
};

struct KernelResult {
    QString name;       // "sgemm 4096"
    QString kind;       // "sgemm", "dgemm", "add", "decode", "fusion-unfused", "fusion-fused",
                        // "training-step";
                        // "bf16-gemm", "decode-bf16", "decode-int8" (kinds of their own beside fp32's)
    QString size;       // human-readable shape, e.g. "4096x4096" or "4096x4096 x B=16"
    QString precision;  // "fp32", "fp64", "bf16", "int8" (int8: gflops counts operations)
    int threads = 1;
    int batch = 0;         // decode only: vectors per step
    double flops = 0.0;    // counted as the source text counts them
    double bytes = 0.0;    // idem: each operand moved once
    double seconds = 0.0;  // median time of one run
    double gflops = 0.0;
    double gbps = 0.0;
    double intensity = 0.0;        // flops / bytes
    double tokensPerSecond = 0.0;  // decode only: batch / seconds
    int repetitions = 0;
    Spread spread;  // seconds over repetitions
    // Imported kernels (kind "imported"); all optional in the file, written only when set.
    QString fullName;                 // the profiler's full (demangled) name when `name` is a shortened one
    QString source;                   // "profile.csv (ncu)": the file and format it came from
    QString level;                    // memory level of the primary point ("DRAM", "L2", ...); "" = not stated
    QString group;                    // free grouping: likwid group, CSV group column
    bool tensorFlopsCounted = false;  // Nsight Compute: tensor-pipe FLOPs are included in `flops`
    std::vector<LevelPoint> levels;   // the same kernel's points at other memory levels
    KernelDevice device;              // schema 2: the GPU it ran on, for GPU profilers (Nsight Compute)
    KernelEnergy energy;              // schema 2, measured decode batches only
};

// The fused-vs-unfused elementwise chain (bias add, GELU, dropout) measured on this machine.
struct FusionResult {
    std::int64_t elements = 0;
    double unfusedBytes = 0.0;  // three passes: each reads and writes the tensor
    double fusedBytes = 0.0;    // one pass: read once, write once
    double unfusedSeconds = 0.0;
    double fusedSeconds = 0.0;
    double speedup = 0.0;           // unfusedSeconds / fusedSeconds
    double maxAbsDifference = 0.0;  // fused and unfused outputs must agree
};

// A training step of a stack of MLP blocks measured on this machine (core/measure/workloads/training.h): plainly,
// with activation checkpointing and with gradient accumulation. Activation bytes are the most live at once, as
// counted by the code that allocates them.
struct TrainingResult {
    int tokens = 0;  // the batch; 0: not measured (see skipped)
    int model = 0;
    int hidden = 0;
    int layers = 0;
    int microBatches = 0;  // accumulation: micro-batches of tokens / microBatches each
    double plainSeconds = 0.0;
    double checkpointSeconds = 0.0;
    double accumulateSeconds = 0.0;
    double plainFlops = 0.0;      // one step, every activation kept
    double recomputeFlops = 0.0;  // what checkpointing computed a second time (the hidden layers)
    double plainPeakBytes = 0.0;
    double checkpointPeakBytes = 0.0;
    double microBatchPeakBytes = 0.0;
    double gradientDifference = 0.0;  // accumulated against full-batch gradients: max |diff| / max |full|
    double tolerance = 0.0;           // what gradientDifference must stay within
    // Optional (0: a session written before them). The plain step's forward, before the loss: what a whole forward
    // run again costs, the recompute the claim of a third means. The recompute's own seconds, timed around it inside
    // the checkpointed steps (median), apart from the rest of the checkpointed step.
    double forwardFlops = 0.0;
    double recomputeSeconds = 0.0;
    // bf16 mixed precision (optional; bf16Seconds 0: not run, see skipped): the plain step with bf16 products and
    // activations, fp32 master weights and gradients. Its gradients against the fp32 step's on the same weights, as
    // gradientDifference; the library and kernel of its products.
    double bf16Seconds = 0.0;
    double bf16Fp32Seconds = 0.0;  // the fp32 plain step timed just before it, for their ratio
    double bf16Flops = 0.0;
    double bf16PeakBytes = 0.0;
    double bf16GradientDifference = 0.0;
    QString bf16Products;  // "oneDNN 2.6.3 brg:avx512_core_bf16"
    double extraCompute() const { return plainFlops > 0.0 ? recomputeFlops / plainFlops : 0.0; }
    double extraTime() const { return plainSeconds > 0.0 ? checkpointSeconds / plainSeconds - 1.0 : 0.0; }
    double recomputeTime() const { return plainSeconds > 0.0 ? recomputeSeconds / plainSeconds : 0.0; }
    double forwardShare() const { return plainFlops > 0.0 ? forwardFlops / plainFlops : 0.0; }
};

// Something in a session that cannot be right, or that should not be trusted blindly.
struct Finding {
    QString subject;  // what it is about: "clock", "fp32 avx512 x1", "sgemm 4096", "last-level cache"
    QString kind;     // "impossible" (physics says no), "doubtful" (may be wrong), "note"
    QString message;  // one sentence with the figures, for the table and the window
};

// An experiment of the source text that did not run on this machine, and why (never silently).
struct SkippedExperiment {
    QString experiment;  // "fusion", "sgemm 4096", ...
    QString reason;
};

// Where the decode batches' energy comes from. Schema 2, optional: an empty basis in files written before it.
struct EnergySource {
    bool measured = false;  // the RAPL counters were read around each decode batch
    QString basis;          // the domains summed, or why there is no energy ("this machine exposes no RAPL ...")
};

struct Session {
    // 2: clock measurement, core identification, last-level cache sizing, ceilings' FLOP/cycle, findings,
    // skipped experiments; the fusion object only when fusion was measured. Version 1 files still load.
    static constexpr int kSchemaVersion = 2;
    static inline const QString kFormat = QStringLiteral("ridgeline-session");

    QString title;  // free text; defaults to the machine's CPU model
    QDateTime created;
    QString generator;  // "ridgeline 0.1.0 measure --quick"
    bool quick = false;
    bool complete = true;  // false when a run was cancelled part-way
    double wallSeconds = 0.0;
    MachineInfo machine;
    std::vector<ComputeCeiling> computeCeilings;
    std::vector<BandwidthCeiling> bandwidthCeilings;
    std::vector<BandwidthPoint> bandwidthCurve;
    std::vector<KernelResult> kernels;
    FusionResult fusion;           // elements == 0: not measured (see skipped)
    TrainingResult training;       // schema 2, optional; tokens == 0: not measured (see skipped)
    double streamTriadGbps = 0.0;  // STREAM-style triad on the largest working set, for comparison
    // Ceilings whose repetitions spread by more than kNoisySpread (max - min over median): the machine
    // was busy while they ran. Empty on a quiet machine.
    static constexpr double kNoisySpread = 0.20;
    QStringList noisyMeasurements;
    bool noisy() const { return !noisyMeasurements.isEmpty(); }
    std::vector<Finding> findings;           // schema 2
    std::vector<SkippedExperiment> skipped;  // schema 2
    std::vector<Calibration> calibrations;   // schema 2: fits of the LLM model to benchmark results
    // Schema 2: the serving engine the batching tab models with, as `ridgeline model --engine` takes it
    // (NAME[@VERSION]); empty: the default, the generic profile. A name no engine has refuses the file.
    QString engine;
    EnergySource energy;  // schema 2
};

}  // namespace ridgeline
