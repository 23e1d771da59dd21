#include "core/save_file.h"

#include "core/message_text.h"

#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cerrno>
#include <memory>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

Error notSaved(const QString& path, Error::Code code, const QString& detail)
{
    return Error{code, path + u": "_s + oneLine(detail)};
}

// Checks the target, opens its temporary and writes every byte; the caller commits.
Result<std::unique_ptr<QSaveFile>> writeTemporary(const QString& path, const QByteArray& bytes)
{
    const QFileInfo info(path);
    // QSaveFile would rename its temporary file over a device node such as /dev/full.
    if (info.exists() && !info.isFile())
        return notSaved(path, Error::Code::Io, u"not saved: not a regular file"_s);
    if (!QFileInfo(info.absolutePath()).isDir())
        return notSaved(path, Error::Code::NotFound,
                        u"not saved: the folder "_s + info.absolutePath() + u" does not exist"_s);
    auto file = std::make_unique<QSaveFile>(path);
    if (!file->open(QIODevice::WriteOnly))
        return notSaved(path, Error::Code::Io, u"not saved: cannot write in this folder: "_s + file->errorString());
    errno = 0;
    const qint64 written = file->write(bytes);
    // A short write sets no QFileDevice error, and commit() would then install the truncated file: check the
    // count and keep errno for the message.
    if (written != bytes.size()) {
        const QString reason = errno != 0 ? qt_error_string(errno) : file->errorString();
        file->cancelWriting();
        return notSaved(path, Error::Code::Io,
                        u"not saved, previous file kept: wrote only "_s +
                            QString::number(std::max<qint64>(written, 0)) + u" of "_s + QString::number(bytes.size()) +
                            u" bytes: "_s + reason);
    }
    return file;
}

}  // namespace

std::optional<Error> saveFile(const QString& path, const QByteArray& bytes)
{
    return saveFiles({FileContents{path, bytes}});
}

std::optional<Error> saveFiles(const std::vector<FileContents>& files)
{
    std::vector<std::unique_ptr<QSaveFile>> temporaries;
    for (const FileContents& file : files) {
        Result<std::unique_ptr<QSaveFile>> written = writeTemporary(file.path, file.bytes);
        if (!written) {
            for (const auto& temporary : temporaries)
                temporary->cancelWriting();
            return written.error();
        }
        temporaries.push_back(std::move(written).value());
    }
    QStringList replaced;
    for (std::size_t i = 0; i < temporaries.size(); ++i) {
        if (!temporaries[i]->commit()) {
            for (std::size_t j = i + 1; j < temporaries.size(); ++j)
                temporaries[j]->cancelWriting();
            QString detail = u"not saved, previous file kept: "_s + temporaries[i]->errorString();
            if (!replaced.isEmpty())
                detail += u" (already written: "_s + replaced.join(u", "_s) + u')';
            return notSaved(files[i].path, Error::Code::Io, detail);
        }
        replaced << files[i].path;
    }
    return std::nullopt;
}

}  // namespace ridgeline
