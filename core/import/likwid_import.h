#pragma once
// likwid-perfctr's CSV output (`likwid-perfctr -g MEM_DP -o out.csv ...`, with or without -m markers).
//
// The file is a list of tables, each introduced by a line such as
//   TABLE,Region triad,Group 1 Metric STAT,MEM_DP,12
// Only the "Metric" tables are read (Raw counter tables are ignored): one kernel per region and group (per
// file without markers), from the rows "Runtime (RDTSC) [s]", "DP [MFLOP/s]" or "SP [MFLOP/s]",
// "Memory bandwidth [MBytes/s]" and "Memory data volume [GBytes]". With several threads the "Metric STAT"
// table gives the totals: FLOP/s, bandwidth and volume are summed, the runtime is the slowest thread's.
// FLOPs = MFLOP/s x 1e6 x runtime; bytes = data volume (or bandwidth x runtime). A group without FLOPs or
// without memory traffic (FLOPS_DP alone) is skipped and reported.

#include "core/import/import_result.h"
#include "core/result.h"

#include <QString>

namespace ridgeline {

Result<ImportResult> importLikwid(const QString& text, const QString& fileName);

}  // namespace ridgeline
