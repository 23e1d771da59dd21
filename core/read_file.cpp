#include "core/read_file.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

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

QByteArray readAtMost(QFile& file, qint64 limit)
{
    constexpr qint64 kBlock = qint64{1} << 20;
    // The size it says, and one byte more to see whether it holds more than that.
    QByteArray bytes = file.read(std::min(file.size(), limit) + 1);
    while (bytes.size() <= limit && file.error() == QFileDevice::NoError) {
        const QByteArray more = file.read(std::min(kBlock, limit + 1 - bytes.size()));
        if (more.isEmpty())
            break;
        bytes += more;
    }
    return bytes;
}

}  // namespace ridgeline
