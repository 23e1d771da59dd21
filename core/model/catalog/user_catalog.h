#pragma once
// The user's own GPUs and models: $XDG_CONFIG_HOME/ridgeline/gpus.json and models.json (XDG_CONFIG_HOME
// unset or empty: ~/.config; engines.json beside them is core/model/llm/engine_catalog.h's), in the bundled catalogs'
// format and read by the same strict reader (core/model/catalog/catalog_json.h). Their entries come after the bundled
// ones wherever a catalog is listed or looked up (findGpu, findModel, `ridgeline catalog`, the batching tab).
//
// A user entry never takes a bundled id (nor "custom"), compared without case: sessions, decks and calibrations
// name bundled GPUs and models by id, and a file in a home directory must not change silently what those ids mean.
// Such an entry, like any other defect, refuses the whole file in one line naming the file and the field (as a
// session is refused); the bundled catalogs are then used alone and the line is shown wherever the catalog is
// listed, and in the "unknown GPU" message.

#include "core/model/catalog/catalog.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace ridgeline {

// $XDG_CONFIG_HOME/ridgeline, else ~/.config/ridgeline (the XDG base directory rule: a relative
// XDG_CONFIG_HOME is ignored).
QString userCatalogDirectory();
QString userGpuCatalogPath();
QString userModelCatalogPath();

struct UserCatalogs {
    QString directory;
    std::vector<GpuSpec> gpus;      // empty when the file is missing or refused
    std::vector<ModelSpec> models;  // likewise
    QStringList problems;           // one line per refused file: "PATH: FIELD ..."
};

// The user's catalogs as they are on disk, read once per directory and kept until reloadUserCatalogs() (called by
// the savers below) or until XDG_CONFIG_HOME names another directory. Safe to call from any thread.
std::shared_ptr<const UserCatalogs> userCatalogs();
void reloadUserCatalogs();
// How many times reloadUserCatalogs() ran: a cache of another file of the user's catalog (the engines,
// core/model/llm/engine_catalog.h) is read again when it changes.
std::uint64_t userCatalogGeneration();

// A user catalog file's entries, refused as a whole when the strict reader refuses it or an entry takes a bundled id.
// `label` names the file in messages.
Result<std::vector<GpuSpec>> parseUserGpuCatalog(const QByteArray& json, const QString& label);
Result<std::vector<ModelSpec>> parseUserModelCatalog(const QByteArray& json, const QString& label);

// Bundled entries first, then the user's.
std::vector<GpuSpec> allGpus();
std::vector<ModelSpec> allModels();
bool isUserGpu(const QString& id);
bool isUserModel(const QString& id);

// Adds one entry to the user's catalog file (creating the folder and the file), written through saveFile
// (core/save_file.h); returns the path written. Nothing is written when the id is bundled, "custom" or already in the
// file, when the existing file does not read (it is never overwritten: fix or move it first), or when the entry would
// not read back.
Result<QString> saveUserGpu(const GpuSpec& gpu);
Result<QString> saveUserModel(const ModelSpec& model);

// A bundled entry, else one of the user's own (core/model/catalog/user_catalog.h); ids compare without case.
Result<GpuSpec> findGpu(QStringView id);
Result<ModelSpec> findModel(QStringView id);

}  // namespace ridgeline
