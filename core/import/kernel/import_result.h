#pragma once
// What one imported file gives: kernels (Nsight Compute, likwid, plain CSV) or ceilings (ERT), plus the rows
// that were read but could not become a point, each with its reason.

#include "core/session/session.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace ridgeline {

// At most this many kernels per import. A roofline of more points cannot be read, and each kernel costs about half
// a kilobyte (twenty times a plain CSV row), so the cap is what keeps an import's memory bounded; beyond it the
// file is refused with the count, before more memory is taken.
inline constexpr std::size_t kMaxImportedKernels = 200'000;

// The refusal, one wording for every importer.
inline QString tooManyKernels()
{
    return QStringLiteral(
               "more than %1 kernels: a roofline of that many points cannot be read; import a filtered "
               "profile (fewer kernels, or one kernel per name)")
        .arg(kMaxImportedKernels);
}

enum class ImportFormat { Auto, NsightCompute, Ert, Likwid, PlainCsv, RocprofRoofline };

// A well-formed row that gives no point on the roofline (no FLOPs, no time, ...): reported, not an error.
struct SkippedRow {
    int line = 0;  // 1-based line in the file; 0 when the reason concerns the whole file
    QString what;  // the kernel or entry, e.g. "ampere_sgemm_128x64_nn (ID 2)"
    QString reason;
};

struct ImportResult {
    QString fileName;                          // the file's name without its folder
    ImportFormat format = ImportFormat::Auto;  // the format that was read (never Auto)
    std::vector<KernelResult> kernels;         // kind "imported", source set
    // ERT: ceilings of the machine the file was measured on (usually not this one).
    std::vector<ComputeCeiling> computeCeilings;
    std::vector<BandwidthCeiling> bandwidthCeilings;
    QString machineName;  // ERT: names the measured machine, e.g. "ERT: roofline.json"
    // likwid: the CPU its kernels ran on, as likwid-perfctr printed it ("CPU name:"); "" when the file does not say
    // (likwid-mpirun's output names none). core/import/import_session.h places the kernels by it.
    QString cpuName;
    std::vector<SkippedRow> skipped;
    QStringList notes;  // facts worth printing, e.g. "tensor FLOPs counted for 1 of 3 kernels"

    bool hasCeilings() const { return !computeCeilings.empty() || !bandwidthCeilings.empty(); }
};

}  // namespace ridgeline
