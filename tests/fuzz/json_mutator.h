#pragma once
// A structure-aware mutation of a JSON file for libFuzzer's custom mutator: one value of the document is changed
// the way a corrupt or hostile file would change it, and the file stays JSON, so the loader gets past its syntax
// check and the numbers reach what is computed and drawn from them.
#include <QByteArray>

#include <optional>

namespace ridgeline::fuzz {

// nullopt when `json` is not a JSON object (the caller then mutates bytes).
std::optional<QByteArray> mutateJson(const QByteArray& json, unsigned int seed);

}  // namespace ridgeline::fuzz
