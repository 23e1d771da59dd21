#include "core/save_file.h"

#include "core/message_text.h"

#include <QBuffer>
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

// The system's reason (errno when the failing call left it, else Qt's text of it), with a full disk said in words a
// user acts on.
QString reasonOf(int error, const QString& qtReason)
{
    const QString reason = error != 0 ? qt_error_string(error) : qtReason;
    if (error == ENOSPC || error == EDQUOT || reason == qt_error_string(ENOSPC) || reason == qt_error_string(EDQUOT))
        return u"the disk is full: "_s + reason;
    return reason;
}

Error keptPrevious(const QString& path, const QString& detail)
{
    return notSaved(path, Error::Code::Io, u"not saved, previous file kept: "_s + detail);
}

// Checks the target and opens its temporary.
Result<std::unique_ptr<QSaveFile>> openTemporary(const QString& path)
{
    if (std::optional<Error> refused = checkSaveTarget(path))
        return *refused;
    auto file = std::make_unique<QSaveFile>(path);
    if (!file->open(QIODevice::WriteOnly))
        return notSaved(path, Error::Code::Io, u"not saved: cannot write in this folder: "_s + file->errorString());
    return file;
}

// Writes one piece whole, or cancels the file and says how far it got (`before`: bytes written by earlier pieces;
// `total`: the whole file's size when known, else -1).
std::optional<Error> writePiece(QSaveFile& file, const QString& path, QByteArrayView piece, qint64 before, qint64 total)
{
    errno = 0;
    const qint64 written = file.write(piece.data(), piece.size());
    // A short write sets no QFileDevice error, and commit() would then install the truncated file: check the
    // count and keep errno for the message.
    if (written == piece.size())
        return std::nullopt;
    const QString reason = reasonOf(errno, file.errorString());
    file.cancelWriting();
    QString detail = u"wrote only "_s + QString::number(before + std::max<qint64>(written, 0));
    if (total >= 0)
        detail += u" of "_s + QString::number(total);
    return keptPrevious(path, detail + u" bytes: "_s + reason);
}

// QFileDevice keeps small writes in a buffer that commit() flushes, and commit() renames the temporary over the
// target even when that flush fails (a full disk then leaves an empty file): flush here and check.
std::optional<Error> flushTemporary(QSaveFile& file, const QString& path)
{
    errno = 0;
    if (file.flush())
        return std::nullopt;
    const QString reason = reasonOf(errno, file.errorString());
    file.cancelWriting();
    return keptPrevious(path, u"could not write the last bytes: "_s + reason);
}

// Checks the target, opens its temporary and writes every byte down to the disk; the caller commits.
Result<std::unique_ptr<QSaveFile>> writeTemporary(const QString& path, const QByteArray& bytes)
{
    Result<std::unique_ptr<QSaveFile>> file = openTemporary(path);
    if (!file)
        return file;
    if (std::optional<Error> failed = writePiece(*file.value(), path, bytes, 0, bytes.size()))
        return *failed;
    if (std::optional<Error> failed = flushTemporary(*file.value(), path))
        return *failed;
    return file;
}

}  // namespace

std::optional<Error> checkSaveTarget(const QString& path)
{
    // QFileInfo follows symlinks: a link to /dev/null is a device here, and refused with it. QSaveFile would rename
    // its temporary over a device node, a FIFO or the link, putting a regular file where they were.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return notSaved(path, Error::Code::Io, u"not saved: not a regular file"_s);
    if (!QFileInfo(info.absolutePath()).isDir())
        return notSaved(path, Error::Code::NotFound,
                        u"not saved: the folder "_s + info.absolutePath() + u" does not exist"_s);
    return std::nullopt;
}

std::optional<Error> saveEncoded(const QString& path, const std::function<bool(QIODevice& device)>& encode)
{
    if (std::optional<Error> refused = checkSaveTarget(path))
        return refused;
    const std::optional<QByteArray> bytes = encodedBytes(encode);
    if (!bytes)
        return notSaved(path, Error::Code::Io, u"not saved: the image could not be encoded"_s);
    return saveFile(path, *bytes);
}

std::optional<QByteArray> encodedBytes(const std::function<bool(QIODevice& device)>& encode)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!encode(buffer))
        return std::nullopt;
    buffer.close();
    return bytes;
}

std::optional<Error> saveFile(const QString& path, const QByteArray& bytes)
{
    return saveFiles({FileContents{path, bytes}});
}

std::optional<Error> saveStreamed(const QString& path, const ProducePieces& produce)
{
    Result<std::unique_ptr<QSaveFile>> opened = openTemporary(path);
    if (!opened)
        return opened.error();
    QSaveFile& file = *opened.value();
    qint64 written = 0;
    std::optional<Error> failedWrite;
    const WritePiece write = [&](QByteArrayView piece) {
        if (failedWrite)
            return false;
        failedWrite = writePiece(file, path, piece, written, -1);
        written += piece.size();
        return !failedWrite.has_value();
    };
    std::optional<Error> refused = produce(write);
    if (failedWrite)
        return failedWrite;
    if (refused) {
        file.cancelWriting();
        return refused;
    }
    if (std::optional<Error> failed = flushTemporary(file, path))
        return failed;
    if (!file.commit())
        return notSaved(path, Error::Code::Io, u"not saved, previous file kept: "_s + file.errorString());
    return std::nullopt;
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
