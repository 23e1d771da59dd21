#pragma once
// The body shared by the importer fuzz targets: any bytes given to one importer give an
// ImportResult or a one-line Error naming the file, never a crash, a leak or a sanitizer report; and what
// imports goes into a session that saves to JSON which loads back (the session loader is the judge).
#include "core/import/import_session.h"
#include "core/import/importer.h"
#include "core/session/format/session_json.h"
#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace ridgeline::fuzz {

[[noreturn]] inline void fail(const char* what, const QString& detail)
{
    std::fprintf(stderr, "fuzz import: %s: %s\n", what, detail.toUtf8().constData());
    std::abort();
}

// Every error names one of the files it read and is one line.
inline void checkError(const Error& error, const QStringList& fileNames)
{
    const QString& message = error.message;
    // "kernels.csv: ...", "kernels.csv (plain CSV): line 3, column 2: ..." or "a.log + b.log (likwid...): ...".
    const bool named = std::any_of(fileNames.begin(), fileNames.end(), [&](const QString& name) {
        return message.startsWith(name) && message.size() > name.size() + 2;
    });
    if (!named)
        fail("an error message does not name the file", message);
    if (message.contains(u'\n'))
        fail("an error message is more than one line", message);
}

// Every session imports are placed in saves to JSON which loads back (the session loader is the judge).
inline void checkSaves(const std::vector<ImportResult>& imports)
{
    for (const Session& session : placeImports(std::nullopt, imports).sessions) {
        const QByteArray saved = sessionToJson(session);
        const Result<Session> reloaded = sessionFromJson(saved, QStringLiteral("imported.json"));
        if (!reloaded.ok())
            fail("an imported session saved to JSON that does not load back", reloaded.error().message);
    }
}

inline int importOneInput(const std::uint8_t* data, std::size_t size, ImportFormat format, const QString& fileName)
{
    const QByteArray bytes = inputBytes(data, size);
    const Result<ImportResult> imported = importBytes(bytes, fileName, format);
    if (!imported.ok()) {
        checkError(imported.error(), {fileName});
        return 0;
    }
    checkSaves({imported.value()});
    return 0;
}

}  // namespace ridgeline::fuzz
