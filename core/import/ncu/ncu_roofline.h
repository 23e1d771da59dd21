#pragma once
// Nsight Compute's own roofline convention: which counters give one kernel's time, FLOPs per precision and
// bytes per memory level. The formulas are those of the SpeedOfLight roofline sections that ship with
// ncu 2025 (SpeedOfLight_RooflineChart.section for FP32/FP64, SpeedOfLight_Hierarchical{Half,Tensor}
// RooflineChart.section for FP16 and tensor work):
//   FP64 = dadd + dmul + 2 dfma      (the sections' derived__..._dfma_pred_on_x2)
//   FP32 = fadd + fmul + 2 ffma      (derived__..._ffma_pred_on_x2)
//   FP16 = 2 hadd + 2 hmul + 4 hfma  (derived__..._hadd_pred_on_x2, _hmul_pred_on_x2, _hfma_pred_on_x4: the H*
//                                     SASS instructions work on half2 pairs)
// each term being sm__ or smsp__sass_thread_inst_executed_op_<op>_pred_on.sum, or, when only rates were
// collected (--set full / roofline, --page raw), its .sum.per_cycle_elapsed (or the derived__smsp__ form)
// times smsp__cycles_elapsed.avg. Tensor work is counted only from sm__ops_path_tensor_src_<type>... (the
// operations the tensor chart plots); sm__inst_executed_pipe_tensor.sum counts instructions of a pipe that
// also runs FP16 on Volta to Ampere, so it is reported, never counted. Sources and the files studied:
// tests/data/README.md ("Nsight Compute: what the importer reads").

#include "core/import/ncu/ncu_table.h"
#include "core/result.h"

#include <QHash>
#include <QString>
#include <QStringView>

#include <optional>
#include <utility>
#include <vector>

namespace ridgeline {

// What one kernel's counters give, in base units (seconds, FLOPs, bytes).
struct NcuRoofline {
    std::optional<double> seconds;
    QString timeFrom;                               // the counters the time came from
    std::vector<std::pair<QString, double>> flops;  // by precision: "fp64", "fp32", "fp16", "tensor-fp16", ...
    bool anyFlopCounter = false;                    // the kernel has some FLOP counter (a value of 0 counts)
    bool tensorCounted = false;                     // sm__ops_path_tensor_src_* were collected for this kernel
    double tensorInstructions = 0.0;                // sm__inst_executed_pipe_tensor.sum (not counted as FLOPs)
    double integerTensorOps = 0.0;                  // int1/int4/int8 tensor operations (not FLOPs)
    std::optional<double> dram;
    std::optional<double> l2;
    std::optional<double> l1;
    QString notFinite;  // a nan or inf counter: the kernel cannot be placed, and why

    double totalFlops() const;
};

// Whether the reader should keep a metric (or a details-page label such as "Duration") at all.
bool isNcuRooflineMetric(QStringView name);

// The kernel's roofline counters; an Error (naming line and column) only for a value that is not a number
// or has a unit Nsight Compute does not write.
Result<NcuRoofline> readNcuRoofline(const QHash<QString, NcuCell>& metrics);

// When no kernel of the file has a time, a FLOP count or memory traffic: what is missing, named by its
// counters, and which ncu options collect them. nullopt when the file can give a roofline point.
std::optional<QString> missingRooflineCounters(const NcuTable& table, const std::vector<NcuRoofline>& kernels);

}  // namespace ridgeline
