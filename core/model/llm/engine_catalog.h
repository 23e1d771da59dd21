#pragma once
// The engines `--engine`, the batching tab and sessions choose from: the built-in profiles (engine_profile.h), then
// the user's own in engines.json beside their GPUs and models (core/model/catalog/user_catalog.h), such as a
// calibration saved as an engine (`ridgeline calibrate --save-engine NAME`). The user's file is read by the strict
// reader (engine_catalog_json.h) and kept like the other user catalogs: a defect, or an id a built-in engine already
// answers to, refuses the whole file in one line naming it and the field; the built-in engines are then used alone
// and the line is said wherever the engines are listed and in the "no engine" message.

#include "core/model/llm/engine_profile.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstdint>
#include <memory>
#include <vector>

namespace ridgeline {

QString userEngineCatalogPath();  // userCatalogDirectory() + "/engines.json"

struct UserEngines {
    QString directory;
    std::uint64_t generation = 0;  // userCatalogGeneration() when read
    std::vector<EngineProfile> engines;
    QStringList problems;  // one line when the file was refused: "PATH: FIELD ..."
};

// Read once per directory and kept until reloadUserCatalogs() (which saveUserEngine calls). Any thread.
std::shared_ptr<const UserEngines> userEngines();

// The file's engines, refused as a whole when the strict reader refuses it or an id (without regard to case) is one
// a built-in engine answers to. `label` names the file in messages.
Result<std::vector<EngineProfile>> parseUserEngineCatalog(const QByteArray& json, const QString& label);

// Built-in engines first, then the user's.
std::vector<EngineProfile> allEngines();
bool isUserEngine(const QString& id);
QString engineIds();  // "generic, vllm, sglang, ...", the user's after the built-in ones, for messages

// Adds one engine to the user's engines.json (core/model/catalog/user_catalog_file.h: nothing is written when the id
// is taken, the file does not read or the new file would not read back); returns the path written.
Result<QString> saveUserEngine(const EngineProfile& engine);

// An engine as asked for: NAME or NAME@VERSION, matched without regard to case against ids and aliases.
struct EngineSelection {
    std::shared_ptr<const EngineProfile> profile;  // a built-in one, or one of the user's catalog as it was read
    QString version;                               // as given; empty when none was
    QString fallbackNote;  // set when the version is outside what the profile covers: what is used instead

    // Whether this version of the engine splits decode attention over the KV length (EngineProfile::decodeSplit);
    // no version: the newest the profile covers.
    bool splitsDecodeAttention() const;
    // The all-reduce kernels this version of the engine runs over `link` between `gpus` GPUs of a node
    // (EngineProfile::allReduceKernels).
    AllReduceKernels allReduceKernels(const LinkSpec& link, int gpus) const;
    // The version's dotted digits: without a leading "v" (vLLM's tags) or "b" (llama.cpp's builds).
    QString versionNumber() const;
};

// The error names the known engines (and why the user's file was not read, if it was not); a version that is not a
// dotted number is refused, one outside the profile's versions is accepted with a fallback note.
Result<EngineSelection> selectEngine(QStringView spec);
EngineSelection genericEngine();

}  // namespace ridgeline
