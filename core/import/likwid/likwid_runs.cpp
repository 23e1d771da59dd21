#include "core/import/likwid/likwid_runs.h"

#include "core/import/text/import_text.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>

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

// Reads rows of one run. Amounts come from the per-thread table: a rate times that thread's own runtime, summed over
// the threads. A STAT table's Sum of rates times its Max runtime would credit every thread with the slowest one's
// time (too many FLOPs when threads finish at different times); it stands in only when the per-thread table lacks
// the row.
class RunValues {
public:
    RunValues(const Run& run, LikwidMeasurement& out) : m_run(run), m_out(out)
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
    LikwidMeasurement& m_out;
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

void readFlopRates(RunValues& in, LikwidMeasurement& out)
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

void readVolumes(RunValues& in, LikwidMeasurement& out)
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

Result<LikwidMeasurement> measure(const Run& run)
{
    LikwidMeasurement out;
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

}  // namespace

Result<std::vector<LikwidMeasurement>> measureLikwidRuns(const LikwidFile& file)
{
    std::vector<LikwidMeasurement> measurements;
    for (const Run& run : runsOf(file)) {
        auto measured = measure(run);
        if (!measured.ok())
            return measured.error();
        measurements.push_back(std::move(measured).value());
    }
    return measurements;
}

}  // namespace ridgeline
