#pragma once
// Measures this machine's roofline: probe, compute and bandwidth ceilings, kernels. Plain C++ callbacks
// for progress and cancellation, so the GUI can run it on a worker thread and the CLI in the foreground.

#include "core/measure/measure_options.h"
#include "core/measure/run/measure_control.h"
#include "core/result.h"
#include "core/session/session.h"

namespace ridgeline {

// Runs the whole measurement. A cancelled run returns Error::Code::Cancelled promptly (one BLAS call
// at most, about 0.1 s) and frees everything it allocated.
Result<Session> measureMachine(const MeasureOptions& options, const ProgressCallback& progress = {},
                               const PartialResultCallback& partial = {});

// The ceilings whose repetitions spread by more than Session::kNoisySpread: a busy machine.
QStringList noisyMeasurements(const Session& session);

}  // namespace ridgeline
