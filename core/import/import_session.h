#pragma once
// THE rule for which session each import goes to: the result is new Session values; the base is not touched. `ridgeline
// import` and the window's File > Import both place imports here, so they cannot disagree.
//
// Each import's kernels are judged only against the machine they ran on:
// - Kernels that name no machine of their own (a plain CSV; GPU kernels, drawn on their own GPU's roofline; likwid
//   output that names no CPU, such as likwid-mpirun's) join the base, or a new session when there is none.
// - likwid kernels carry the CPU likwid printed. On the base session's CPU (names compared without case, (R), (TM)
//   or extra spaces) they join the base; otherwise they go to a session of their CPU, one per CPU, whose roofs come
//   from the table of known CPUs (core/import/kernel/known_cpus.h) or, for a CPU it lacks, are none.
// - ERT's and rocprof-compute's ceilings describe the machine they measured: each file makes a session of its own
//   and never joins another.

#include "core/import/kernel/import_result.h"
#include "core/result.h"
#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace ridgeline {

struct PlacedImports {
    // The base's copy first when a base was given (changed or not), else the new session of the kernels that name
    // no machine, if any; then the sessions of other CPUs and of ceilings, in the order of the imports.
    std::vector<Session> sessions;
    bool firstIsBase = false;
    std::vector<int> sessionOf;  // per import, its session's index
    QStringList into;            // per import, where it went, for its summary's "into" line
    // Per import, where its kernels are in its session's: the first and how many.
    std::vector<std::pair<std::size_t, std::size_t>> kernelsAt;

    // Import i's kernels, in its session (valid while `sessions` is).
    std::span<const KernelResult> kernelsOf(std::size_t i) const;
};

PlacedImports placeImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports);

// The same placement, moving each import's kernels into its session instead of copying them, so that a large import
// is held once, not twice. The imports keep everything else; kernelsOf() gives their kernels.
PlacedImports placeImportsMovingKernels(const std::optional<Session>& base, std::vector<ImportResult>& imports);

// Why imports that make several sessions cannot be written as one (`ridgeline import --out` writes one): how many
// sessions, why, then one line per file, "  name.csv -> where it would go".
QString oneSessionRefusal(const std::vector<ImportResult>& imports, const PlacedImports& placed);

// The one session placeImports makes; when it makes more, an error (Code::InvalidArgument) of oneSessionRefusal.
Result<Session> sessionWithImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports);

}  // namespace ridgeline
