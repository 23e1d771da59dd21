#pragma once
// Puts imports into a session, all or nothing: the result is a new Session value; the base is not touched.

#include "core/import/kernel/import_result.h"
#include "core/result.h"
#include "core/session/session.h"

#include <optional>
#include <vector>

namespace ridgeline {

// Kernels are appended to a copy of base (or to a new, empty session). ERT ceilings describe the machine
// ERT ran on: they go only into a session without ceilings of its own (a new one, whose machine is named
// after the ERT file), and at most one ERT file per session.
Result<Session> sessionWithImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports);

}  // namespace ridgeline
