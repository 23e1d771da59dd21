// libFuzzer target for likwid-perfctr files read together: one-group logs of one run
// (FLOPS_DP_N.log, L3_N.log, ...) merge into one import (core importInputs -> importLikwidTogether), else each is
// read alone. The input is split into up to four files at the byte 0x1E (ASCII record separator, in the
// dictionary); the checks are in fuzz_import.h: one-line errors naming a file, sessions that save and load back.
#include "core/import/importer.h"
#include "tests/fuzz/fuzz_import.h"

#include <array>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline;
    static const std::array<QString, 4> kNames = {QStringLiteral("FLOPS_DP_64.log"), QStringLiteral("L3_64.log"),
                                                  QStringLiteral("MEM_64.log"), QStringLiteral("L2CACHE_64.log")};
    const char* bytes = reinterpret_cast<const char*>(data);
    std::vector<ImportInput> files;
    QStringList names;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= size && files.size() < kNames.size(); ++i) {
        const bool last = files.size() + 1 == kNames.size();
        if (i < size && (bytes[i] != '\x1e' || last))
            continue;
        if (last)
            i = size;  // the fourth file takes the rest, separators and all
        // fromRawData: no copy and no terminating NUL, so ASan sees any read past a file's last byte.
        files.push_back(ImportInput{kNames[files.size()],
                                    QByteArray::fromRawData(bytes + start, static_cast<qsizetype>(i - start))});
        names.append(files.back().fileName);
        start = i + 1;
    }
    const Result<std::vector<ImportResult>> imported = importInputs(files, ImportFormat::Likwid);
    if (!imported.ok()) {
        fuzz::checkError(imported.error(), names);
        return 0;
    }
    fuzz::checkSaves(imported.value());
    return 0;
}
