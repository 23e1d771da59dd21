#pragma once
// A real full disk for tests of writers: a tmpfs of a few KiB mounted for the lifetime of an object (ENOSPC, not a
// file size limit), and a filler that takes every byte left on it. Mounting needs root (CAP_SYS_ADMIN); error() says
// why when it could not be mounted, and the test then falls back to an injected failure or skips.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace ridgeline::test {

class SmallTmpfs {
public:
    SmallTmpfs(const QString& folder, int kib) : m_folder(QFile::encodeName(folder))
    {
        const QByteArray options = "size=" + QByteArray::number(kib) + 'k';
        if (mount("tmpfs", m_folder.constData(), "tmpfs", MS_NOSUID | MS_NODEV, options.constData()) == 0)
            m_mounted = true;
        else
            m_error = std::strerror(errno);
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            umount2(m_folder.constData(), MNT_DETACH);
    }
    SmallTmpfs(const SmallTmpfs&) = delete;
    SmallTmpfs& operator=(const SmallTmpfs&) = delete;
    bool mounted() const { return m_mounted; }
    const char* error() const { return m_error; }

private:
    QByteArray m_folder;
    bool m_mounted = false;
    const char* m_error = "";
};

// Writes `path` until the disk under it is full; true when a write ended in ENOSPC (the disk is now full).
inline bool fillDisk(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return false;
    const QByteArray block(4096, 'x');
    bool full = false;
    for (int i = 0; i < 1 << 20 && !full; ++i) {
        if (::write(fd, block.constData(), static_cast<size_t>(block.size())) < 0)
            full = errno == ENOSPC;
    }
    ::close(fd);
    return full;
}

}  // namespace ridgeline::test
