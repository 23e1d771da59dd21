#include "core/import/import_format.h"

#include "core/import/ceilings/rocprof_import.h"
#include "core/import/likwid/likwid_tables.h"
#include "core/import/ncu/ncu_table.h"
#include "core/import/text/import_text.h"

#include <QFileInfo>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

QString formatName(ImportFormat format)
{
    switch (format) {
        case ImportFormat::Auto:
            return u"auto"_s;
        case ImportFormat::NsightCompute:
            return u"ncu"_s;
        case ImportFormat::Ert:
            return u"ert"_s;
        case ImportFormat::Likwid:
            return u"likwid"_s;
        case ImportFormat::PlainCsv:
            return u"csv"_s;
        case ImportFormat::RocprofRoofline:
            return u"rocprof"_s;
    }
    return u"auto"_s;
}

Result<ImportFormat> formatFromName(const QString& name)
{
    for (ImportFormat format : {ImportFormat::Auto, ImportFormat::NsightCompute, ImportFormat::Ert,
                                ImportFormat::Likwid, ImportFormat::PlainCsv, ImportFormat::RocprofRoofline}) {
        if (name.compare(formatName(format), Qt::CaseInsensitive) == 0)
            return format;
    }
    return makeError(Error::Code::InvalidArgument,
                     u"unknown format \""_s + name + u"\"; the formats are auto, ncu, ert, likwid, rocprof and csv"_s);
}

Result<ImportFormat> detectFormat(const QByteArray& bytes, const QString& fileName)
{
    // The first 64 KiB say enough; a multi-byte character cut at the end does not matter here.
    QString head = QString::fromUtf8(bytes.left(64 * 1024));
    if (head.startsWith(QChar(0xFEFF)))
        head.remove(0, 1);
    // CRLF and classic Mac CR line ends look like LF to every test below.
    head.replace(u"\r\n"_s, u"\n"_s).replace(u'\r', u'\n');
    const QString start = head.trimmed();
    if (start.startsWith(u'"') && head.contains(u"\\\"empirical\\\""_s))
        return ImportFormat::Ert;  // the whole roofline.json as one JSON string
    if (start.startsWith(u'{') || start.startsWith(u'[')) {
        if (head.contains(u"\"empirical\""_s))
            return ImportFormat::Ert;
        if (head.contains(u"\"ridgeline-session\""_s))
            return makeError(Error::Code::Unsupported, fileName +
                                                           u": a Ridgeline session, not a file to import; "
                                                           "open it (or pass it to --into) instead"_s);
        return makeError(Error::Code::Unsupported, fileName +
                                                       u": JSON, but not an ERT roofline.json (no "
                                                       "\"empirical\" section)"_s);
    }
    if (looksLikeRocprofRoofline(head))
        return ImportFormat::RocprofRoofline;
    if (looksLikeLikwid(head))  // its CSV (after -O's banner too) or its ASCII tables
        return ImportFormat::Likwid;
    // Nsight Compute: a header with "ID" and "Kernel Name", possibly after ==PROF== lines or program output.
    // The program's output can run to hundreds of lines before the header: look through the whole head.
    const QStringList lines = head.split(u'\n');
    int ncuLogLines = 0;
    for (const QString& line : lines) {
        if (isNsightLogLine(line)) {
            ++ncuLogLines;
            continue;
        }
        if (looksLikeNcuHeader(line))
            return ImportFormat::NsightCompute;
    }
    for (const QString& line : lines) {
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(u'#'))
            continue;
        QStringList columns;  // ';' too, so that a European spreadsheet export gets its own message
        for (const QString& column : trimmed.toLower().split(trimmed.contains(u',') ? u',' : u';'))
            columns.append(column.trimmed().remove(u'"'));
        if (columns.contains(u"name"_s) && columns.contains(u"flops"_s) && columns.contains(u"seconds"_s))
            return ImportFormat::PlainCsv;
        break;
    }
    if (ncuLogLines > 0)  // ncu's log without a table: the Nsight Compute importer says what ncu reported
        return ImportFormat::NsightCompute;
    return makeError(
        Error::Code::Unsupported,
        fileName +
            u": cannot tell the format (not Nsight Compute CSV, ERT roofline.json, "
            "likwid-perfctr output, rocprof-compute roofline.csv or a name,flops,bytes,seconds CSV); pass --format"_s);
}

}  // namespace ridgeline
