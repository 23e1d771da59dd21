#include "core/import/likwid/likwid_import.h"

#include "core/import/kernel/imported_kernel.h"
#include "core/import/likwid/likwid_runs.h"
#include "core/import/likwid/likwid_tables.h"
#include "core/import/text/import_text.h"

#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <map>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

struct Merged {
    const LikwidMeasurement* flops = nullptr;
    std::vector<std::pair<QString, const LikwidMeasurement*>> levels;  // outermost first
};

// One region's runs become one kernel: FLOPs and time from the run that counts FLOPs (one that also measured
// traffic wins: the same run), the bytes of each level from the FLOP run if it has them, else the first run.
Merged merge(const std::vector<const LikwidMeasurement*>& runs)
{
    Merged merged;
    for (const LikwidMeasurement* run : runs)
        if (!run->flopAmounts.empty() && (!merged.flops || (merged.flops->bytes.empty() && !run->bytes.empty())))
            merged.flops = run;
    for (const QString& level : {u"DRAM"_s, u"L3"_s, u"L2"_s}) {
        const LikwidMeasurement* source = merged.flops && merged.flops->bytes.count(level) ? merged.flops : nullptr;
        for (auto it = runs.begin(); it != runs.end() && !source; ++it)
            source = (*it)->bytes.count(level) ? *it : nullptr;
        if (source)
            merged.levels.emplace_back(level, source);
    }
    return merged;
}

QString groupsOf(const std::vector<const LikwidMeasurement*>& runs)
{
    QStringList groups;
    for (const LikwidMeasurement* run : runs)
        if (!groups.contains(run->group))
            groups.append(run->group);
    return groups.join(u'+');
}

QString skipReason(const std::vector<const LikwidMeasurement*>& runs, const Merged& merged)
{
    QString notFinite;
    for (const LikwidMeasurement* run : runs)
        if (notFinite.isEmpty() && !run->notFinite.isEmpty())
            notFinite = u"a value is not a number: "_s + run->notFinite;
    if (!merged.flops)
        return !notFinite.isEmpty() ? notFinite
                                    : u"no group measures FLOPs (measured: "_s + groupsOf(runs) +
                                          u"); measure FLOPS_DP, FLOPS_SP or MEM_DP as well"_s;
    if (merged.levels.empty())
        return !notFinite.isEmpty() ? notFinite
                                    : u"no group measures memory traffic (measured: "_s + groupsOf(runs) +
                                          u"); measure MEM_DP, MEM, L3 or L2 as well"_s;
    if (merged.flops->runtime.value_or(0.0) <= 0.0)
        return u"a runtime of 0 seconds"_s;
    if (merged.flops->flops() <= 0.0)
        return u"0 FLOP/s (no floating-point work in this region?)"_s;
    if (merged.levels.front().second->bytes.at(merged.levels.front().first) <= 0.0)
        return u"0 bytes of memory traffic"_s;
    return QString();
}

std::optional<QString> fillKernel(KernelResult& kernel, const Merged& merged)
{
    const LikwidMeasurement& flops = *merged.flops;
    kernel.seconds = *flops.runtime;
    kernel.flops = flops.flops();
    kernel.precision = flops.flopAmounts.size() > 1 ? u"mixed"_s : flops.flopAmounts.front().first;
    for (const auto& [level, source] : merged.levels) {
        const double bytes = source->bytes.at(level);
        if (kernel.level.isEmpty()) {
            kernel.level = level;
            kernel.bytes = bytes;
        } else if (bytes > 0.0) {
            kernel.levels.push_back(LevelPoint{level, bytes, 0.0, 0.0});
        }
    }
    return completeImportedKernel(kernel);
}

}  // namespace

namespace {

struct ParsedFile {
    LikwidFile tables;
    std::vector<LikwidMeasurement> measurements;
};

Result<ParsedFile> parse(const QString& text)
{
    auto file = readLikwidTables(text);
    if (!file.ok())
        return file.error();
    auto measurements = measureLikwidRuns(file.value());
    if (!measurements.ok())
        return measurements.error();
    return ParsedFile{std::move(file).value(), std::move(measurements).value()};
}

using Regions = std::vector<std::pair<QString, std::vector<const LikwidMeasurement*>>>;

// Regions in order of first appearance; each becomes one kernel however many groups (and files) measured it.
Regions regionsOf(const std::vector<ParsedFile>& files)
{
    Regions regions;
    for (const ParsedFile& file : files) {
        for (const LikwidMeasurement& measurement : file.measurements) {
            auto found = std::find_if(regions.begin(), regions.end(),
                                      [&](const auto& region) { return region.first == measurement.region; });
            if (found == regions.end())
                found = regions.insert(regions.end(), {measurement.region, {}});
            found->second.push_back(&measurement);
        }
    }
    return regions;
}

// Whether every group of every region comes from one file only (so that files can be read as one).
bool unambiguous(const std::vector<ParsedFile>& files)
{
    std::map<std::pair<QString, QString>, std::size_t> fileOf;  // (region, group) -> file
    for (std::size_t f = 0; f < files.size(); ++f) {
        for (const LikwidMeasurement& measurement : files[f].measurements) {
            const auto [it, inserted] = fileOf.emplace(std::pair{measurement.region, measurement.group}, f);
            if (!inserted && it->second != f)
                return false;
        }
    }
    return true;
}

// How the runs' threads (and likwid-mpirun's ranks) were combined, for the import's notes.
struct Threads {
    int most = 1;
    int ranks = 0;
    bool fromTotals = false;
    int nilCells = 0;
};

Threads threadsOf(const std::vector<ParsedFile>& files)
{
    Threads threads;
    for (const ParsedFile& file : files) {
        for (const LikwidMeasurement& run : file.measurements) {
            threads.most = std::max(threads.most, run.threads);
            threads.ranks = std::max(threads.ranks, run.ranks);
            threads.fromTotals = threads.fromTotals || run.fromTotals;
            threads.nilCells += run.nilCells;
        }
    }
    return threads;
}

QString threadsNote(const Threads& threads)
{
    if (threads.most <= 1 && threads.nilCells == 0)
        return QString();
    const QString who = threads.ranks > 0 ? QString(QString::number(threads.ranks) + u" ranks, "_s +
                                                    QString::number(threads.most) + u" threads in all"_s)
                                          : QString(QString::number(threads.most) + u" threads"_s);
    QString note = who +
                   u" combined: FLOPs and bytes summed over threads (each thread's rate x its own runtime), "
                   "time the slowest thread's"_s;
    if (threads.fromTotals)
        note += u"; where a run has only its STAT table, its Sum x the slowest runtime (an upper bound)"_s;
    if (threads.nilCells > 0)
        note += u"; "_s + QString::number(threads.nilCells) +
                u" \"nil\" cells (a rank without a value for the region) add nothing"_s;
    return note;
}

Result<ImportResult> build(const std::vector<ParsedFile>& files, const QStringList& fileNames)
{
    ImportResult result;
    result.fileName = fileNames.join(u" + "_s);
    result.format = ImportFormat::Likwid;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const LikwidFile& tables = files[f].tables;
        if (tables.otherLines > 0)
            result.skipped.push_back(SkippedRow{
                tables.firstOtherLine, QString(),
                (files.size() > 1 ? fileNames[static_cast<qsizetype>(f)] + u": "_s : QString()) +
                    QString::number(tables.otherLines) + u" lines outside likwid's tables (the program's output?)"_s});
    }
    const QString source = importSource(result.fileName, u"likwid"_s);
    const QString baseName = QFileInfo(fileNames.front()).completeBaseName();
    int mergedRegions = 0;
    for (const auto& [region, runs] : regionsOf(files)) {
        const Merged merged = merge(runs);
        const QString name = region.isEmpty() ? baseName : region;
        const QString reason = skipReason(runs, merged);
        if (!reason.isEmpty()) {
            result.skipped.push_back(SkippedRow{runs.front()->line, name + u" ["_s + groupsOf(runs) + u']', reason});
            continue;
        }
        KernelResult kernel;
        kernel.kind = u"imported"_s;
        kernel.source = source;
        kernel.name = name;
        std::vector<const LikwidMeasurement*> used = {merged.flops};
        for (const auto& [level, run] : merged.levels)
            if (std::find(used.begin(), used.end(), run) == used.end())
                used.push_back(run);
        kernel.group = groupsOf(used);
        mergedRegions += used.size() > 1 ? 1 : 0;
        if (const auto problem = fillKernel(kernel, merged))
            return errorAt(runs.front()->line, 1, name + u": "_s + *problem);
        result.kernels.push_back(std::move(kernel));
    }
    const LikwidFile& first = files.front().tables;
    const Threads threads = threadsOf(files);
    const QString tool = threads.ranks > 0 ? u"likwid-mpirun"_s : u"likwid-perfctr"_s;
    result.notes.append(first.ascii ? tool + u" tables (its default output)"_s : tool + u" CSV"_s);
    if (!threadsNote(threads).isEmpty())
        result.notes.append(threadsNote(threads));
    for (const ParsedFile& file : files)
        if (result.cpuName.isEmpty())
            result.cpuName = file.tables.cpuName;
    if (!result.cpuName.isEmpty())
        result.notes.append(u"measured on "_s + result.cpuName);
    if (mergedRegions > 0)
        result.notes.append(QString::number(mergedRegions) +
                            u" regions measured by several groups (separate runs): FLOPs and time from the group that "
                            "counts FLOPs, bytes of each level from a group that measures it"_s);
    return result;
}

}  // namespace

Result<ImportResult> importLikwid(const QString& text, const QString& fileName)
{
    auto parsed = parse(text);
    if (!parsed.ok())
        return parsed.error();
    std::vector<ParsedFile> files;
    files.push_back(std::move(parsed).value());
    return build(files, {fileName});
}

std::optional<Result<ImportResult>> importLikwidTogether(const std::vector<LikwidInput>& inputs)
{
    std::vector<ParsedFile> files;
    QStringList names;
    QString cpu;
    for (const LikwidInput& input : inputs) {
        auto parsed = parse(input.text);
        if (!parsed.ok())
            return std::nullopt;  // each file alone then, to say which one is broken
        const QString fileCpu = parsed.value().tables.cpuName;
        if (!cpu.isEmpty() && !fileCpu.isEmpty() && fileCpu != cpu)
            return std::nullopt;  // runs of two machines never merge
        cpu = cpu.isEmpty() ? fileCpu : cpu;
        files.push_back(std::move(parsed).value());
        names.append(input.fileName);
    }
    if (files.size() < 2 || !unambiguous(files))
        return std::nullopt;
    return build(files, names);
}

}  // namespace ridgeline
