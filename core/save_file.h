#pragma once
// Writing files so that a failure changes nothing on disk: every file goes through QSaveFile (a temporary
// renamed over the target only when all bytes are written), and a short write (disk full, size limit) is
// caught before that rename. Messages start with the path: "PATH: not saved: ...".

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

struct FileContents {
    QString path;
    QByteArray bytes;
};

// One file. Returns nullopt on success.
std::optional<Error> saveFile(const QString& path, const QByteArray& bytes);

// Several files, all or nothing: every one is written to its temporary first, and none replaces its target
// unless all were written. (Only a failed rename after the first one leaves a mix; the error then names the
// files already replaced.)
std::optional<Error> saveFiles(const std::vector<FileContents>& files);

}  // namespace ridgeline
