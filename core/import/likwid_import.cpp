#include "core/import/likwid_import.h"

#include "core/import/import_text.h"
#include "core/import/imported_kernel.h"
#include "core/import/likwid_tables.h"

#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

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

// likwid-mpirun prints "nil" where a rank has no value (it did not run the region): that column adds nothing.
bool isNil(const QString& text)
{
    return text == u"nil"_s;
}

// What one run measured over all its threads (and ranks), in FLOPs, bytes and seconds.
struct Measurement {
    QString region;
    QString group;
    int line = 0;
    std::optional<double> runtime;                        // the slowest thread's
    std::vector<std::pair<QString, double>> flopAmounts;  // precision -> FLOPs (all threads)
    std::map<QString, double> bytes;                      // "DRAM", "L3", "L2"
    QString notFinite;                                    // the first "-" or nan value read, for the reason
    QStringList notFiniteRows;  // the rows that had one: this run gives no FLOPs or bytes from them
    int threads = 1;            // columns of the per-thread table: threads, or host:rank:cpu with likwid-mpirun
    int ranks = 0;              // likwid-mpirun's distinct ranks; 0 for likwid-perfctr
    bool fromTotals = false;    // no per-thread table: amounts from the STAT Sum x the slowest runtime
    int nilCells = 0;

    double flops() const
    {
        double total = 0.0;
        for (const auto& [precision, amount] : flopAmounts)
            total += amount;
        return total;
    }
};

// Reads rows of one run. Amounts come from the per-thread table: a rate times that thread's own runtime, summed over
// the threads. A STAT table's Sum of rates times its Max runtime would credit every thread with the slowest one's
// time (too many FLOPs when threads finish at different times); it stands in only when the per-thread table lacks
// the row.
class RunValues {
public:
    RunValues(const Run& run, Measurement& out) : m_run(run), m_out(out)
    {
        if (m_run.perThread) {
            m_out.threads = static_cast<int>(m_run.perThread->columns.size());
            m_out.ranks = ranksOf(m_run.perThread->columns);
        }
    }

    // likwid-mpirun names its columns "host:rank:cpu".
    static int ranksOf(const QStringList& columns)
    {
        static const QRegularExpression hostRankCpu(u"^(.+):(\\d+):(\\d+)$"_s);
        QStringList ranks;
        for (const QString& column : columns) {
            const auto match = hostRankCpu.match(column);
            if (!match.hasMatch())
                return 0;
            if (!ranks.contains(match.captured(2)))
                ranks.append(match.captured(2));
        }
        return static_cast<int>(ranks.size());
    }

    // The slowest thread's value (the runtime).
    std::optional<double> slowest(const QString& metric) { return combine(metric, Combine::Max); }
    // Summed over threads (data volumes).
    std::optional<double> sum(const QString& metric) { return combine(metric, Combine::Sum); }

    // A rate (per second) times each thread's runtime, summed over threads: the amount behind the rate.
    std::optional<double> amount(const QString& rateMetric)
    {
        const LikwidRow* rates = m_run.perThread ? find(*m_run.perThread, rateMetric) : nullptr;
        const LikwidRow* times = m_run.perThread ? find(*m_run.perThread, kRuntime) : nullptr;
        if (rates && times && rates->values.size() == times->values.size()) {
            std::optional<double> total;
            for (std::size_t t = 0; t < rates->values.size(); ++t) {
                const Cell rate = number(rateMetric, rates->values[t]);
                const Cell time = number(kRuntime, times->values[t]);
                if (rate.missing || time.missing)
                    return std::nullopt;
                if (rate.nil || time.nil)
                    continue;
                total = total.value_or(0.0) + rate.value * time.value;
            }
            return total;
        }
        const auto rate = statValue(rateMetric, u"Sum"_s);
        const auto time = statValue(kRuntime, u"Max"_s);
        if (!rate || !time)
            return std::nullopt;
        m_out.fromTotals = true;
        return *rate * *time;
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

    // Every value of the rows the importer reads must be a number or likwid's "-"/nan/nil, in both tables, even
    // where the other table is the one used: a corrupt cell is never passed over.
    void checkAll(const QStringList& metrics)
    {
        for (const LikwidTable* table : {m_run.perThread, m_run.stat}) {
            if (!table)
                continue;
            for (const LikwidRow& row : table->rows)
                if (metrics.contains(row.name))
                    for (const LikwidCell& cell : row.values)
                        if (number(row.name, cell, false).nil && table == m_run.perThread)
                            ++m_out.nilCells;
        }
    }

private:
    enum class Combine { Sum, Max };
    struct Cell {
        double value = 0.0;
        bool missing = false;  // "-", nan, inf or unreadable: the row gives nothing
        bool nil = false;      // likwid-mpirun's "nil": this column adds nothing
    };

    std::optional<double> combine(const QString& metric, Combine how)
    {
        const LikwidRow* row = m_run.perThread ? find(*m_run.perThread, metric) : nullptr;
        if (!row || row->values.empty())
            return statValue(metric, how == Combine::Max ? u"Max"_s : u"Sum"_s);
        std::optional<double> total;
        for (const LikwidCell& cell : row->values) {
            const Cell value = number(metric, cell);
            if (value.missing)
                return std::nullopt;
            if (value.nil)
                continue;
            total = !total ? value.value : (how == Combine::Max ? std::max(*total, value.value) : *total + value.value);
        }
        return total;
    }

    std::optional<double> statValue(const QString& metric, const QString& columnName)
    {
        const LikwidRow* row = m_run.stat ? find(*m_run.stat, metric) : nullptr;
        const qsizetype column = m_run.stat ? m_run.stat->columns.indexOf(columnName) : -1;
        if (!row || column < 0 || column >= static_cast<qsizetype>(row->values.size()))
            return std::nullopt;
        const Cell value = number(metric, row->values[static_cast<std::size_t>(column)]);
        if (value.missing || value.nil)
            return std::nullopt;
        return value.value;
    }

    Cell number(const QString& metric, const LikwidCell& cell, bool recordNotFinite = true)
    {
        if (m_error)
            return Cell{0.0, true, false};
        if (isNil(cell.text))
            return Cell{0.0, false, true};
        if (isNotFinite(cell.text)) {
            if (recordNotFinite && m_out.notFinite.isEmpty())
                m_out.notFinite = metric + u" is \""_s + cell.text + u"\" (line "_s + QString::number(cell.line) + u')';
            if (recordNotFinite && !m_out.notFiniteRows.contains(metric))
                m_out.notFiniteRows.append(metric);
            return Cell{0.0, true, false};
        }
        const Result<double> value = parseNumber(cell.text, Thousands::Refuse);
        if (!value.ok()) {
            m_error = errorAt(cell.line, cell.column, metric + u": "_s + value.error().message);
            return Cell{0.0, true, false};
        }
        return Cell{value.value(), false, false};
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
            if (const auto flops = in.amount(QString::fromUtf16(row))) {
                out.flopAmounts.emplace_back(QString::fromUtf16(names.precision), *flops * 1e6);
                break;
            }
        }
    }
    if (!out.flopAmounts.empty() || !out.notFiniteRows.isEmpty())
        return;
    for (const QString& generic : {u"MFLOP/s"_s, u"[MFLOP/s]"_s, u"FP rate [MFLOP/s]"_s}) {
        if (const auto flops = in.amount(generic)) {
            out.flopAmounts.emplace_back(precisionOfGroup(out.group), *flops * 1e6);
            return;
        }
    }
}

void readVolumes(RunValues& in, Measurement& out)
{
    struct Level {
        const char16_t* level;
        const char16_t* volume;     // GBytes
        const char16_t* bandwidth;  // MBytes/s, x each thread's runtime when the volume is missing
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
        if (const auto volume = in.sum(QString::fromUtf16(level.volume)))
            out.bytes[name] = *volume * 1e9;
        else if (const auto moved = in.amount(QString::fromUtf16(level.bandwidth)))
            out.bytes[name] = *moved * 1e6;
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
    out.runtime = in.slowest(kRuntime);
    readFlopRates(in, out);
    if (!out.notFiniteRows.isEmpty())
        out.flopAmounts.clear();  // a "-" or nan FLOP rate or runtime: FLOPs must come from another group
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
        if (!run->flopAmounts.empty() && (!merged.flops || (merged.flops->bytes.empty() && !run->bytes.empty())))
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
    if (merged.flops->flops() <= 0.0)
        return u"0 FLOP/s (no floating-point work in this region?)"_s;
    if (merged.levels.front().second->bytes.at(merged.levels.front().first) <= 0.0)
        return u"0 bytes of memory traffic"_s;
    return QString();
}

std::optional<QString> fillKernel(KernelResult& kernel, const Merged& merged)
{
    const Measurement& flops = *merged.flops;
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
        for (const Measurement& run : file.measurements) {
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
    const Threads threads = threadsOf(files);
    const QString tool = threads.ranks > 0 ? u"likwid-mpirun"_s : u"likwid-perfctr"_s;
    result.notes.append(first.ascii ? tool + u" tables (its default output)"_s : tool + u" CSV"_s);
    if (!threadsNote(threads).isEmpty())
        result.notes.append(threadsNote(threads));
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
