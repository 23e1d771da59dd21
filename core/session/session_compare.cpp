#include "core/session/session_compare.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <functional>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

bool hasSpread(const Spread& spread)
{
    return spread.median > 0.0 && spread.max >= spread.min;
}

// The all-thread ceiling is matched to the all-thread ceiling, whatever each machine's thread count.
std::vector<ComparedEntry> computeEntries(const Session& session)
{
    int most = 1;
    for (const ComputeCeiling& c : session.computeCeilings)
        most = std::max(most, c.threads);
    std::vector<ComparedEntry> entries;
    for (const ComputeCeiling& c : session.computeCeilings) {
        const QString scope = c.threads == 1      ? u"1 thread"_s
                              : c.threads == most ? u"all threads"_s
                                                  : QString::number(c.threads) + u" threads"_s;
        entries.push_back({c.precision + u' ' + c.isa + u' ' + scope, ComparedSide{c.name, c.gflops, c.spread}});
    }
    return entries;
}

std::vector<ComparedEntry> bandwidthEntries(const Session& session)
{
    std::vector<ComparedEntry> entries;
    for (const BandwidthCeiling& b : session.bandwidthCeilings) {
        const QString name = b.level + u' ' + b.mix;
        entries.push_back({name, ComparedSide{name, b.gbps, b.spread}});
    }
    return entries;
}

// A kernel's GFLOP/s at its median time; its spread (over times) turned into GFLOP/s, fastest time = max.
std::vector<ComparedEntry> kernelEntries(const Session& session)
{
    std::vector<ComparedEntry> entries;
    entries.reserve(session.kernels.size());
    QHash<QString, int> seen;
    for (const KernelResult& k : session.kernels) {
        const int occurrence = ++seen[k.name];
        const QString key = occurrence == 1 ? k.name : k.name + u" #"_s + QString::number(occurrence);
        Spread spread;
        if (k.spread.min > 0.0 && k.spread.median > 0.0 && k.spread.max > 0.0 && k.seconds > 0.0) {
            const double work = k.gflops * k.seconds;  // GFLOP of one run
            spread = Spread{work / k.spread.max, work / k.spread.median, work / k.spread.min};
        }
        entries.push_back({key, ComparedSide{k.name, k.gflops, spread}});
    }
    return entries;
}

ComparisonVerdict judge(double changePercent, std::optional<double> noisePercent, double thresholdPercent)
{
    const double size = std::abs(changePercent);
    if (size < thresholdPercent || size == 0.0)
        return ComparisonVerdict::Unchanged;
    if (noisePercent && size <= *noisePercent)
        return ComparisonVerdict::WithinNoise;
    return changePercent < 0.0 ? ComparisonVerdict::Regression : ComparisonVerdict::Improvement;
}

void compareSection(ComparisonSection section, const QString& unit, const std::vector<ComparedEntry>& baseline,
                    const std::vector<ComparedEntry>& candidate, double thresholdPercent,
                    std::vector<ComparisonRow>& rows)
{
    // A key the new session has twice is matched to its last entry; every entry of a matched key counts as matched.
    QHash<QString, std::size_t> candidates;
    candidates.reserve(static_cast<qsizetype>(candidate.size()));
    for (std::size_t i = 0; i < candidate.size(); ++i)
        candidates.insert(candidate[i].key, i);
    std::vector<bool> matched(candidate.size(), false);
    for (const ComparedEntry& entry : baseline) {
        ComparisonRow row{section, entry.key, unit, entry.side, std::nullopt, 0.0, std::nullopt, {}};
        const auto found = candidates.constFind(entry.key);
        if (found == candidates.constEnd()) {
            row.verdict = ComparisonVerdict::OnlyInBaseline;
            rows.push_back(row);
            continue;
        }
        matched[*found] = true;
        const ComparedEntry& other = candidate[*found];
        row.candidate = other.side;
        if (entry.side.value > 0.0)
            row.changePercent = 100.0 * (other.side.value - entry.side.value) / entry.side.value;
        const std::optional<double> a = entry.side.noisePercent();
        const std::optional<double> b = other.side.noisePercent();
        if (a || b)
            row.noisePercent = std::max(a.value_or(0.0), b.value_or(0.0));
        row.verdict = judge(row.changePercent, row.noisePercent, thresholdPercent);
        rows.push_back(row);
    }
    for (const ComparedEntry& entry : candidate)
        if (!matched[candidates.value(entry.key)])
            rows.push_back(ComparisonRow{section, entry.key, unit, std::nullopt, entry.side, 0.0, std::nullopt,
                                         ComparisonVerdict::OnlyInNew});
}

QString runKind(const ComparedSession& session)
{
    QString kind = session.quick ? u"a quick run"_s : u"a full run"_s;
    if (!session.complete)
        kind += u", cancelled part-way"_s;
    return kind;
}

QJsonValue sideToJson(const std::optional<ComparedSide>& side)
{
    if (!side)
        return QJsonValue::Null;
    QJsonObject object{{u"name"_s, side->name}, {u"value"_s, side->value}};
    if (hasSpread(side->spread))
        object.insert(u"spread"_s, QJsonObject{{u"min"_s, side->spread.min},
                                               {u"median"_s, side->spread.median},
                                               {u"max"_s, side->spread.max}});
    if (const auto noise = side->noisePercent())
        object.insert(u"noise_percent"_s, *noise);
    return object;
}

}  // namespace

std::optional<double> ComparedSide::noisePercent() const
{
    if (!hasSpread(spread))
        return std::nullopt;
    return 100.0 * (spread.max - spread.min) / spread.median;
}

int SessionComparison::count(ComparisonVerdict verdict) const
{
    return static_cast<int>(
        std::count_if(rows.begin(), rows.end(), [&](const ComparisonRow& row) { return row.verdict == verdict; }));
}

ComparedSession comparedSession(const Session& session)
{
    return {computeEntries(session),  bandwidthEntries(session),    kernelEntries(session), session.machine.cpuModel,
            session.machine.cores,    session.machine.openblasCore, session.quick,          session.complete,
            session.noisyMeasurements};
}

SessionComparison compareSessions(const ComparedSession& baseline, const ComparedSession& candidate,
                                  double thresholdPercent)
{
    SessionComparison comparison;
    comparison.thresholdPercent = thresholdPercent;
    // At most every entry of both sides once: reserved whole, the rows of a million kernels are never copied to a
    // larger block (capacity never used is address space, not memory).
    comparison.rows.reserve(baseline.compute.size() + candidate.compute.size() + baseline.bandwidth.size() +
                            candidate.bandwidth.size() + baseline.kernels.size() + candidate.kernels.size());
    compareSection(ComparisonSection::Compute, u"GFLOP/s"_s, baseline.compute, candidate.compute, thresholdPercent,
                   comparison.rows);
    compareSection(ComparisonSection::Bandwidth, u"GB/s"_s, baseline.bandwidth, candidate.bandwidth, thresholdPercent,
                   comparison.rows);
    compareSection(ComparisonSection::Kernel, u"GFLOP/s"_s, baseline.kernels, candidate.kernels, thresholdPercent,
                   comparison.rows);

    const ComparedSession& a = baseline;
    const ComparedSession& b = candidate;
    if (a.cpuModel != b.cpuModel || a.cores != b.cores)
        comparison.notes << u"different machines: "_s + a.cpuModel + u" with "_s + QString::number(a.cores) +
                                u" CPUs (baseline) and "_s + b.cpuModel + u" with "_s + QString::number(b.cores) +
                                u" CPUs (new)"_s;
    else if (a.openblasCore != b.openblasCore)
        comparison.notes << u"different OpenBLAS kernels: "_s + a.openblasCore + u" (baseline) and "_s +
                                b.openblasCore + u" (new)"_s;
    if (baseline.quick != candidate.quick || !baseline.complete || !candidate.complete)
        comparison.notes << u"the baseline is "_s + runKind(baseline) + u", the new session "_s + runKind(candidate);
    if (!baseline.noisyMeasurements.isEmpty())
        comparison.notes << u"the baseline machine was busy; noisy: "_s + baseline.noisyMeasurements.join(u", "_s);
    if (!candidate.noisyMeasurements.isEmpty())
        comparison.notes << u"the new session's machine was busy; noisy: "_s +
                                candidate.noisyMeasurements.join(u", "_s);
    return comparison;
}

SessionComparison compareSessions(const Session& baseline, const Session& candidate, double thresholdPercent)
{
    return compareSessions(comparedSession(baseline), comparedSession(candidate), thresholdPercent);
}

QString verdictName(ComparisonVerdict verdict)
{
    switch (verdict) {
        case ComparisonVerdict::Unchanged:
            return u"unchanged"_s;
        case ComparisonVerdict::WithinNoise:
            return u"within noise"_s;
        case ComparisonVerdict::Improvement:
            return u"improvement"_s;
        case ComparisonVerdict::Regression:
            return u"regression"_s;
        case ComparisonVerdict::OnlyInBaseline:
            return u"only in baseline"_s;
        case ComparisonVerdict::OnlyInNew:
            return u"only in new"_s;
    }
    return {};
}

QString sectionName(ComparisonSection section)
{
    switch (section) {
        case ComparisonSection::Compute:
            return u"compute"_s;
        case ComparisonSection::Bandwidth:
            return u"bandwidth"_s;
        case ComparisonSection::Kernel:
            return u"kernel"_s;
    }
    return {};
}

namespace {

QJsonObject rowToJson(const ComparisonRow& row)
{
    QJsonObject object{{u"section"_s, sectionName(row.section)},
                       {u"key"_s, row.key},
                       {u"unit"_s, row.unit},
                       {u"baseline"_s, sideToJson(row.baseline)},
                       {u"new"_s, sideToJson(row.candidate)},
                       {u"verdict"_s, verdictName(row.verdict)}};
    if (row.baseline && row.candidate)
        object.insert(u"change_percent"_s, row.changePercent);
    object.insert(u"noise_percent"_s, row.noisePercent ? QJsonValue(*row.noisePercent) : QJsonValue::Null);
    return object;
}

// Everything but the rows.
QJsonObject headToJson(const SessionComparison& comparison)
{
    QJsonObject counts;
    for (ComparisonVerdict verdict :
         {ComparisonVerdict::Regression, ComparisonVerdict::Improvement, ComparisonVerdict::WithinNoise,
          ComparisonVerdict::Unchanged, ComparisonVerdict::OnlyInBaseline, ComparisonVerdict::OnlyInNew})
        counts.insert(verdictName(verdict), comparison.count(verdict));
    return QJsonObject{{u"format"_s, u"ridgeline-comparison"_s},
                       {u"threshold_percent"_s, comparison.thresholdPercent},
                       {u"counts"_s, counts},
                       {u"notes"_s, QJsonArray::fromStringList(comparison.notes)},
                       {u"regression"_s, comparison.hasRegression()}};
}

}  // namespace

QJsonObject comparisonToJson(const SessionComparison& comparison)
{
    QJsonArray rows;
    for (const ComparisonRow& row : comparison.rows)
        rows.append(rowToJson(row));
    QJsonObject object = headToJson(comparison);
    object.insert(u"rows"_s, rows);
    return object;
}

void writeComparisonJson(const SessionComparison& comparison, const QJsonObject& extra,
                         const std::function<void(const QByteArray&)>& write)
{
    QJsonObject head = headToJson(comparison);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        head.insert(it.key(), it.value());
    QByteArray text = QJsonDocument(head).toJson(QJsonDocument::Indented);
    text.chop(3);  // "\n}\n": the rows go last
    write(text + ",\n    \"rows\": [");
    for (std::size_t i = 0; i < comparison.rows.size(); ++i) {
        QByteArray row = QJsonDocument(rowToJson(comparison.rows[i])).toJson(QJsonDocument::Indented);
        row.chop(1);
        row.replace('\n', "\n        ");
        write((i == 0 ? "\n        " : ",\n        ") + row);
    }
    write("\n    ]\n}\n");
}

}  // namespace ridgeline
