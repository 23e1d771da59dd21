#include "core/read_file.h"

#include <QFileInfo>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

std::optional<Error> checkReadableFile(const QString& path, const QString& what)
{
    const QFileInfo info(path);
    if (!info.exists())
        return Error{Error::Code::NotFound, path + u": no such file"_s};
    if (info.isDir())
        return Error{Error::Code::Io, path + u": is a folder, not a "_s + what};
    if (!info.isFile())
        return Error{Error::Code::Io, path + u": not a regular file (a FIFO, a device or a socket): a "_s + what +
                                          u" is read from a file"_s};
    return std::nullopt;
}

}  // namespace ridgeline
