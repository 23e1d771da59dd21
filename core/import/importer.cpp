#include "core/import/importer.h"

#include "core/import/ceilings/ert_import.h"
#include "core/import/ceilings/rocprof_import.h"
#include "core/import/likwid/likwid_import.h"
#include "core/import/ncu/ncu_import.h"
#include "core/import/plain_csv/csv_import.h"
#include "core/import/text/import_text.h"
#include "core/utf8_text.h"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString describeFormat(ImportFormat format)
{
    switch (format) {
        case ImportFormat::NsightCompute:
            return u"Nsight Compute CSV"_s;
        case ImportFormat::Ert:
            return u"ERT roofline.json"_s;
        case ImportFormat::Likwid:
            return u"likwid-perfctr output"_s;
        case ImportFormat::PlainCsv:
            return u"plain CSV"_s;
        case ImportFormat::RocprofRoofline:
            return u"rocprof-compute roofline.csv"_s;
        case ImportFormat::Auto:
            break;
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
        case ImportFormat::NsightCompute:
            return importNsightCompute(text.value(), fileName);
        case ImportFormat::Likwid:
            return importLikwid(text.value(), fileName);
        case ImportFormat::PlainCsv:
            return importPlainCsv(text.value(), fileName);
        case ImportFormat::RocprofRoofline:
            return importRocprofRoofline(text.value(), fileName);
        case ImportFormat::Ert:
        case ImportFormat::Auto:
            break;
    }
    return makeError(Error::Code::InvalidArgument, u"no format given"_s);
}

// Messages quote text from the file, which may hold line breaks (in a quoted CSV field) or other control
// characters: escape them so that every message stays one line.
Error oneLine(Error error)
{
    QString text;
    text.reserve(error.message.size());
    for (const QChar c : std::as_const(error.message)) {
        const char16_t code = c.unicode();
        if (code < 0x20 || code == 0x7f || code == 0x85 || code == 0x2028 || code == 0x2029)
            text += u"\\u"_s + QString::number(code, 16).rightJustified(4, u'0');
        else
            text += c;
    }
    error.message = text;
    return error;
}

}  // namespace

std::optional<QString> nothingImported(const ImportResult& result)
{
    if (!result.kernels.empty() || result.hasCeilings())
        return std::nullopt;
    // The same reason for many kernels is said once, with its count.
    QStringList reasons;
    QList<int> counts;
    int kernels = 0;
    for (const SkippedRow& row : result.skipped) {
        if (row.what.isEmpty())
            continue;  // lines that are not part of the table
        ++kernels;
        const qsizetype at = reasons.indexOf(row.reason);
        if (at >= 0) {
            ++counts[at];
        } else {
            reasons.append(row.reason);
            counts.append(1);
        }
    }
    // rocprof-compute's roofline.csv and ERT hold ceilings, not kernels: say what was skipped.
    const bool ceilings = result.format == ImportFormat::RocprofRoofline || result.format == ImportFormat::Ert;
    if (kernels == 0)
        return ceilings ? u"nothing to import: the file has no ceiling"_s
                        : u"nothing to import: the file has no kernel"_s;
    QStringList parts;
    for (qsizetype i = 0; i < std::min<qsizetype>(reasons.size(), 3); ++i)
        parts.append(QString::number(counts[i]) + u" x "_s + reasons[i]);
    if (reasons.size() > 3)
        parts.append(QString::number(reasons.size() - 3) + u" other reasons"_s);
    return u"nothing to import: all "_s + QString::number(kernels) +
           (ceilings ? (kernels == 1 ? u" ceiling was"_s : u" ceilings were"_s)
                     : (kernels == 1 ? u" kernel was"_s : u" kernels were"_s)) +
           u" skipped ("_s + parts.join(u"; "_s) + u')';
}

namespace {

Result<ImportResult> importChecked(const QByteArray& bytes, const QString& fileName, ImportFormat format)
{
    if (bytes.size() > kMaxImportFileBytes)
        return makeError(Error::Code::Range, fileName + u": larger than 100 MB; refused"_s);
    if (isBlank(bytes))
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
        return makeError(result.error().code,
                         fileName + u" ("_s + describeFormat(format) + u"): "_s + result.error().message);
    if (result.value().kernels.size() > kMaxImportedKernels)
        return makeError(Error::Code::Range, fileName + u" ("_s + describeFormat(format) + u"): "_s + tooManyKernels());
    if (const auto nothing = nothingImported(result.value()))
        return makeError(Error::Code::Parse, fileName + u" ("_s + describeFormat(format) + u"): "_s + *nothing);
    return result;
}

}  // namespace

Result<ImportResult> importBytes(const QByteArray& bytes, const QString& fileName, ImportFormat format)
{
    auto result = importChecked(bytes, fileName, format);
    if (!result.ok())
        return oneLine(result.error());
    return result;
}

Result<ImportResult> importFile(const QString& path, ImportFormat format)
{
    const auto bytes = readImportFile(path);
    if (!bytes.ok())
        return oneLine(bytes.error());
    return importBytes(bytes.value(), QFileInfo(path).fileName(), format);
}

namespace {

struct Input {
    QString name;
    QByteArray bytes;
    ImportFormat format = ImportFormat::Auto;
};

// likwid runs of one program in several files (a group per file) read as one; nullopt when they cannot be.
std::optional<Result<ImportResult>> likwidTogether(const std::vector<Input>& inputs)
{
    std::vector<LikwidInput> likwid;
    for (const Input& input : inputs) {
        if (input.format != ImportFormat::Likwid || input.bytes.size() > kMaxImportFileBytes)
            continue;
        const auto text = decodeImportText(input.bytes);
        if (!text.ok())
            return std::nullopt;
        likwid.push_back(LikwidInput{input.name, text.value()});
    }
    if (likwid.size() < 2)
        return std::nullopt;
    auto together = importLikwidTogether(likwid);
    if (!together)
        return std::nullopt;
    QStringList names;
    for (const LikwidInput& input : likwid)
        names.append(input.fileName);
    const QString prefix = names.join(u" + "_s) + u" ("_s + describeFormat(ImportFormat::Likwid) + u"): "_s;
    if (!together->ok())
        return oneLine(makeError(together->error().code, prefix + together->error().message));
    if (const auto nothing = nothingImported(together->value()))
        return oneLine(makeError(Error::Code::Parse, prefix + *nothing));
    return together;
}

}  // namespace

Result<std::vector<ImportResult>> importFiles(const QStringList& paths, ImportFormat format)
{
    std::vector<ImportInput> read;
    for (const QString& path : paths) {
        auto bytes = readImportFile(path);
        if (!bytes.ok())
            return oneLine(bytes.error());
        read.push_back(ImportInput{QFileInfo(path).fileName(), std::move(bytes).value()});
    }
    return importInputs(read, format);
}

Result<std::vector<ImportResult>> importInputs(const std::vector<ImportInput>& read, ImportFormat format)
{
    std::vector<Input> inputs;
    for (const ImportInput& file : read) {
        Input input{file.fileName, file.bytes, format};
        if (input.format == ImportFormat::Auto) {
            const auto detected = detectFormat(input.bytes, input.name);
            input.format = detected.ok() ? detected.value() : ImportFormat::Auto;
        }
        inputs.push_back(std::move(input));
    }
    const auto likwid = likwidTogether(inputs);
    const auto likwidFiles = std::count_if(inputs.begin(), inputs.end(),
                                           [](const Input& input) { return input.format == ImportFormat::Likwid; });
    if (likwid && !likwid->ok())
        return likwid->error();
    std::vector<ImportResult> results;
    bool likwidDone = false;
    for (const Input& input : inputs) {
        if (likwid && input.format == ImportFormat::Likwid) {
            if (!likwidDone)
                results.push_back(likwid->value());
            likwidDone = true;
            continue;
        }
        auto result = importBytes(input.bytes, input.name, input.format);
        if (!result.ok() && input.format == ImportFormat::Likwid && likwidFiles > 1 &&
            result.error().message.contains(u"nothing to import"_s))
            return makeError(result.error().code,
                             result.error().message +
                                 u"; likwid files are read as one run only when each group of a region comes from "
                                 "one file"_s);
        if (!result.ok())
            return result.error();
        results.push_back(std::move(result).value());
    }
    return results;
}

}  // namespace ridgeline
