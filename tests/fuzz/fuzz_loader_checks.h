#pragma once
// What the loader fuzz targets check of every refusal and of what they write back, and how they stop on a broken
// promise.
#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace ridgeline::fuzz {

[[noreturn]] inline void fail(const char* target, const char* what, const QString& detail)
{
    std::fprintf(stderr, "%s: %s: %s\n", target, what, detail.toUtf8().constData());
    std::abort();
}

// A refusal is one line that starts with the input's name: "talk.json: scenes[0].kind is ...".
inline void checkRefusal(const char* target, const QString& source, const QString& message)
{
    if (!message.startsWith(source + QStringLiteral(": ")) || message.size() <= source.size() + 2)
        fail(target, "an error message does not name the source", message);
    if (message.contains(u'\n'))
        fail(target, "an error message is more than one line", message);
}

// The input without a copy and without a terminating NUL, so ASan sees any read past its last byte.
inline QByteArray inputBytes(const std::uint8_t* data, std::size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

// read(bytes, source)'s result; a refusal is checked here, so the target goes on only with what was read.
template <typename Read>
auto readOrCheckRefusal(const char* target, const QByteArray& bytes, const QString& source, Read read)
{
    auto result = read(bytes, source);
    if (!result.ok())
        checkRefusal(target, source, result.error().message);
    return result;
}

// The writer's promise: what it wrote of something read reads back, and writes out byte for byte the same.
template <typename Read, typename Write>
void checkWritesBack(const char* target, const QByteArray& written, const QString& source, Read read, Write write)
{
    const auto again = read(written, source);
    if (!again.ok())
        fail(target, "what was read wrote JSON that does not read back", again.error().message);
    if (write(again.value()) != written)
        fail(target, "what was read changed when written, read and written again", QString::fromUtf8(written));
}

}  // namespace ridgeline::fuzz
