#include "core/session/format/session_json.h"

#include "core/session/format/session_calibration_json.h"
#include "core/session/format/session_ceilings_json.h"
#include "core/session/format/session_energy_json.h"
#include "core/session/format/session_json_rules.h"
#include "core/session/format/session_kernel_json.h"
#include "core/session/format/session_machine_json.h"
#include "core/session/format/session_training_json.h"

#include "core/json/split_object.h"
#include "core/json/split_object_writer.h"
#include "core/message_text.h"
#include "core/model/llm/engine_catalog.h"
#include "core/read_file.h"
#include "core/save_file.h"
#include "core/utf8_text.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <utility>
#include <vector>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

namespace {

QJsonObject fusionToJson(const FusionResult& fusion)
{
    return {{u"elements"_s, static_cast<qint64>(fusion.elements)},
            {u"unfused_bytes"_s, fusion.unfusedBytes},
            {u"fused_bytes"_s, fusion.fusedBytes},
            {u"unfused_seconds"_s, fusion.unfusedSeconds},
            {u"fused_seconds"_s, fusion.fusedSeconds},
            {u"speedup"_s, fusion.speedup},
            {u"max_abs_difference"_s, fusion.maxAbsDifference}};
}

FusionResult fusionFromJson(ObjectReader& in)
{
    FusionResult fusion;
    fusion.elements = in.integer("elements"_L1, 0, kTiB, 0);
    fusion.unfusedBytes = in.number("unfused_bytes"_L1, kMaxOperationCount);
    fusion.fusedBytes = in.number("fused_bytes"_L1, kMaxOperationCount);
    fusion.unfusedSeconds = in.number("unfused_seconds"_L1, kMaxSeconds);
    fusion.fusedSeconds = in.number("fused_seconds"_L1, kMaxSeconds);
    fusion.speedup = in.number("speedup"_L1, kMaxSpeedup);
    fusion.maxAbsDifference = in.number("max_abs_difference"_L1, kMaxDifference);
    return fusion;
}

QJsonObject findingToJson(const Finding& finding)
{
    return {{u"subject"_s, finding.subject}, {u"kind"_s, finding.kind}, {u"message"_s, finding.message}};
}

Finding findingFromJson(ObjectReader& in)
{
    Finding finding;
    finding.subject = in.text("subject"_L1, Need::Required);
    finding.kind = in.text("kind"_L1, Need::Required);
    finding.message = in.text("message"_L1, Need::Required);
    static const QStringList kinds{u"impossible"_s, u"doubtful"_s, u"note"_s};
    if (!in.problem().found() && !kinds.contains(finding.kind))
        in.problem().report(Error::Code::Schema, in.where("kind"_L1) +
                                                     u" must be \"impossible\", \"doubtful\" or \"note\", got "_s +
                                                     describeText(finding.kind));
    return finding;
}

QJsonObject skippedToJson(const SkippedExperiment& skipped)
{
    return {{u"experiment"_s, skipped.experiment}, {u"reason"_s, skipped.reason}};
}

SkippedExperiment skippedFromJson(ObjectReader& in)
{
    SkippedExperiment skipped;
    skipped.experiment = in.text("experiment"_L1, Need::Required);
    skipped.reason = in.text("reason"_L1, Need::Required);
    if (!in.problem().found() && skipped.reason.trimmed().isEmpty())
        in.problem().report(Error::Code::Schema, in.where("reason"_L1) + u" must say why it was skipped"_s);
    return skipped;
}

// The engine the batching tab models with: one the catalogs know (a version outside its profile's range is kept;
// the tab says what it falls back to).
QString engineFromJson(ObjectReader& in)
{
    if (!in.has("engine"_L1))
        return QString();
    const QString engine = in.text("engine"_L1, Need::Required);
    if (in.problem().found())
        return QString();
    if (const Result<EngineSelection> known = selectEngine(engine); !known)
        in.problem().report(Error::Code::Schema, in.where("engine"_L1) + u": "_s + known.error().message);
    return engine;
}

Session sessionFromObject(const SplitObject& file, Problem& problem)
{
    Session session;
    ObjectReader in(file.root(), QString(), problem);
    const int schema = readHeader(in, Session::kFormat, u"session"_s, Session::kSchemaVersion);
    session.title = in.text("title"_L1);
    session.created = in.dateTime("created"_L1);
    session.generator = in.text("generator"_L1);
    session.quick = in.boolean("quick"_L1, false);
    session.complete = in.boolean("complete"_L1, true);
    session.wallSeconds = in.number("wall_seconds"_L1, kMaxSeconds);
    session.streamTriadGbps = in.number("stream_triad_gbps"_L1, kMaxGbps);
    requirePhysical(in, "stream_triad_gbps"_L1, session.streamTriadGbps, PhysicalQuantity::BandwidthGbps,
                    Zero::NotMeasured);
    session.noisyMeasurements = textListFromJson(in, "noisy_measurements"_L1, kMaxEntries);

    readObject(in, "machine"_L1, Need::Required,
               [&](ObjectReader& m) { session.machine = machineFromJson(m, schema); });
    readObject(in, "ceilings"_L1, Need::Required, [&](ObjectReader& ceilings) {
        session.computeCeilings =
            readEntries<ComputeCeiling>(ceilings, "compute"_L1, kMaxEntries, Need::Required,
                                        [schema](ObjectReader& entry) { return computeFromJson(entry, schema); });
        session.bandwidthCeilings =
            readEntries<BandwidthCeiling>(ceilings, "bandwidth"_L1, kMaxEntries, Need::Required, bandwidthFromJson);
    });
    session.bandwidthCurve =
        readEntries<BandwidthPoint>(in, "bandwidth_curve"_L1, kMaxEntries, Need::Optional, curvePointFromJson);
    SharedTexts shared;
    session.kernels = readSplitEntries<KernelResult>(
        in, file, "kernels"_L1, kMaxEntries, Need::Required,
        [schema, &shared](ObjectReader& entry) { return kernelFromJson(entry, schema, shared); });
    if (readObject(in, "fusion"_L1, [&](ObjectReader& f) { session.fusion = fusionFromJson(f); })) {
        // Version 1 wrote zeros when fusion did not run; from version 2 that is a "skipped" entry instead.
        if (!problem.found() && schema >= kFirstSchemaWithChecks && session.fusion.elements < 1)
            problem.report(Error::Code::Range,
                           u"fusion.elements must be at least 1: a fusion that did not run "
                           "belongs in \"skipped\", not in a fusion object of zeros"_s);
    }
    if (schema >= kFirstSchemaWithChecks) {
        session.findings = readEntries<Finding>(in, "findings"_L1, kMaxFindings, Need::Optional, findingFromJson);
        session.skipped =
            readEntries<SkippedExperiment>(in, "skipped"_L1, kMaxFindings, Need::Optional, skippedFromJson);
        session.calibrations =
            readEntries<Calibration>(in, "calibrations"_L1, kMaxCalibrations, Need::Optional, calibrationFromJson);
        session.engine = engineFromJson(in);
        readObject(in, "energy"_L1, [&](ObjectReader& e) { session.energy = energySourceFromJson(e); });
        readObject(in, "training"_L1, [&](ObjectReader& t) { session.training = trainingFromJson(t); });
    }
    in.rejectUnknownKeys();
    return session;
}

Error sourceError(const QString& sourceName, Error::Code code, const QString& detail)
{
    return Error{code, sourceName + u": "_s + oneLine(detail)};
}

// Everything but the kernels: the part of the file built whole.
QJsonObject headToJson(const Session& session)
{
    const QJsonObject ceilings{{u"compute"_s, toJsonArray(session.computeCeilings, computeToJson)},
                               {u"bandwidth"_s, toJsonArray(session.bandwidthCeilings, bandwidthToJson)}};
    QJsonObject root{{u"format"_s, Session::kFormat},
                     {u"schema_version"_s, Session::kSchemaVersion},
                     {u"title"_s, session.title},
                     {u"generator"_s, session.generator},
                     {u"quick"_s, session.quick},
                     {u"complete"_s, session.complete},
                     {u"wall_seconds"_s, session.wallSeconds},
                     {u"stream_triad_gbps"_s, session.streamTriadGbps},
                     {u"machine"_s, machineToJson(session.machine)},
                     {u"ceilings"_s, ceilings},
                     {u"bandwidth_curve"_s, toJsonArray(session.bandwidthCurve, curvePointToJson)}};
    // A fusion object only when fusion was measured: an experiment that did not run is in "skipped".
    if (session.fusion.elements > 0)
        root.insert("fusion"_L1, fusionToJson(session.fusion));
    if (session.training.tokens > 0)
        root.insert("training"_L1, trainingToJson(session.training));
    if (!session.findings.empty())
        root.insert("findings"_L1, toJsonArray(session.findings, findingToJson));
    if (!session.skipped.empty())
        root.insert("skipped"_L1, toJsonArray(session.skipped, skippedToJson));
    if (!session.engine.isEmpty())
        root.insert("engine"_L1, session.engine);
    if (!session.energy.basis.isEmpty())
        root.insert("energy"_L1, energySourceToJson(session.energy));
    if (!session.calibrations.empty())
        root.insert("calibrations"_L1, toJsonArray(session.calibrations, calibrationToJson));
    // Only a busy run has the key, so quiet sessions read the same as before it existed.
    if (session.noisy())
        root.insert("noisy_measurements"_L1, QJsonArray::fromStringList(session.noisyMeasurements));
    // UTC with an explicit "Z": a local time without an offset would mean something else elsewhere.
    if (session.created.isValid())
        root.insert("created"_L1, session.created.toUTC().toString(Qt::ISODateWithMs));
    return root;
}

// The session's file in pieces as writeSplitObject() writes them, each kernel seen by `check` first.
std::optional<Error> writeSessionPieces(const Session& session, const QJsonObject& head, const SplitCheck& check,
                                        const SplitPiece& write)
{
    return writeSplitObject(
        head, "kernels"_L1, static_cast<qsizetype>(session.kernels.size()),
        [&session](qsizetype i) { return kernelToJson(session.kernels[static_cast<std::size_t>(i)]); }, check, write);
}

// The checks a file's head gets when it is loaded: nullopt when it reads back.
std::optional<Error> checkHeadReadsBack(QJsonObject head, const QString& path)
{
    head.insert("kernels"_L1, QJsonArray());
    const Result<SplitObject> written =
        parseStrictObjectSplit(QJsonDocument(head).toJson(QJsonDocument::Indented), "kernels"_L1);
    if (!written)
        return sourceError(path, written.error().code, u"not saved: "_s + written.error().message);
    Problem problem;
    sessionFromObject(written.value(), problem);
    if (problem.found())
        return sourceError(path, problem.error().code, u"not saved: "_s + problem.error().message);
    return std::nullopt;
}

// The checks kernel `index` gets when its file is loaded, on its own document.
std::optional<Error> checkKernelReadsBack(qsizetype index, const QByteArray& document, SharedTexts& shared,
                                          const QString& path)
{
    const QString where = indexedPath(u"kernels"_s, index);
    const Result<JsonNode> node = parseStrictObject(document);
    if (!node)
        return sourceError(path, node.error().code, u"not saved: "_s + where + u": "_s + node.error().message);
    Problem problem;
    ObjectReader reader(node.value(), where, problem);
    kernelFromJson(reader, Session::kSchemaVersion, shared);
    reader.rejectUnknownKeys();
    if (problem.found())
        return sourceError(path, problem.error().code, u"not saved: "_s + problem.error().message);
    return std::nullopt;
}

}  // namespace

QJsonObject sessionToJsonObject(const Session& session)
{
    QJsonObject root = headToJson(session);
    root.insert("kernels"_L1, toJsonArray(session.kernels, kernelToJson));
    return root;
}

QByteArray sessionToJson(const Session& session)
{
    QByteArray bytes;
    writeSessionPieces(session, headToJson(session), {}, [&bytes](QByteArrayView piece) {
        bytes.append(piece);
        return true;
    });
    return bytes;
}

Result<Session> sessionFromJson(QByteArray bytes, const QString& sourceName)
{
    if (isBlank(bytes))
        return sourceError(sourceName, Error::Code::Parse, u"the file is empty"_s);
    if (bytes.size() > kMaxSessionFileBytes)
        return sourceError(sourceName, Error::Code::Range, u"larger than 256 MiB; refused"_s);
    // Kernels are read one at a time from the file's bytes: a session of a million never becomes one document.
    const Result<SplitObject> parsed = parseStrictObjectSplit(std::move(bytes), "kernels"_L1);
    if (!parsed)
        return sourceError(sourceName, parsed.error().code, parsed.error().message);

    Problem problem;
    Session session = sessionFromObject(parsed.value(), problem);
    if (problem.found())
        return sourceError(sourceName, problem.error().code, problem.error().message);
    return session;
}

Result<Session> loadSession(const QString& path)
{
    Result<QByteArray> bytes =
        readFileUpTo(path, u"session file"_s, kMaxSessionFileBytes, u"session files larger than 256 MiB are refused"_s);
    if (!bytes)
        return bytes.error();
    return sessionFromJson(std::move(bytes.value()), path);
}

std::optional<Error> saveSession(const Session& session, const QString& path)
{
    // Every part is checked as a loaded file's is (the head whole, then each kernel as it is written), so every saved
    // file loads back; the file is written a piece at a time, never held whole.
    const qsizetype kernels = static_cast<qsizetype>(session.kernels.size());
    if (kernels > kMaxEntries)
        return sourceError(path, Error::Code::Range,
                           u"not saved: kernels has "_s + QString::number(kernels) + u" entries; at most "_s +
                               QString::number(kMaxEntries) + u" are allowed"_s);
    const QJsonObject head = headToJson(session);
    if (std::optional<Error> refused = checkHeadReadsBack(head, path))
        return refused;

    return saveStreamed(path, [&](const WritePiece& write) -> std::optional<Error> {
        SharedTexts shared;
        qint64 written = 0;
        std::optional<Error> tooLarge;
        const WritePiece counted = [&](QByteArrayView piece) {
            written += piece.size();
            if (written > kMaxSessionFileBytes) {
                tooLarge = sourceError(path, Error::Code::Range,
                                       u"not saved: the session would be larger than 256 MiB, the most a session "
                                       "file may be (save fewer kernels)"_s);
                return false;
            }
            return write(piece);
        };
        const SplitCheck check = [&](qsizetype index, const QByteArray& document) {
            return checkKernelReadsBack(index, document, shared, path);
        };
        std::optional<Error> refused = writeSessionPieces(session, head, check, counted);
        return tooLarge ? tooLarge : refused;
    });
}

}  // namespace ridgeline
