#include "core/import/likwid_import.h"

#include "core/import/import_text.h"
#include "core/import/imported_kernel.h"
#include "core/import/likwid_tables.h"

#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <array>
#include <map>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kRuntime = u"Runtime (RDTSC) [s]"_s;

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

// One run of one group over one region: its per-thread Metric table and, with several threads, its STAT table.
struct Run {
    QString region;
    QString group;
    int line = 0;
    const LikwidTable* perThread = nullptr;
    const LikwidTable* stat = nullptr;
};

// Per-thread tables start a run; the STAT table that follows joins the latest run of its region and group.
std::vector<Run> runsOf(const LikwidFile& file)
{
    std::vector<Run> runs;
    for (const LikwidTable& table : file.tables) {
        Run* latest = nullptr;
        for (auto it = runs.rbegin(); it != runs.rend() && !latest; ++it)
            if (it->region == table.region && it->group == table.group)
                latest = &*it;
        const bool joins = latest && (table.stat ? !latest->stat : !latest->perThread && latest->stat);
        if (!joins) {
            runs.push_back(Run{table.region, table.group, table.line, nullptr, nullptr});
            latest = &runs.back();
        }
        (table.stat ? latest->stat : latest->perThread) = &table;
    }
    return runs;
}

bool isNotFinite(const QString& text)
{
    static const QStringList kWords = {u"-"_s, u"nan"_s, u"-nan"_s, u"inf"_s, u"-inf"_s};
    return kWords.contains(text.toLower());
}

// What one run measured, in FLOP/s, bytes and seconds.
struct Measurement {
    QString region;
    QString group;
    int line = 0;
    std::optional<double> runtime;
    std::vector<std::pair<QString, double>> flopRates;  // precision -> FLOP/s (all threads)
    std::map<QString, double> bytes;                    // "DRAM", "L3", "L2"
    QString notFinite;                                  // the first "-" or nan value read, for the reason
    QStringList notFiniteRows;  // the rows that had one: this run gives no FLOPs or bytes from them

    double flopRate() const
    {
        double total = 0.0;
        for (const auto& [precision, rate] : flopRates)
            total += rate;
        return total;
    }
};

// Reads rows of one run: from the STAT table (Sum, or Max for the runtime) when there is one, else summing
// (or taking the largest of) the threads' values.
class RunValues {
public:
    RunValues(const Run& run, Measurement& out) : m_run(run), m_out(out) {}

    std::optional<double> get(const QString& metric, bool slowest)
    {
        if (m_run.stat) {
            if (const LikwidRow* row = find(*m_run.stat, metric)) {
                const qsizetype column = m_run.stat->columns.indexOf(slowest ? u"Max"_s : u"Sum"_s);
                if (column >= 0 && column < static_cast<qsizetype>(row->values.size()))
                    return number(metric, row->values[static_cast<std::size_t>(column)]);
            }
        }
        const LikwidRow* row = m_run.perThread ? find(*m_run.perThread, metric) : nullptr;
        if (!row || row->values.empty())
            return std::nullopt;
        std::optional<double> total;
        for (const LikwidCell& cell : row->values) {
            const auto value = number(metric, cell);
            if (!value)
                return std::nullopt;
            total = !total ? *value : (slowest ? std::max(*total, *value) : *total + *value);
        }
        return total;
    }
    bool has(const QString& metric) const
    {
        return (m_run.stat && find(*m_run.stat, metric)) || (m_run.perThread && find(*m_run.perThread, metric));
    }
    const std::optional<Error>& error() const { return m_error; }

    static const LikwidRow* find(const LikwidTable& table, const QString& metric)
    {
        for (const LikwidRow& row : table.rows)
            if (row.name == metric)
                return &row;
        return nullptr;
    }

    // Every value of the rows the importer reads must be a number or likwid's "-"/nan, in both tables, even
    // where the other table is the one used: a corrupt cell is never passed over.
    void checkAll(const QStringList& metrics)
    {
        for (const LikwidTable* table : {m_run.perThread, m_run.stat}) {
            if (!table)
                continue;
            for (const LikwidRow& row : table->rows)
                if (metrics.contains(row.name))
                    for (const LikwidCell& cell : row.values)
                        number(row.name, cell, false);
        }
    }

private:
    std::optional<double> number(const QString& metric, const LikwidCell& cell, bool recordNotFinite = true)
    {
        if (m_error)
            return std::nullopt;
        if (isNotFinite(cell.text)) {
            if (recordNotFinite && m_out.notFinite.isEmpty())
                m_out.notFinite = metric + u" is \""_s + cell.text + u"\" (line "_s + QString::number(cell.line) + u')';
            if (recordNotFinite && !m_out.notFiniteRows.contains(metric))
                m_out.notFiniteRows.append(metric);
            return std::nullopt;
        }
        const Result<double> value = parseNumber(cell.text, Thousands::Refuse);
        if (!value.ok()) {
            m_error = errorAt(cell.line, cell.column, metric + u": "_s + value.error().message);
            return std::nullopt;
        }
        return value.value();
    }

    const Run& m_run;
    Measurement& m_out;
    std::optional<Error> m_error;
};

// The precision of likwid's generic "MFLOP/s" rows follows from the group's name.
QString precisionOfGroup(const QString& group)
{
    if (group.contains(u"DP"_s))
        return u"fp64"_s;
    if (group.contains(u"SP"_s))
        return u"fp32"_s;
    if (group.contains(u"HP"_s))
        return u"fp16"_s;
    return QString();
}

void readFlopRates(RunValues& in, Measurement& out)
{
    struct Names {
        const char16_t* precision;
        std::array<const char16_t*, 2> rows;
    };
    static const std::array<Names, 3> kSpecific = {{{u"fp64", {u"DP [MFLOP/s]", u"DP MFLOP/s"}},
                                                    {u"fp32", {u"SP [MFLOP/s]", u"SP MFLOP/s"}},
                                                    {u"fp16", {u"HP [MFLOP/s]", u"HP MFLOP/s"}}}};
    for (const Names& names : kSpecific) {
        for (const char16_t* row : names.rows) {
            if (const auto rate = in.get(QString::fromUtf16(row), false)) {
                out.flopRates.emplace_back(QString::fromUtf16(names.precision), *rate * 1e6);
                break;
            }
        }
    }
    if (!out.flopRates.empty() || !out.notFiniteRows.isEmpty())
        return;
    for (const QString& generic : {u"MFLOP/s"_s, u"[MFLOP/s]"_s, u"FP rate [MFLOP/s]"_s}) {
        if (const auto rate = in.get(generic, false)) {
            out.flopRates.emplace_back(precisionOfGroup(out.group), *rate * 1e6);
            return;
        }
    }
}

void readVolumes(RunValues& in, Measurement& out)
{
    struct Level {
        const char16_t* level;
        const char16_t* volume;     // GBytes
        const char16_t* bandwidth;  // MBytes/s, x runtime when the volume is missing
    };
    static const std::array<Level, 4> kLevels = {
        {{u"DRAM", u"Memory data volume [GBytes]", u"Memory bandwidth [MBytes/s]"},
         {u"DRAM", u"HBM data volume [GBytes]", u"HBM bandwidth [MBytes/s]"},
         {u"L3", u"L3 data volume [GBytes]", u"L3 bandwidth [MBytes/s]"},
         {u"L2", u"L2 data volume [GBytes]", u"L2 bandwidth [MBytes/s]"}}};
    for (const Level& level : kLevels) {
        const QString name = QString::fromUtf16(level.level);
        if (out.bytes.count(name))
            continue;  // main memory from "Memory", HBM only without it
        if (const auto volume = in.get(QString::fromUtf16(level.volume), false))
            out.bytes[name] = *volume * 1e9;
        else if (const auto rate = in.get(QString::fromUtf16(level.bandwidth), false); rate && out.runtime)
            out.bytes[name] = *rate * 1e6 * *out.runtime;
    }
}

// The rows readFlopRates and readVolumes look at.
QStringList readRows()
{
    return {kRuntime,
            u"DP [MFLOP/s]"_s,
            u"DP MFLOP/s"_s,
            u"SP [MFLOP/s]"_s,
            u"SP MFLOP/s"_s,
            u"HP [MFLOP/s]"_s,
            u"HP MFLOP/s"_s,
            u"MFLOP/s"_s,
            u"[MFLOP/s]"_s,
            u"FP rate [MFLOP/s]"_s,
            u"Memory data volume [GBytes]"_s,
            u"Memory bandwidth [MBytes/s]"_s,
            u"HBM data volume [GBytes]"_s,
            u"HBM bandwidth [MBytes/s]"_s,
            u"L3 data volume [GBytes]"_s,
            u"L3 bandwidth [MBytes/s]"_s,
            u"L2 data volume [GBytes]"_s,
            u"L2 bandwidth [MBytes/s]"_s};
}

Result<Measurement> measure(const Run& run)
{
    Measurement out;
    out.region = run.region;
    out.group = run.group;
    out.line = run.line;
    RunValues in(run, out);
    if (!in.has(kRuntime))
        return errorAt(run.line, 1, u"the "_s + run.group + u" Metric table has no \""_s + kRuntime + u"\" row"_s);
    out.runtime = in.get(kRuntime, true);
    readFlopRates(in, out);
    if (!out.notFiniteRows.isEmpty())
        out.flopRates.clear();  // a "-" or nan FLOP rate or runtime: FLOPs must come from another group
    readVolumes(in, out);
    in.checkAll(readRows());
    if (in.error())
        return *in.error();
    return out;
}

struct Merged {
    const Measurement* flops = nullptr;
    std::vector<std::pair<QString, const Measurement*>> levels;  // outermost first
};

// One region's runs become one kernel: FLOPs and time from the run that counts FLOPs (one that also measured
// traffic wins: the same run), the bytes of each level from the FLOP run if it has them, else the first run.
Merged merge(const std::vector<const Measurement*>& runs)
{
    Merged merged;
    for (const Measurement* run : runs)
        if (!run->flopRates.empty() && (!merged.flops || (merged.flops->bytes.empty() && !run->bytes.empty())))
            merged.flops = run;
    for (const QString& level : {u"DRAM"_s, u"L3"_s, u"L2"_s}) {
        const Measurement* source = merged.flops && merged.flops->bytes.count(level) ? merged.flops : nullptr;
        for (auto it = runs.begin(); it != runs.end() && !source; ++it)
            source = (*it)->bytes.count(level) ? *it : nullptr;
        if (source)
            merged.levels.emplace_back(level, source);
    }
    return merged;
}

QString groupsOf(const std::vector<const Measurement*>& runs)
{
    QStringList groups;
    for (const Measurement* run : runs)
        if (!groups.contains(run->group))
            groups.append(run->group);
    return groups.join(u'+');
}

QString skipReason(const std::vector<const Measurement*>& runs, const Merged& merged)
{
    QString notFinite;
    for (const Measurement* run : runs)
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
    if (merged.flops->flopRate() <= 0.0)
        return u"0 FLOP/s (no floating-point work in this region?)"_s;
    if (merged.levels.front().second->bytes.at(merged.levels.front().first) <= 0.0)
        return u"0 bytes of memory traffic"_s;
    return QString();
}

std::optional<QString> fillKernel(KernelResult& kernel, const Merged& merged)
{
    const Measurement& flops = *merged.flops;
    kernel.seconds = *flops.runtime;
    kernel.flops = flops.flopRate() * kernel.seconds;
    kernel.precision = flops.flopRates.size() > 1 ? u"mixed"_s : flops.flopRates.front().first;
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
    std::vector<Measurement> measurements;
};

Result<ParsedFile> parse(const QString& text)
{
    auto file = readLikwidTables(text);
    if (!file.ok())
        return file.error();
    ParsedFile parsed{std::move(file).value(), {}};
    for (const Run& run : runsOf(parsed.tables)) {
        auto measured = measure(run);
        if (!measured.ok())
            return measured.error();
        parsed.measurements.push_back(std::move(measured).value());
    }
    return parsed;
}

using Regions = std::vector<std::pair<QString, std::vector<const Measurement*>>>;

// Regions in order of first appearance; each becomes one kernel however many groups (and files) measured it.
Regions regionsOf(const std::vector<ParsedFile>& files)
{
    Regions regions;
    for (const ParsedFile& file : files) {
        for (const Measurement& measurement : file.measurements) {
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
        for (const Measurement& measurement : files[f].measurements) {
            const auto [it, inserted] = fileOf.emplace(std::pair{measurement.region, measurement.group}, f);
            if (!inserted && it->second != f)
                return false;
        }
    }
    return true;
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
        std::vector<const Measurement*> used = {merged.flops};
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
    result.notes.append(first.ascii ? u"likwid-perfctr tables (its default output)"_s : u"likwid-perfctr CSV"_s);
    if (!first.cpuName.isEmpty())
        result.notes.append(u"measured on "_s + first.cpuName);
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
