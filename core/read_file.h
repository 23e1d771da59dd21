#pragma once
// THE check every reader of a user's file makes before opening it (sessions, decks, imports, benchmark results):
// the path must name a regular file, after symlinks. Opening a FIFO blocks until some writer comes, and a device
// such as /dev/urandom or /dev/zero never ends, so neither is opened at all. And the one way such a file is read
// whole under a size limit.

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>

class QFile;

namespace ridgeline {

// Nothing when `path` is a regular file; else "PATH: no such file" (NotFound), "PATH: is a folder, not a WHAT" or
// "PATH: not a regular file (a FIFO, a device or a socket): a WHAT is read from a file" (Io). `what` names the
// file's kind: "session file", "deck", "file to import".
std::optional<Error> checkReadableFile(const QString& path, const QString& what);

// The bytes of a user's file that passes checkReadableFile(path, what) and holds at most maxBytes; else
// "PATH: the file is N bytes; LIMIT" (Range), `limit` in the reader's words ("session files larger than 256 MiB are
// refused"), or "PATH: cannot open: ..." / "PATH: cannot read: ..." (Io). One byte past the limit is read, so that a
// file that grew since it was measured (or a /proc file, which says it is empty) is refused too. Messages are one
// line.
Result<QByteArray> readFileUpTo(const QString& path, const QString& what, std::int64_t maxBytes, const QString& limit);

// At most limit + 1 bytes of an open file: one byte past the limit tells a file too large (or one that grew since
// its size was checked) from one that fits. Memory is taken for what the file holds, not for the limit:
// QIODevice::read(limit + 1) reserves twice the limit (512 MiB for a session) even for a file of a few bytes.
// A file that says its size is 0 (/proc) is read a block at a time. Errors are left in file.error().
QByteArray readAtMost(QFile& file, qint64 limit);

}  // namespace ridgeline
