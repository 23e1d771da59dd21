#pragma once
// Nsight Compute CSV, both shapes:
//  - "details" (`ncu --csv --metrics ...`): one row per kernel and metric, with the columns "ID",
//    "Kernel Name", "Metric Name", "Metric Unit", "Metric Value";
//  - "raw" (`ncu --csv --page raw --metrics ...`): one row per kernel, one column per metric, units in the
//    second row.
// Columns are matched by header name; "==PROF==", "==WARNING==" and "==ERROR==" log lines are skipped;
// values may carry thousands separators ("1,234,567") and scaled units ("Kbyte", "usecond", "Kinst").
//
// Per kernel: FLOPs = sum over d/f/h of add + mul + 2 x fma (sm__sass_thread_inst_executed_op_*_pred_on.sum),
// plus 512 x sm__inst_executed_pipe_tensor.sum when that metric is present (tensorFlopsCounted); time =
// gpu__time_duration.sum (or the "Duration" row of the SpeedOfLight section); bytes = dram__bytes.sum (or
// dram__bytes_read.sum + dram__bytes_write.sum) as the primary point, with lts__t_bytes.sum (L2) and
// l1tex__t_bytes.sum (L1) as the same kernel's other levels.

#include "core/import/import_result.h"
#include "core/result.h"

#include <QString>

namespace ridgeline {

// text is the decoded file; errors name the line and column but not the file.
Result<ImportResult> importNsightCompute(const QString& text, const QString& fileName);

// True when a line is Nsight Compute's own log output rather than CSV.
bool isNsightLogLine(QStringView line);

}  // namespace ridgeline
