#include "core/import/importer.h"

#include "core/import/csv_import.h"
#include "core/import/ert_import.h"
#include "core/import/import_text.h"
#include "core/import/likwid_import.h"
#include "core/import/ncu_import.h"

#include <QFileInfo>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString describeFormat(ImportFormat format)
{
    switch (format) {
    case ImportFormat::NsightCompute: return u"Nsight Compute CSV"_s;
    case ImportFormat::Ert: return u"ERT roofline.json"_s;
    case ImportFormat::Likwid: return u"likwid-perfctr CSV"_s;
    case ImportFormat::PlainCsv: return u"plain CSV"_s;
    case ImportFormat::Auto: break;
    }
    return u"auto"_s;
}

Result<ImportResult> parse(const QByteArray& bytes, const QString& fileName, ImportFormat format)
{
    if (format == ImportFormat::Ert)
        return importErt(bytes, fileName);
    const auto text = decodeImportText(bytes);
    if (!text.ok())
        return text.error();
    switch (format) {
    case ImportFormat::NsightCompute: return importNsightCompute(text.value(), fileName);
    case ImportFormat::Likwid: return importLikwid(text.value(), fileName);
    case ImportFormat::PlainCsv: return importPlainCsv(text.value(), fileName);
    case ImportFormat::Ert:
    case ImportFormat::Auto: break;
    }
    return makeError(Error::Code::InvalidArgument, u"no format given"_s);
}

}  // namespace

Result<ImportResult> importBytes(const QByteArray& bytes, const QString& fileName, ImportFormat format)
{
    if (bytes.size() > kMaxImportFileBytes)
        return makeError(Error::Code::Range, fileName + u": larger than 100 MB; refused"_s);
    if (bytes.trimmed().isEmpty())
        return makeError(Error::Code::Parse, fileName + u": the file is empty"_s);
    if (format == ImportFormat::Auto) {
        const auto decoded = decodeImportText(bytes);  // binary garbage is named as such, not "unknown format"
        if (!decoded.ok())
            return makeError(decoded.error().code, fileName + u": "_s + decoded.error().message);
        const auto detected = detectFormat(bytes, fileName);
        if (!detected.ok())
            return detected.error();
        format = detected.value();
    }
    auto result = parse(bytes, fileName, format);
    if (!result.ok())
        return makeError(result.error().code, fileName + u" ("_s + describeFormat(format) + u"): "_s
                                                  + result.error().message);
    return result;
}

Result<ImportResult> importFile(const QString& path, ImportFormat format)
{
    const auto bytes = readImportFile(path);
    if (!bytes.ok())
        return bytes.error();
    return importBytes(bytes.value(), QFileInfo(path).fileName(), format);
}

}  // namespace ridgeline
