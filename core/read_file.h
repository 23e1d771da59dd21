#pragma once
// THE check every reader of a user's file makes before opening it (sessions, decks, imports, benchmark results):
// the path must name a regular file, after symlinks. Opening a FIFO blocks until some writer comes, and a device
// such as /dev/urandom or /dev/zero never ends, so neither is opened at all.

#include "core/result.h"

#include <QString>

#include <optional>

namespace ridgeline {

// Nothing when `path` is a regular file; else "PATH: no such file" (NotFound), "PATH: is a folder, not a WHAT" or
// "PATH: not a regular file (a FIFO, a device or a socket): a WHAT is read from a file" (Io). `what` names the
// file's kind: "session file", "deck", "file to import".
std::optional<Error> checkReadableFile(const QString& path, const QString& what);

}  // namespace ridgeline
