#pragma once
// THE rule for which measured ceilings make a session's roof. Every view that draws, captions or predicts
// from a session's roof (the roofline chart, the talk, the CPU batching prediction, "explain this point",
// the measurement report) asks here, so they cannot disagree.
//
// - A compute ceiling is the best (highest GFLOP/s) of the precision asked for, or of any floating-point
//   precision (int8 ceilings count operations, not FLOPs: a session of int8 ceilings only falls back to them).
// - A level's bandwidth ceiling is its "read" mix when measured (a kernel streaming its operands, what
//   STREAM-style claims and the source text use), else the best of the level's other mixes (triad, ERT).
// - The primary roof is the best compute ceiling of any floating-point precision (bf16 on AMX, where the CPU
//   has it) over the DRAM ceiling; a session without
//   DRAM (an import of cache levels only) falls back to its slowest level, the safe roof.
// Ceilings at 0 GB/s or 0 GFLOP/s never make a roof. The pointers point into the session.

#include "core/model/catalog/catalog.h"
#include "core/model/roofline.h"
#include "core/session/session.h"

#include <QStringList>
#include <QStringView>

#include <optional>

namespace ridgeline {

inline constexpr QStringView kDramLevel = u"DRAM";

// The best compute ceiling of `precision` ("fp32"); an empty precision means any floating-point one (else
// int8). Null when there is none.
const ComputeCeiling* bestComputeCeiling(const Session& session, QStringView precision = {});
// The same, leaving out the precisions in `hidden` (the chart's precision selector): nullptr when all are hidden.
const ComputeCeiling* bestComputeCeilingWithout(const Session& session, QStringView precision,
                                                const QStringList& hidden);

// The bandwidth ceiling of one memory level ("DRAM", "L2"), by the rule above; null when it was not measured.
const BandwidthCeiling* memoryCeiling(const Session& session, QStringView level = kDramLevel);

// The slowest and the fastest bandwidth ceilings above 0 GB/s; null when there is none.
const BandwidthCeiling* slowestBandwidthCeiling(const Session& session);
const BandwidthCeiling* fastestBandwidthCeiling(const Session& session);

struct SessionRoof {
    const ComputeCeiling* compute = nullptr;
    const BandwidthCeiling* memory = nullptr;
    Roof roof() const { return Roof{compute->gflops, memory->gbps}; }
};

// The session's roof: best compute ceiling (any precision) over DRAM, else over the slowest level.
// nullopt when the session lacks a compute or a bandwidth ceiling.
std::optional<SessionRoof> primaryRoof(const Session& session);

// The roof over one kernel: the best ceiling of the kernel's precision (any precision when the session has
// none of it) over the level its data lives in (the slowest level when that one was not measured).
std::optional<SessionRoof> roofFor(const Session& session, QStringView precision, QStringView level);

// GPU kernels -----------------------------------------------------------------------------------------
// A kernel imported from a GPU profiler ran on that GPU, not on the session's machine: its roof is its GPU's, from
// the catalog, never this CPU's. The catalog GPU's ceilings are laid out as a session's, so the rules above hold
// for it unchanged:
// - compute ceilings "fp64" (vector units), "fp32", and each dense tensor peak as "<format> tensor" with precision
//   "tensor-<format>" (the precisions the Nsight Compute importer writes; int8 is "int8": operations, not FLOPs);
//   a kernel of a precision the catalog has no peak for (fp16 on the vector units, "mixed") is held to the GPU's
//   best floating-point peak, an upper bound any kernel respects;
// - bandwidth ceilings DRAM (the datasheet's), L2 and L1 where the catalog has a measured figure (mix "read"; the
//   datasheet's DRAM has mix "datasheet"); a level without a figure falls back to the slowest, DRAM.
Session gpuCeilings(const GpuSpec& gpu);

// The built-in catalog GPU `id`'s ceilings, built once and kept for the program's life (so the pointers of a roof
// over them stay valid); null when the catalog has no such GPU.
const Session* catalogGpuCeilings(QStringView id);

// THE roof over one kernel. A GPU kernel (KernelResult::device) is compared with its catalog GPU's ceilings at its
// own level (DRAM when it names none); one whose GPU is not in the catalog has no roof (nullopt). Any other kernel:
// roofFor(session, kernel.precision, level).
std::optional<SessionRoof> kernelRoof(const Session& session, const KernelResult& kernel, QStringView level);

// The pointers above point into the session, so a temporary session would leave them dangling.
const ComputeCeiling* bestComputeCeiling(const Session&& session, QStringView precision = {}) = delete;
const ComputeCeiling* bestComputeCeilingWithout(const Session&& session, QStringView precision,
                                                const QStringList& hidden) = delete;
const BandwidthCeiling* memoryCeiling(const Session&& session, QStringView level = kDramLevel) = delete;
const BandwidthCeiling* slowestBandwidthCeiling(const Session&& session) = delete;
const BandwidthCeiling* fastestBandwidthCeiling(const Session&& session) = delete;
std::optional<SessionRoof> primaryRoof(const Session&& session) = delete;
std::optional<SessionRoof> roofFor(const Session&& session, QStringView precision, QStringView level) = delete;
std::optional<SessionRoof> kernelRoof(const Session&& session, const KernelResult& kernel, QStringView level) = delete;

}  // namespace ridgeline
