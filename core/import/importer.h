#pragma once
// The one entry point for importing profiler output, shared by `ridgeline import` and the window's
// File > Import: read a file, detect or check its format, and parse it all-or-nothing.

#include "core/import/import_format.h"
#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ridgeline {

// Every error message starts with the file name and says where (line and column) and what is wrong; on
// error nothing was imported. Files above 100 MB are refused before parsing.
Result<ImportResult> importFile(const QString& path, ImportFormat format = ImportFormat::Auto);

// The same for bytes already in memory (drag and drop, tests); fileName is used in messages and sources.
Result<ImportResult> importBytes(const QByteArray& bytes, const QString& fileName,
                                 ImportFormat format = ImportFormat::Auto);

// A file already in memory, for importInputs.
struct ImportInput {
    QString fileName;  // used in messages and sources
    QByteArray bytes;
};

// Several files at once, all or nothing, each as importFile reads it, except that likwid-perfctr files of one
// program with a group each (FLOPS_DP in one, L3 or MEM in another) are read as one run (importLikwidTogether):
// their regions become kernels with FLOPs and bytes. The results follow the order of the paths.
Result<std::vector<ImportResult>> importFiles(const QStringList& paths, ImportFormat format = ImportFormat::Auto);
// The same for files already in memory (importFiles reads them, then calls this; the fuzzer calls it directly).
Result<std::vector<ImportResult>> importInputs(const std::vector<ImportInput>& inputs,
                                               ImportFormat format = ImportFormat::Auto);

// Why an import gives nothing (no kernel and no ceiling), summing up the skipped kernels' reasons; nullopt
// when it gives something. importFile and importBytes refuse such a file with this message.
std::optional<QString> nothingImported(const ImportResult& result);

}  // namespace ridgeline
