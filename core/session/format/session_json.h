#pragma once
// The session file format: a Session as sorted, indented JSON, and back again with strict validation.
//
// A loaded file is either a whole, validated Session or an Error whose one-line message names the file,
// the field (e.g. "kernels[3].gflops") and what is wrong with it; never a half-filled Session.

#include "core/result.h"
#include "core/session/session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>

namespace ridgeline {

// Files above this size are refused before a byte is read: a real session is a few hundred KiB.
inline constexpr std::int64_t kMaxSessionFileBytes = std::int64_t{256} * 1024 * 1024;

QJsonObject sessionToJsonObject(const Session& session);

// Indented, keys sorted (QJsonDocument sorts them), so two sessions diff cleanly.
QByteArray sessionToJson(const Session& session);

// sourceName prefixes every error message; loadSession passes the path it was given. The bytes are released once
// parsed (pass them with std::move to free the memory while the session is built).
Result<Session> sessionFromJson(QByteArray bytes, const QString& sourceName);

Result<Session> loadSession(const QString& path);

// Writes through saveFile (core/save_file.h), so a failed save leaves any previous file untouched. Refuses a session
// that would not load back (NaN, negative times, ...), naming the field. Returns nullopt on success.
std::optional<Error> saveSession(const Session& session, const QString& path);

}  // namespace ridgeline
