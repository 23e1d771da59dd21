#pragma once
// A real session measured with `ridgeline measure` on a 2-vCPU AMD EPYC (Zen 4) and shipped with Ridgeline,
// so a talk's measured scenes have numbers before the speaker has measured their own machine.

#include "core/result.h"
#include "core/session/session.h"

namespace ridgeline {

Result<Session> bundledSession();

}  // namespace ridgeline
