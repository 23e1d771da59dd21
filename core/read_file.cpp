#include "core/read_file.h"

#include "core/message_text.h"

#include <QFile>
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
    QByteArray bytes = file.read(maxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return refuse(Error::Code::Io, u"cannot read: "_s + file.errorString());
    if (bytes.size() > maxBytes)
        return tooLarge(u"more than "_s + QString::number(maxBytes));
    return bytes;
}

}  // namespace ridgeline
