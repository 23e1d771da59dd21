#pragma once
// Before/after pairs among imported kernels: when two imports (or two values of the plain CSV's
// `group` column) hold the same kernel, the change in GFLOP/s from the earlier one to the later one.

#include "core/session/session.h"

#include <QString>

#include <optional>
#include <vector>

namespace ridgeline::ui {

struct KernelChange {
    int before = -1;  // kernel indices in the session
    int after = -1;
    double percentGflops = 0.0;  // (after / before - 1) x 100
};

// The group an imported kernel belongs to for comparisons: its `group`, else the file it came from.
QString comparisonGroup(const KernelResult& kernel);

// Each kernel's share of the time of its group: imported kernels within their comparisonGroup (one profile, or a
// before or an after run), measured kernels within the measurement. nullopt where a kernel's time is not known.
std::vector<std::optional<double>> timeShares(const Session& session);

// Imported kernels are grouped by comparisonGroup; groups are ordered "before" (any case) first, "after" last,
// the others in order of first appearance. A kernel (matched by full name, else name; the first of each
// group) found in several groups gives one change from each group to the next one that has it.
std::vector<KernelChange> beforeAfterChanges(const Session& session);

// "+150 %", "-12 %", "+0.5 %": signed, two significant digits below 10 %.
QString formatPercentChange(double percent);

}  // namespace ridgeline::ui
