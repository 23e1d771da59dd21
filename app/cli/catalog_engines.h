#pragma once
// `ridgeline catalog engines`: the serving engines `ridgeline model --engine` takes, the versions each covers and
// every term it sets, with its source (core/model/llm/engine_profile.h), then the user's own
// (core/model/llm/engine_catalog.h), or (mine) theirs alone.

#include "app/cli/command_line.h"

namespace ridgeline::cli {

int printEngines(Streams io, bool json, bool mine);

}  // namespace ridgeline::cli
