#pragma once
// likwid-perfctr's output (core/import/likwid/likwid_tables.h: its CSV from -o FILE.csv or -O, after -O's banner too,
// or its default ASCII tables), one kernel per marker region (per file without markers).
//
// Each run of a group gives, from its per-thread Metric table (likwid-mpirun: a column per host:rank:cpu): the
// runtime "Runtime (RDTSC) [s]" of the slowest thread, FLOPs from the rates ("DP [MFLOP/s]", "SP [MFLOP/s]",
// "HP [MFLOP/s]", likwid 4's "DP MFLOP/s", or a group's plain "MFLOP/s") times each thread's own runtime, summed
// over the threads, and data volumes summed over the threads ("Memory" or "HBM data volume [GBytes]" for DRAM,
// "L3 ..." and "L2 data volume [GBytes]"; each thread's bandwidth x its runtime when only the bandwidth is given).
// The "Metric STAT" table (Sum x Max) stands in only for a row the per-thread table lacks. Several groups of one
// region (runs one after another in the file: FLOPS_DP, MEM, L3, ...) become one kernel: FLOPs and time from the
// group that counts FLOPs (one that also measures traffic wins), bytes of each level from a group that measures it,
// DRAM the primary
// point. A region with no FLOPs, no traffic, or a "-"/nan value is skipped with its reason.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

Result<ImportResult> importLikwid(const QString& text, const QString& fileName);

struct LikwidInput {
    QString fileName;
    QString text;
};

// Several files of one program, one group per file (FLOPS_DP_128.log and L3_128.log of the same size): their
// regions merge as if the runs were one file, into one ImportResult named "a.log + b.log". nullopt when they
// cannot be read as one: a file does not parse, the files name different CPUs, or a region's group comes from
// two files (which one would be meant?); then each file is imported on its own.
std::optional<Result<ImportResult>> importLikwidTogether(const std::vector<LikwidInput>& inputs);

}  // namespace ridgeline
