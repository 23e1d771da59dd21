#include "app/cli/catalog_engines.h"

#include "app/cli/serving_output.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/serving/scheduler_choice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ridgeline::cli {

namespace {

QString versions(const EngineProfile& e)
{
    const QString range = versionRange(e);
    return range.isEmpty() ? QStringLiteral("-") : range;
}

QString familyText(const TermOverride& o)
{
    return o.family ? memoryFamilyName(*o.family) : QStringLiteral("every card");
}

QJsonObject engineObject(const EngineProfile& e)
{
    QJsonObject o;
    o[QStringLiteral("id")] = e.id;
    o[QStringLiteral("name")] = e.name;
    o[QStringLiteral("aliases")] = QJsonArray::fromStringList(e.aliases);
    o[QStringLiteral("oldest_version")] = e.oldestVersion.isEmpty() ? QJsonValue() : QJsonValue(e.oldestVersion);
    o[QStringLiteral("newest_version")] = e.newestVersion.isEmpty() ? QJsonValue() : QJsonValue(e.newestVersion);
    o[QStringLiteral("coverage")] = e.coverage;
    o[QStringLiteral("yours")] = isUserEngine(e.id);
    QJsonArray terms;
    for (const TermOverride& t : e.overrides) {
        QJsonObject term;
        term[QStringLiteral("term")] = termName(t.term);
        term[QStringLiteral("value")] = t.value;
        term[QStringLiteral("memory_family")] = t.family ? QJsonValue(memoryFamilyName(*t.family)) : QJsonValue();
        term[QStringLiteral("source")] = t.source;
        terms.append(term);
    }
    o[QStringLiteral("overrides")] = terms;
    // The scheduler its serving figures run (--frontier, --split, the serving latency), each term with its origin.
    o[QStringLiteral("scheduler")] = schedulingJson(chooseScheduler(e));
    // Whether decode attention splits a sequence's KV over thread blocks, and from which version (null: every one).
    QJsonObject split;
    split[QStringLiteral("since_version")] =
        e.decodeSplit.sinceVersion.isEmpty() ? QJsonValue() : QJsonValue(e.decodeSplit.sinceVersion);
    split[QStringLiteral("source")] = e.decodeSplit.source.isEmpty() ? QJsonValue() : QJsonValue(e.decodeSplit.source);
    o[QStringLiteral("decode_split_kv")] = split;
    return o;
}

// The generic profile's own terms: every term of the measured defaults, with where it comes from.
QJsonArray genericTerms()
{
    const EngineTerms measured = EngineTerms::measured();
    QJsonArray terms;
    for (const EngineTerm& t : allTerms()) {
        QJsonObject term;
        term[QStringLiteral("term")] = termName(t);
        term[QStringLiteral("value")] = termValue(measured, t);
        term[QStringLiteral("source")] = termSource(t);
        terms.append(term);
    }
    return terms;
}

}  // namespace

int printEngines(Streams io, bool json, bool mine)
{
    const std::shared_ptr<const UserEngines> user = userEngines();
    const std::vector<EngineProfile> engines = mine ? user->engines : allEngines();
    for (const QString& problem : user->problems)
        io.err << "ridgeline catalog: your engines were not read: " << problem << '\n';
    // A refused file of the user's: exit status 1, as for their GPUs and models.
    const int status = user->problems.isEmpty() ? 0 : 1;
    if (json) {
        QJsonArray array;
        for (const EngineProfile& e : engines) {
            QJsonObject o = engineObject(e);
            if (e.isGeneric())
                o[QStringLiteral("terms")] = genericTerms();
            array.append(o);
        }
        io.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return status;
    }
    io.out << "Engines (`ridgeline model --engine NAME[@VERSION]`): the measured defaults (generic) with the terms "
              "published figures of each engine show to differ\n\n";
    io.out << QStringLiteral("%1 %2 %3\n")
                  .arg(QStringLiteral("id"), -14)
                  .arg(QStringLiteral("versions"), -10)
                  .arg(QStringLiteral("rests on"));
    for (const EngineProfile& e : engines)
        io.out << QStringLiteral("%1 %2 %3\n")
                      .arg(isUserEngine(e.id) ? e.id + QStringLiteral(" (yours)") : e.id, -14)
                      .arg(versions(e), -10)
                      .arg(e.coverage);
    for (const EngineProfile& e : engines) {
        if (e.overrides.empty())
            continue;
        io.out << '\n' << e.name << "'s own terms:\n";
        for (const TermOverride& t : e.overrides)
            io.out << QStringLiteral("  %1 = %2 (%3): %4\n")
                          .arg(termName(t.term))
                          .arg(t.value, 0, 'g', 4)
                          .arg(familyText(t), t.source);
    }
    io.out << "\nSchedulers (the serving figures: --frontier, --split, --arrival-rate, the batching tab's frontier; "
              "--max-running, --token-budget and --no-chunked-prefill win over them):\n";
    for (const EngineProfile& e : engines) {
        const SchedulerChoice scheduler = chooseScheduler(e);
        if (scheduler.anyFrom(SchedulerOrigin::Engine))
            io.out << "  " << e.name << ": " << schedulerText(scheduler) << ": " << e.schedulerSource << '\n';
    }
    io.out << "  every other engine: " << schedulerText(chooseScheduler(*genericEngine().profile)) << ": "
           << kVllmSchedulerCitation << '\n';
    io.out << "\nDecode attention split over the KV length (else one thread block per sequence and head walks its "
              "context, and fewer blocks than SMs read the cache at blocks / SMs of the bandwidth):\n";
    for (const EngineProfile& e : engines)
        if (!e.decodeSplit.source.isEmpty())
            io.out << "  " << e.name << ": "
                   << (e.decodeSplit.sinceVersion.isEmpty()
                           ? QStringLiteral("split")
                           : QStringLiteral("split from ") + e.decodeSplit.sinceVersion)
                   << ": " << e.decodeSplit.source << '\n';
    io.out << "  every other engine: taken as split (no source says otherwise)\n";
    io.out << "\nEvery other term is generic's, the measured defaults; their sources: `ridgeline catalog engines "
              "--json`.\nA version outside an engine's range falls back to the nearest it covers (said on stderr "
              "and in --json).\n";
    io.out << "Engines of your own (`ridgeline calibrate --save-engine ID`, " << user->engines.size()
           << " now) are kept in " << userEngineCatalogPath() << ".\n";
    return status;
}

}  // namespace ridgeline::cli
