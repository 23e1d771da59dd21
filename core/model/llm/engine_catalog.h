#pragma once
// The engines `--engine`, the batching tab and sessions choose from (the built-in profiles of engine_profile.h), by
// name and optional version.

#include "core/model/llm/engine_profile.h"
#include "core/result.h"

#include <QString>
#include <QStringView>

#include <memory>
#include <vector>

namespace ridgeline {

std::vector<EngineProfile> allEngines();
QString engineIds();  // "generic, vllm, sglang, ...", for messages

// An engine as asked for: NAME or NAME@VERSION, matched without regard to case against ids and aliases.
struct EngineSelection {
    std::shared_ptr<const EngineProfile> profile;
    QString version;       // as given; empty when none was
    QString fallbackNote;  // set when the version is outside what the profile covers: what is used instead
};

// The error names the known engines; a version that is not a dotted number is refused, one outside the profile's
// versions is accepted with a fallback note.
Result<EngineSelection> selectEngine(QStringView spec);
EngineSelection genericEngine();

}  // namespace ridgeline
