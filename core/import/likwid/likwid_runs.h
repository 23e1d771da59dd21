#pragma once
// What each run of a likwid group measured (core/import/likwid/likwid_tables.h's Metric table of one group over one
// region, with its STAT table when there are several threads): the slowest thread's runtime, FLOPs per precision
// and bytes per memory level, summed over the threads (and likwid-mpirun's ranks) from each thread's own rate and
// runtime. likwid's "-" and nan mark a row as giving nothing; likwid-mpirun's "nil" cells add nothing.

#include "core/import/likwid/likwid_tables.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ridgeline {

// What one run measured over all its threads (and ranks), in FLOPs, bytes and seconds.
struct LikwidMeasurement {
    QString region;
    QString group;
    int line = 0;
    std::optional<double> runtime;                        // the slowest thread's
    std::vector<std::pair<QString, double>> flopAmounts;  // precision -> FLOPs (all threads)
    std::map<QString, double> bytes;                      // "DRAM", "L3", "L2"
    QString notFinite;                                    // the first "-" or nan value read, for the reason
    QStringList notFiniteRows;  // the rows that had one: this run gives no FLOPs or bytes from them
    int threads = 1;            // columns of the per-thread table: threads, or host:rank:cpu with likwid-mpirun
    int ranks = 0;              // likwid-mpirun's distinct ranks; 0 for likwid-perfctr
    bool fromTotals = false;    // no per-thread table: amounts from the STAT Sum x the slowest runtime
    int nilCells = 0;

    double flops() const
    {
        double total = 0.0;
        for (const auto& [precision, amount] : flopAmounts)
            total += amount;
        return total;
    }
};

// Every run of the file in file order (a per-thread table starts a run, the STAT table after it joins it); or the
// first unreadable value, with its line and column.
Result<std::vector<LikwidMeasurement>> measureLikwidRuns(const LikwidFile& file);

}  // namespace ridgeline
