#pragma once
// The body shared by the importer fuzz targets (issue 7): any bytes given to one importer give an
// ImportResult or a one-line Error naming the file, never a crash, a leak or a sanitizer report; and what
// imports goes into a session that saves to JSON which loads back (the session loader is the judge).
#include "core/import/import_session.h"
#include "core/import/importer.h"
#include "core/session/session_json.h"

#include <QByteArray>
#include <QString>

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

inline int importOneInput(const std::uint8_t* data, std::size_t size, ImportFormat format, const QString& fileName)
{
    // fromRawData: no copy and no terminating NUL, so ASan sees any read past the input's last byte.
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const Result<ImportResult> imported = importBytes(bytes, fileName, format);
    if (!imported.ok()) {
        const QString& message = imported.error().message;
        // "kernels.csv: ..." or "kernels.csv (plain CSV): line 3, column 2: ...".
        if (!message.startsWith(fileName) || message.size() <= fileName.size() + 2)
            fail("an error message does not name the file", message);
        if (message.contains(u'\n'))
            fail("an error message is more than one line", message);
        return 0;
    }
    const Result<Session> session = sessionWithImports(std::nullopt, {imported.value()});
    if (!session.ok())
        return 0;  // e.g. nothing to import: refused with a message, which is fine
    const QByteArray saved = sessionToJson(session.value());
    const Result<Session> reloaded = sessionFromJson(saved, QStringLiteral("imported.json"));
    if (!reloaded.ok())
        fail("an imported session saved to JSON that does not load back", reloaded.error().message);
    return 0;
}

}  // namespace ridgeline::fuzz
