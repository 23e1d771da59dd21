#pragma once
// Ridgeline's plain CSV for kernels measured any other way. UTF-8 (a BOM is fine), comma-separated,
// RFC 4180 quoting, LF or CRLF; lines starting with '#' are comments. The first other line is the header:
//
//   name,flops,bytes,seconds[,level][,precision][,group]      (any order, names case-insensitive)
//
//   name       the kernel; required, non-empty
//   flops      floating-point operations of one run          (plain numbers: 1e9, 1000000000, 0.5;
//   bytes      bytes moved at `level` by one run               '.' is the decimal point, no thousands
//   seconds    time of one run                                 separators, no units, no NaN/inf/negatives)
//   level      memory level of `bytes`: "DRAM", "L2", "L1"... Rows of one name and group with different
//              levels are one kernel with one point per level (same flops and seconds); the DRAM row, or
//              else the first row, is its primary point. Rows without a level are separate kernels.
//   precision  free text, e.g. "fp32", "fp64"
//   group      free text, e.g. "before" / "after", or a phase of the program
//
// A row with 0 FLOPs, 0 bytes or 0 seconds cannot sit on a log-log roofline: it is skipped and reported.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QString>

namespace ridgeline {

Result<ImportResult> importPlainCsv(const QString& text, const QString& fileName);

}  // namespace ridgeline
