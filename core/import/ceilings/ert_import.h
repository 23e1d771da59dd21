#pragma once
// The Empirical Roofline Toolkit's roofline.json: the ceilings of the machine ERT ran on.
//
//   { "empirical": { "gflops": { "data": [["FP64 GFLOPs", 7068.9], ...] },
//                    "gbytes": { "data": [["L1", 19965.1], ["L2", 2996.7], ["DRAM", 828.8]] } },
//     "spec": { "gflops": { "data": [...] }, "gbytes": { "data": [...] } } }
//
// Each empirical gflops entry becomes a ComputeCeiling (precision read from its name, isa "ERT"), each gbytes
// entry a BandwidthCeiling at that level; a spec gflops entry of the same name fills theoreticalGflops.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace ridgeline {

Result<ImportResult> importErt(const QByteArray& bytes, const QString& fileName);

}  // namespace ridgeline
