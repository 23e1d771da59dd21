#include "core/import/ceilings/ert_import.h"

#include "core/import/text/import_text.h"
#include "core/json/strict_reader.h"
#include "core/model/physical_limits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// "line L, column C" of a byte offset in the file.
QString offsetLocation(const QByteArray& bytes, qsizetype offset)
{
    const QByteArray before = bytes.left(offset);
    const int line = static_cast<int>(before.count('\n')) + 1;
    const int column = static_cast<int>(QString::fromUtf8(before.mid(before.lastIndexOf('\n') + 1)).size()) + 1;
    return lineColumn(line, column);
}

// Where a JSON path is in the text, found by looking for its quoted keys in order (the deepest one found);
// a heuristic good enough to point an editor at the right line. Empty when not even the first is found.
QString locate(const QByteArray& bytes, const QStringList& keys, const QString& entryName = QString())
{
    qsizetype at = -1;
    QStringList needles;
    for (const QString& key : keys)
        needles.append(u"\""_s + key + u"\""_s);
    if (!entryName.isEmpty())
        needles.append(u"\""_s + entryName + u"\""_s);
    for (const QString& needle : needles) {
        const qsizetype found = bytes.indexOf(needle.toUtf8(), std::max<qsizetype>(at, 0));
        if (found < 0)
            break;
        at = found;
    }
    return at < 0 ? QString() : offsetLocation(bytes, at) + u": "_s;
}

class ErtReader {
public:
    ErtReader(const QByteArray& bytes, ImportResult& result) : m_bytes(bytes), m_result(result) {}

    std::optional<Error> read(const QJsonObject& root)
    {
        const QJsonObject empirical = object(root, u"empirical"_s, {u"empirical"_s});
        if (m_error)
            return m_error;
        const QJsonArray gflops = data(empirical, {u"empirical"_s, u"gflops"_s});
        const QJsonArray gbytes = data(empirical, {u"empirical"_s, u"gbytes"_s});
        if (m_error)
            return m_error;
        const auto computeEntries =
            entries(gflops, {u"empirical"_s, u"gflops"_s, u"data"_s}, PhysicalQuantity::ComputeGflops);
        const auto bandwidthEntries =
            entries(gbytes, {u"empirical"_s, u"gbytes"_s, u"data"_s}, PhysicalQuantity::BandwidthGbps);
        if (m_error)
            return m_error;
        for (const auto& [name, value] : computeEntries) {
            ComputeCeiling ceiling;
            ceiling.name = name;
            ceiling.precision = precisionOf(name);
            ceiling.isa = u"ERT"_s;
            ceiling.gflops = value;
            m_result.computeCeilings.push_back(ceiling);
        }
        for (const auto& [name, value] : bandwidthEntries) {
            BandwidthCeiling ceiling;
            ceiling.level = name;
            ceiling.mix = u"ERT"_s;
            ceiling.gbps = value;
            m_result.bandwidthCeilings.push_back(ceiling);
        }
        if (m_result.computeCeilings.empty() && m_result.bandwidthCeilings.empty())
            return makeError(Error::Code::Schema, locate(m_bytes, {u"empirical"_s}) +
                                                      u"empirical.gflops.data and empirical.gbytes.data hold no "
                                                      "ceiling with a value above 0"_s);
        readSpec(root);
        return m_error;
    }

private:
    using Entry = std::pair<QString, double>;

    // path is both what the message names and what is looked up in the text; shownPath, when given, is
    // named instead (e.g. "data[2]", which cannot be found as a key).
    void fail(const QStringList& path, const QString& what, const QString& entryName = QString(),
              const QStringList& shownPath = QStringList())
    {
        if (!m_error)
            m_error =
                makeError(Error::Code::Schema, locate(m_bytes, path, entryName) +
                                                   (shownPath.isEmpty() ? path : shownPath).join(u'.') + u' ' + what);
    }

    QJsonObject object(const QJsonObject& parent, const QString& key, const QStringList& path)
    {
        const QJsonValue value = parent.value(key);
        if (value.isUndefined()) {
            fail(path, u"is missing: not an ERT roofline.json"_s);
            return {};
        }
        if (!value.isObject()) {
            fail(path, u"must be an object"_s);
            return {};
        }
        return value.toObject();
    }

    QJsonArray data(const QJsonObject& parent, const QStringList& path)
    {
        const QJsonObject holder = object(parent, path.back(), path);
        if (m_error)
            return {};
        const QJsonValue value = holder.value(u"data"_s);
        if (!value.isArray()) {
            fail(path + QStringList{u"data"_s}, value.isUndefined() ? u"is missing"_s : u"must be an array"_s);
            return {};
        }
        return value.toArray();
    }

    // [name, value] pairs; a value of 0 is skipped (ERT writes 0 for a test that did not run), any other keeps to
    // the physical rule of a GFLOP/s or GB/s figure.
    std::vector<Entry> entries(const QJsonArray& array, const QStringList& path, PhysicalQuantity quantity)
    {
        std::vector<Entry> out;
        QSet<QString> names;
        for (qsizetype i = 0; i < array.size() && !m_error; ++i) {
            const QJsonValue entry = array.at(i);
            const QString where = path.back() + u'[' + QString::number(i) + u']';
            QStringList entryPath = path;
            entryPath.back() = where;
            const QJsonArray pair = entry.toArray();
            if (!entry.isArray() || pair.size() != 2 || !pair.at(0).isString()) {
                fail(path, u"must be a [\"name\", number] pair"_s, pair.at(0).toString(), entryPath);
                break;
            }
            const QString name = pair.at(0).toString().trimmed();
            const QJsonValue value = pair.at(1);
            if (name.isEmpty() || name.size() > 200) {
                fail(path, u"has an empty or overlong name"_s, QString(), entryPath);
                break;
            }
            if (!value.isDouble()) {
                fail(path,
                     u"entry \""_s + name + u"\" must have a number as its value"_s +
                         (value.isString() ? u", got the string \""_s + value.toString().left(40) + u'"' : QString()),
                     name);
                break;
            }
            const double number = value.toDouble();
            const std::optional<QString> unphysical = physicalProblem(quantity, number);
            if (number != 0.0 && unphysical) {
                fail(path, u"entry \""_s + name + u"\" "_s + *unphysical + u" (or 0 for a test that did not run)"_s,
                     name);
                break;
            }
            if (names.contains(name)) {
                fail(path, u"names \""_s + name + u"\" twice"_s, name);
                break;
            }
            names.insert(name);
            if (number == 0.0) {
                m_result.skipped.push_back(SkippedRow{0, name, u"a ceiling of 0 (the ERT test did not run?)"_s});
                continue;
            }
            out.emplace_back(name, number);
        }
        return out;
    }

    // The vendor's specification: fills theoreticalGflops of a same-named ceiling, anything else is reported.
    void readSpec(const QJsonObject& root)
    {
        const QJsonValue spec = root.value(u"spec"_s);
        if (spec.isUndefined() || spec.isNull() || (spec.isObject() && spec.toObject().isEmpty()))
            return;
        if (!spec.isObject()) {
            fail({u"spec"_s}, u"must be an object"_s);
            return;
        }
        for (const QString& kind : {u"gflops"_s, u"gbytes"_s}) {
            if (!spec.toObject().contains(kind))
                continue;
            const QJsonArray array = data(spec.toObject(), {u"spec"_s, kind});
            const auto specEntries =
                entries(array, {u"spec"_s, kind, u"data"_s},
                        kind == u"gflops"_s ? PhysicalQuantity::ComputeGflops : PhysicalQuantity::BandwidthGbps);
            if (m_error)
                return;
            for (const auto& [name, value] : specEntries) {
                bool used = false;
                if (kind == u"gflops"_s) {
                    for (ComputeCeiling& ceiling : m_result.computeCeilings) {
                        if (ceiling.name == name) {
                            ceiling.theoreticalGflops = value;
                            used = true;
                        }
                    }
                }
                if (!used)
                    m_result.skipped.push_back(SkippedRow{0, u"spec "_s + kind + u' ' + name,
                                                          u"a specification without a measured counterpart"_s});
            }
        }
    }

    static QString precisionOf(const QString& name)
    {
        const QString upper = name.toUpper();
        if (upper.contains(u"FP64"_s) || upper.contains(u"DP"_s) || upper.contains(u"DOUBLE"_s))
            return u"fp64"_s;
        if (upper.contains(u"FP32"_s) || upper.contains(u"SP"_s) || upper.contains(u"SINGLE"_s))
            return u"fp32"_s;
        if (upper.contains(u"FP16"_s) || upper.contains(u"HALF"_s))
            return u"fp16"_s;
        return {};
    }

    const QByteArray& m_bytes;
    ImportResult& m_result;
    std::optional<Error> m_error;
};

// where: "" or " of the JSON text inside the file's string", said after the line and column.
Result<QJsonDocument> parseJson(const QByteArray& json, const QString& where)
{
    Result<QJsonDocument> document = parseStrictJson(json);
    if (!document) {
        QString message = document.error().message;
        const qsizetype place = message.startsWith(u"line "_s) ? message.indexOf(u": "_s) : -1;
        return makeError(document.error().code, place < 0 ? message + where : message.insert(place, where));
    }
    return document;
}

}  // namespace

Result<ImportResult> importErt(const QByteArray& bytes, const QString& fileName)
{
    const auto text = decodeImportText(bytes);
    if (!text.ok())
        return text.error();
    QByteArray json = text.value().toUtf8();
    QString where;
    // Some ERT scripts write the document json.dumps()-ed twice: a JSON string holding the JSON text.
    if (json.trimmed().startsWith('"')) {
        const auto wrapped = parseJson("[" + json + "]", QString());
        if (!wrapped.ok())
            return wrapped.error();
        json = wrapped.value().array().at(0).toString().toUtf8();
        where = u" of the JSON text inside the file's string"_s;
    }
    const auto document = parseJson(json, where);
    if (!document.ok())
        return document.error();
    if (!document.value().isObject())
        return makeError(Error::Code::Schema, lineColumn(1, 1) + u": the top level must be a JSON object"_s);
    const QJsonObject root = document.value().object();

    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::Ert;
    result.machineName = u"ERT: "_s + fileName;
    if (auto error = ErtReader(json, result).read(root))
        return *error;
    result.notes.append(QString::number(result.computeCeilings.size()) + u" compute and "_s +
                        QString::number(result.bandwidthCeilings.size()) +
                        u" bandwidth ceilings of the machine ERT ran on"_s);
    return result;
}

}  // namespace ridgeline
