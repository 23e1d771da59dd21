#pragma once
// The import formats by name, and detection of a file's format from its first bytes.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace ridgeline {

// "ncu", "ert", "likwid", "csv" (and "auto").
QString formatName(ImportFormat format);
// Accepts the names above; nullopt-like Error for anything else.
Result<ImportFormat> formatFromName(const QString& name);

// Looks at the text (BOM and profiler log lines allowed) and the file name's suffix; never Auto on success.
Result<ImportFormat> detectFormat(const QByteArray& bytes, const QString& fileName);

}  // namespace ridgeline
