#pragma once
// How well repeated measurements of the same machine agree, ceiling by ceiling.

#include "core/session/session.h"

namespace ridgeline {

struct CeilingAgreement {
    QString name;                       // "fp32 avx512 x2" or "DRAM bandwidth"
    QString unit;                       // "GFLOP/s" or "GB/s"
    std::vector<double> values;         // one per run, in run order
    double relativeDifference() const;  // (max - min) / min over the runs
};

// Ceilings present in every run, in the first run's order.
std::vector<CeilingAgreement> compareRuns(const std::vector<Session>& runs);

}  // namespace ridgeline
