#pragma once
// What the loader fuzz targets check of every refusal, and how they stop on a broken promise.
#include <QString>

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

}  // namespace ridgeline::fuzz
