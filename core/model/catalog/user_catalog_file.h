#pragma once
// Reading and adding to one of the user's catalog files (user_catalog.h): GPUs and models here, engines in
// core/model/llm/engine_catalog. One home for the rules every such file keeps: a missing file is no error, a huge
// one is refused unread, an entry is added only to a file that reads, under an id the file does not have yet, and
// only when the new file reads back; the file is written through saveFile (core/save_file.h) and the cached catalogs
// are dropped.

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <optional>
#include <vector>

namespace ridgeline {

// The bytes of a user catalog file; an empty optional when there is none (not an error: most users have none).
Result<std::optional<QByteArray>> readUserCatalogFile(const QString& path);
// Creates the file's folder and writes the bytes (core/save_file.h), then reloadUserCatalogs().
std::optional<Error> writeUserCatalogFile(const QString& path, const QByteArray& json);

// Ids compare without case, wherever the user's entries meet each other or the bundled ones.
inline bool sameCatalogId(const QString& a, const QString& b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

// Reads the user's file again (never trusting a cache: it may have changed on disk), adds the entry, checks that
// the new file reads back with it, and writes it; returns the path written. `what` names the kind ("a GPU").
template <typename Spec>
Result<QString> addUserCatalogEntry(const Spec& entry, const QString& path,
                                    Result<std::vector<Spec>> (*parseFile)(const QByteArray&, const QString&),
                                    QByteArray (*toJson)(const std::vector<Spec>&), const char* what)
{
    const Result<std::optional<QByteArray>> bytes = readUserCatalogFile(path);
    if (!bytes)
        return makeError(bytes.error().code, bytes.error().message + QStringLiteral("; nothing written"));
    std::vector<Spec> entries;
    if (bytes.value()) {
        Result<std::vector<Spec>> existing = parseFile(*bytes.value(), path);
        if (!existing)
            return makeError(existing.error().code,
                             existing.error().message +
                                 QStringLiteral("; nothing written: the file is kept as it is (fix or move it, then "
                                                "save again)"));
        entries = std::move(existing).value();
    }
    if (std::any_of(entries.begin(), entries.end(), [&](const Spec& s) { return sameCatalogId(s.id, entry.id); }))
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("%1: your catalog already has %2 with the id \"%3\"; nothing written "
                                        "(choose another id)")
                             .arg(path, QLatin1String(what), entry.id));
    entries.push_back(entry);
    const QByteArray json = toJson(entries);
    if (const Result<std::vector<Spec>> back = parseFile(json, path); !back)
        return makeError(back.error().code, back.error().message + QStringLiteral("; nothing written"));
    if (const std::optional<Error> failed = writeUserCatalogFile(path, json))
        return *failed;
    return path;
}

}  // namespace ridgeline
