#include "core/read_file.h"

#include "core/message_text.h"

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

Result<QByteArray> readFileUpTo(const QString& path, const QString& what, std::int64_t maxBytes, const QString& limit)
{
    if (std::optional<Error> unreadable = checkReadableFile(path, what))
        return Error{unreadable->code, oneLine(unreadable->message)};
    const auto refuse = [&path](Error::Code code, const QString& detail) {
        return Error{code, oneLine(path + u": "_s + detail)};
    };
    const auto tooLarge = [&](const QString& size) {
        return refuse(Error::Code::Range, u"the file is "_s + size + u" bytes; "_s + limit);
    };
    if (const qint64 size = QFileInfo(path).size(); size > maxBytes)
        return tooLarge(QString::number(size));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(Error::Code::Io, u"cannot open: "_s + file.errorString());
    QByteArray bytes = readAtMost(file, maxBytes);
    if (file.error() != QFileDevice::NoError)
        return refuse(Error::Code::Io, u"cannot read: "_s + file.errorString());
    if (bytes.size() > maxBytes)
        return tooLarge(u"more than "_s + QString::number(maxBytes));
    return bytes;
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
