#pragma once
// The engine catalog file (the user's engines.json, core/model/llm/engine_catalog.h): engine profiles as data, read
// with the strict reader of sessions and the other catalogs. Each engine names the terms it sets, each with its value,
// the memory family it applies to (absent: every card) and its source, the way `ridgeline catalog engines --json`
// prints the built-in ones. A term the model does not have, a share outside (0, 1], a time outside 0 to 1 s, a term
// set twice for one family, an id that --engine could not take: refused with its path ("engines[2].overrides[0]
// .value"), never read as a default. The writer writes exactly what the reader reads.

#include "core/model/llm/engine_profile.h"
#include "core/result.h"

#include <QByteArray>

#include <vector>

namespace ridgeline {

inline constexpr int kEngineCatalogSchemaVersion = 1;

Result<std::vector<EngineProfile>> parseEngineCatalog(const QByteArray& json);
QByteArray engineCatalogToJson(const std::vector<EngineProfile>& engines);

}  // namespace ridgeline
