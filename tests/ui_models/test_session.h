#pragma once
// A realistic session built in code (a 2-core Zen 4 slice): the numbers are what such a machine measures,
// so the chart tests and screenshots look like the real thing without running the engine.

#include "core/session/session.h"

namespace ridgeline::fixtures {

Session zen4Session();
// The same machine after a BIOS memory upgrade: faster DRAM, same caches; for overlay tests.
Session zen4FasterDramSession();
// The before/after pair of the comparison tests: the same machine a day later in a quick run, its fp32
// ceiling 20 % lower (230 -> 184 GFLOP/s) and sgemm 4096 25 % faster (200 -> 250 GFLOP/s), spreads scaled alike.
Session zen4SlowerFp32FasterSgemmSession();
// `count` kernels spread over the plane, for the 10,000-kernel redraw benchmark.
Session manyKernelSession(int count);

}  // namespace ridgeline::fixtures
