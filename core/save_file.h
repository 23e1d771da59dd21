#pragma once
// THE writer of every file Ridgeline writes (sessions, CSV tables, PNG/SVG/PDF images, decks, catalogs,
// calibrations), so that a failure changes nothing on disk:
// - a target that exists and is not a regular file (a folder, a FIFO, a device such as /dev/null, or a symlink to
//   one) is refused: an atomic save would rename a regular file over it;
// - the bytes go to a temporary file (QSaveFile) renamed over the target only once every byte is on the disk: a
//   short write and a failed flush of the last buffered bytes each cancel the save, so a full disk leaves the
//   previous file byte for byte and says so.
// Messages start with the path: "PATH: not saved: ...", "PATH: not saved, previous file kept: ...".

#include "core/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QIODevice;

namespace ridgeline {

struct FileContents {
    QString path;
    QByteArray bytes;
};

// One file. Returns nullopt on success.
std::optional<Error> saveFile(const QString& path, const QByteArray& bytes);

// Hands a piece of a streamed file to its writer: false once a write failed (stop producing; the save says why).
using WritePiece = std::function<bool(QByteArrayView piece)>;
// Writes the file's pieces in order; returns an error to cancel the save (the target is then left as it was).
using ProducePieces = std::function<std::optional<Error>(const WritePiece& write)>;

// One file written piece by piece as `produce` makes it, for a file too large to build whole in memory first (a
// session of a hundred thousand kernels); the same checks and messages as saveFile(). Returns nullopt on success.
std::optional<Error> saveStreamed(const QString& path, const ProducePieces& produce);

// Several files, all or nothing: every one is written to its temporary first, and none replaces its target
// unless all were written. (Only a failed rename after the first one leaves a mix; the error then names the
// files already replaced.)
std::optional<Error> saveFiles(const std::vector<FileContents>& files);

// The checks saveFile makes of a target before writing: nullopt when `path` may be written. For a writer that has
// work to do before it has bytes (rendering an image), so that a refused target costs nothing.
std::optional<Error> checkSaveTarget(const QString& path);

// What an encoder that writes to a device (QImage::save, QPdfWriter, QSvgGenerator) writes, in memory: `encode`
// returns false when it could not encode, and then so is the answer nullopt. For saveFiles() of several images.
std::optional<QByteArray> encodedBytes(const std::function<bool(QIODevice& device)>& encode);

// One encoded file: encodedBytes(), then saved as saveFile() saves it.
std::optional<Error> saveEncoded(const QString& path, const std::function<bool(QIODevice& device)>& encode);

}  // namespace ridgeline
