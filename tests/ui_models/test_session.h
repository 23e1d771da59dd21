#pragma once
// A realistic session built in code (a 2-core Zen 4 slice): the numbers are what such a machine measures,
// so the chart tests and screenshots look like the real thing without running the engine.

#include "core/session/session.h"

namespace ridgeline::fixtures {

Session zen4Session();
// The same machine after a BIOS memory upgrade: faster DRAM, same caches; for overlay tests.
Session zen4FasterDramSession();
// `count` kernels spread over the plane, for the 10,000-kernel redraw benchmark.
Session manyKernelSession(int count);

}  // namespace ridgeline::fixtures
