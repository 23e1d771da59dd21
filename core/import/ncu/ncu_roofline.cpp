#include "core/import/ncu/ncu_roofline.h"

#include "core/import/text/import_text.h"

#include <QStringList>

#include <array>
#include <map>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kDuration = u"gpu__time_duration.sum"_s;
const QString kDurationLabel = u"Duration"_s;  // the Speed Of Light section's row for the same metric
const QString kSmCycles = u"sm__cycles_elapsed.avg"_s;
const QString kSmspCycles = u"smsp__cycles_elapsed.avg"_s;
const QString kPerSecond = u".per_second"_s;
const QString kPerCycle = u".per_cycle_elapsed"_s;
const QString kSass = u"__sass_thread_inst_executed_op_"_s;
const QString kTensorOps = u"sm__ops_path_tensor_src_"_s;

// The base unit each kind of counter is converted to.
enum class Quantity { Seconds, Bytes, Count, Cycles, Frequency, BytesPerSecond, PerCycle };

QString baseUnit(Quantity quantity)
{
    switch (quantity) {
        case Quantity::Seconds:
            return u"second"_s;
        case Quantity::Bytes:
            return u"byte"_s;
        case Quantity::Count:
            return u"inst"_s;
        case Quantity::Cycles:
            return u"cycle"_s;
        case Quantity::Frequency:
            return u"cycle/second"_s;
        case Quantity::BytesPerSecond:
            return u"byte/second"_s;
        case Quantity::PerCycle:
            return u"inst/cycle"_s;
    }
    return QString();
}

std::optional<double> scaleOf(const QString& unit, Quantity quantity)
{
    if (unit.isEmpty() && quantity != Quantity::Seconds && quantity != Quantity::Bytes)
        return 1.0;  // ncu leaves counts of operations, cycles and ratios without a unit
    if (const auto scale = unitScale(unit, baseUnit(quantity)))
        return scale;
    if (quantity == Quantity::Count)  // tensor operations
        return unitScale(unit, u"op"_s);
    if (quantity == Quantity::Bytes && unit == u"sector"_s)
        return 32.0;
    return std::nullopt;
}

QString expectedUnits(Quantity quantity)
{
    switch (quantity) {
        case Quantity::Seconds:
            return u"second, msecond, usecond, nsecond, s, ms, us or ns"_s;
        case Quantity::Frequency:
            return u"cycle/second, cycle/nsecond or hz, Khz, Mhz, Ghz"_s;
        case Quantity::BytesPerSecond:
            return u"byte/second or byte/s, with K/M/G/T prefixes"_s;
        default:
            return baseUnit(quantity) + u" or K/M/G/T"_s + baseUnit(quantity);
    }
}

bool isNotCollected(const QString& text)
{
    return text.isEmpty() || text.compare(u"n/a"_s, Qt::CaseInsensitive) == 0 ||
           text.compare(u"no data"_s, Qt::CaseInsensitive) == 0;
}

bool isNotFinite(const QString& text)
{
    static const QStringList kWords = {u"nan"_s,  u"-nan"_s, u"+nan"_s,     u"inf"_s,
                                       u"-inf"_s, u"+inf"_s, u"infinity"_s, u"-infinity"_s};
    return kWords.contains(text.toLower());
}

// One kernel's cells converted to base units. A missing, "n/a" or "no data" cell reads as nullopt; a nan
// or inf one too, and it is remembered; anything else unreadable is an Error for the whole file.
class MetricValues {
public:
    explicit MetricValues(const QHash<QString, NcuCell>& metrics) : m_metrics(metrics) {}

    std::optional<double> get(const QString& metric, Quantity quantity)
    {
        const auto it = m_metrics.constFind(metric);
        if (it == m_metrics.constEnd() || m_error)
            return std::nullopt;
        const QString text = it->value.trimmed();
        if (isNotCollected(text))
            return std::nullopt;
        if (isNotFinite(text)) {
            if (m_notFinite.isEmpty())
                m_notFinite = metric + u" is \""_s + text + u"\" (line "_s + QString::number(it->line) + u')';
            return std::nullopt;
        }
        const Result<double> number = parseNumber(text, Thousands::Comma);
        if (!number.ok())
            return fail(*it, metric + u": "_s + number.error().message);
        const std::optional<double> scale = scaleOf(it->unit, quantity);
        if (!scale)
            return fail(
                *it, metric + u": unknown unit \""_s + it->unit + u"\" (expected "_s + expectedUnits(quantity) + u')');
        return number.value() * *scale;
    }
    bool has(const QString& metric) const { return m_metrics.contains(metric); }
    const QHash<QString, NcuCell>& cells() const { return m_metrics; }
    const std::optional<Error>& error() const { return m_error; }
    const QString& notFinite() const { return m_notFinite; }

private:
    std::optional<double> fail(const NcuCell& cell, const QString& what)
    {
        m_error = makeError(Error::Code::Parse, lineColumn(cell.line, cell.column) + u": "_s + what);
        return std::nullopt;
    }

    const QHash<QString, NcuCell>& m_metrics;
    std::optional<Error> m_error;
    QString m_notFinite;
};

// Time, in the order Nsight Compute's own sections and NERSC's roofline recipe use.
void readTime(MetricValues& in, NcuRoofline& out)
{
    if (const auto seconds = in.get(kDuration, Quantity::Seconds)) {
        out.seconds = seconds;
        out.timeFrom = kDuration;
    } else if (const auto label = in.get(kDurationLabel, Quantity::Seconds)) {
        out.seconds = label;
        out.timeFrom = u"Duration (gpu__time_duration.sum)"_s;
    }
    for (const QString& cycles : {kSmCycles, kSmspCycles}) {
        if (out.seconds)
            return;
        const auto count = in.get(cycles, Quantity::Cycles);
        const auto rate = in.get(cycles + kPerSecond, Quantity::Frequency);
        if (count && rate && *rate > 0.0) {
            out.seconds = *count / *rate;
            out.timeFrom = cycles + u" / "_s + cycles + kPerSecond;
        }
    }
}

// Elapsed cycles of one unit (sm or smsp), to turn a per-cycle rate into a count: the counter itself, or
// its rate times the time (what the sections' rate x frequency gives).
std::optional<double> elapsedCycles(MetricValues& in, const QString& unit, const NcuRoofline& out)
{
    const QString cycles = unit + u"__cycles_elapsed.avg"_s;
    if (const auto count = in.get(cycles, Quantity::Cycles))
        return count;
    const auto rate = in.get(cycles + kPerSecond, Quantity::Frequency);
    if (rate && out.seconds)
        return *rate * *out.seconds;
    return std::nullopt;
}

// One SASS op count (e.g. "ffma"): absolute if collected, else per-cycle rate x elapsed cycles.
std::optional<double> opCount(MetricValues& in, const QString& op, int derivedFactor, const NcuRoofline& out,
                              bool& present)
{
    for (const QString& unit : {u"sm"_s, u"smsp"_s}) {
        const QString name = unit + kSass + op + u"_pred_on.sum"_s;
        present = present || in.has(name) || in.has(name + kPerCycle);
        if (const auto count = in.get(name, Quantity::Count))
            return count;
    }
    for (const QString& unit : {u"smsp"_s, u"sm"_s}) {
        const QString rate = unit + kSass + op + u"_pred_on.sum"_s + kPerCycle;
        const QString derived = u"derived__"_s + unit + kSass + op + u"_pred_on_x"_s + QString::number(derivedFactor);
        present = present || in.has(derived);
        std::optional<double> perCycle = in.get(rate, Quantity::PerCycle);
        if (!perCycle) {
            if (const auto weighted = in.get(derived, Quantity::PerCycle))
                perCycle = *weighted / derivedFactor;
        }
        if (!perCycle)
            continue;
        if (const auto cycles = elapsedCycles(in, unit, out))
            return *perCycle * *cycles;
    }
    return std::nullopt;
}

void readSassFlops(MetricValues& in, NcuRoofline& out)
{
    struct Precision {
        QChar letter;
        const char16_t* name;
        int addMul;  // FLOPs per add or mul instruction (2 for the half2 forms)
        int fma;     // FLOPs per fma instruction
    };
    static const std::array<Precision, 3> kPrecisions = {
        {{u'd', u"fp64", 1, 2}, {u'f', u"fp32", 1, 2}, {u'h', u"fp16", 2, 4}}};
    for (const Precision& p : kPrecisions) {
        double flops = 0.0;
        bool present = false;
        for (const QString& op : {u"add"_s, u"mul"_s, u"fma"_s}) {
            const int weight = op == u"fma"_s ? p.fma : p.addMul;
            // The derived__ metrics are pre-weighted: x2 for dfma/ffma/hadd/hmul, x4 for hfma; dadd etc. have none.
            const int derivedFactor = weight > 1 ? weight : 2;
            if (const auto count = opCount(in, QString(p.letter) + op, derivedFactor, out, present))
                flops += weight * *count;
        }
        out.anyFlopCounter = out.anyFlopCounter || present;
        if (flops > 0.0)
            out.flops.emplace_back(QString::fromUtf16(p.name), flops);
    }
}

struct TensorEntry {
    QString dst;
    QString sparsity;
    double ops = 0.0;
};

// "sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum" -> src "fp16", dst "fp32", sparsity "off".
std::optional<std::pair<QString, TensorEntry>> parseTensorMetric(const QString& name, QString& suffix)
{
    if (!name.startsWith(kTensorOps))
        return std::nullopt;
    for (const QString& end : {u".sum"_s, u".sum.per_cycle_elapsed"_s}) {
        if (!name.endsWith(end))
            continue;
        suffix = end;
        QString rest = name.mid(kTensorOps.size(), name.size() - kTensorOps.size() - end.size());
        TensorEntry entry;
        for (const QString& mode : {u"on"_s, u"off"_s}) {
            if (rest.endsWith(u"_sparsity_"_s + mode)) {
                entry.sparsity = mode;
                rest.chop(10 + mode.size());
            }
        }
        const qsizetype dst = rest.indexOf(u"_dst_"_s);
        if (dst >= 0) {
            entry.dst = rest.mid(dst + 5);
            rest.truncate(dst);
        }
        if (rest.isEmpty())
            return std::nullopt;
        return std::pair{rest, entry};
    }
    return std::nullopt;
}

// Sum per source type without counting one operation twice: the coarsest breakdown the file has wins
// (src_X over src_X_dst_Y over src_X_dst_Y_sparsity_Z).
double tensorTotal(const std::vector<TensorEntry>& entries)
{
    for (const TensorEntry& entry : entries)
        if (entry.dst.isEmpty() && entry.sparsity.isEmpty())
            return entry.ops;
    std::map<QString, std::pair<std::optional<double>, double>> byDst;  // plain, sum of sparsity variants
    for (const TensorEntry& entry : entries) {
        auto& [plain, sparse] = byDst[entry.dst];
        if (entry.sparsity.isEmpty())
            plain = entry.ops;
        else
            sparse += entry.ops;
    }
    double total = 0.0;
    for (const auto& [dst, values] : byDst)
        total += values.first.value_or(values.second);
    return total;
}

void readTensorOps(MetricValues& in, NcuRoofline& out)
{
    std::map<QString, std::vector<TensorEntry>> bySource;
    for (auto it = in.cells().cbegin(); it != in.cells().cend(); ++it) {
        QString suffix;
        auto parsed = parseTensorMetric(it.key(), suffix);
        if (!parsed)
            continue;
        out.tensorCounted = true;
        std::optional<double> ops;
        if (suffix == u".sum"_s) {
            ops = in.get(it.key(), Quantity::Count);
        } else if (const auto perCycle = in.get(it.key(), Quantity::PerCycle)) {
            if (const auto cycles = elapsedCycles(in, u"sm"_s, out))
                ops = *perCycle * *cycles;
        }
        // .sum wins over the rate form of the same counter.
        auto& entries = bySource[parsed->first];
        parsed->second.ops = ops.value_or(0.0);
        bool replaced = false;
        for (TensorEntry& entry : entries) {
            if (entry.dst == parsed->second.dst && entry.sparsity == parsed->second.sparsity) {
                if (suffix == u".sum"_s)
                    entry.ops = parsed->second.ops;
                replaced = true;
            }
        }
        if (!replaced)
            entries.push_back(parsed->second);
    }
    for (const auto& [source, entries] : bySource) {
        const double ops = tensorTotal(entries);
        if (source.startsWith(u"int"_s))
            out.integerTensorOps += ops;
        else if (ops > 0.0)
            out.flops.emplace_back(u"tensor-"_s + QString(source).replace(u'_', u'/'), ops);
    }
    for (const QString& name : {u"sm__inst_executed_pipe_tensor.sum"_s, u"smsp__inst_executed_pipe_tensor.sum"_s}) {
        if (const auto instructions = in.get(name, Quantity::Count)) {
            out.tensorInstructions = *instructions;
            break;
        }
    }
}

// Bytes of one level: the first of the given counters the kernel has (rates times the time).
std::optional<double> levelBytes(MetricValues& in, const NcuRoofline& out, const QStringList& totals,
                                 const QStringList& rates)
{
    for (const QString& total : totals)
        if (const auto bytes = in.get(total, Quantity::Bytes))
            return bytes;
    for (const QString& rate : rates) {
        const auto perSecond = in.get(rate, Quantity::BytesPerSecond);
        if (perSecond && out.seconds)
            return *perSecond * *out.seconds;
    }
    return std::nullopt;
}

void readBytes(MetricValues& in, NcuRoofline& out)
{
    out.dram = in.get(u"dram__bytes.sum"_s, Quantity::Bytes);
    if (!out.dram) {
        for (const QString& kind : {u"bytes"_s, u"sectors"_s}) {
            const auto read = in.get(u"dram__"_s + kind + u"_read.sum"_s, Quantity::Bytes);
            const auto write = in.get(u"dram__"_s + kind + u"_write.sum"_s, Quantity::Bytes);
            if (read && write && !out.dram)
                out.dram = *read + *write;
        }
    }
    if (!out.dram)
        out.dram = levelBytes(in, out, {}, {u"dram__bytes.sum.per_second"_s});
    out.l2 = levelBytes(in, out, {u"lts__t_bytes.sum"_s},
                        {u"lts__t_bytes.sum.per_second"_s, u"derived__lts__lts2xbar_bytes.sum.per_second"_s});
    out.l1 = levelBytes(
        in, out, {u"l1tex__t_bytes.sum"_s},
        {u"l1tex__t_bytes.sum.per_second"_s, u"derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second"_s,
         u"derived__l1tex__lsu_writeback_bytes_mem_lg.sum.per_second"_s,
         u"derived__l1tex__lsu_writeback_bytes.sum.per_second"_s});
}

}  // namespace

double NcuRoofline::totalFlops() const
{
    double total = 0.0;
    for (const auto& [precision, value] : flops)
        total += value;
    return total;
}

bool isNcuRooflineMetric(QStringView name)
{
    static const QStringList kExact = {kDuration,
                                       kDurationLabel,
                                       kSmCycles,
                                       kSmCycles + kPerSecond,
                                       kSmspCycles,
                                       kSmspCycles + kPerSecond,
                                       u"sm__inst_executed_pipe_tensor.sum"_s,
                                       u"smsp__inst_executed_pipe_tensor.sum"_s,
                                       u"dram__bytes.sum"_s,
                                       u"dram__bytes_read.sum"_s,
                                       u"dram__bytes_write.sum"_s,
                                       u"dram__sectors_read.sum"_s,
                                       u"dram__sectors_write.sum"_s,
                                       u"dram__bytes.sum.per_second"_s,
                                       u"lts__t_bytes.sum"_s,
                                       u"lts__t_bytes.sum.per_second"_s,
                                       u"derived__lts__lts2xbar_bytes.sum.per_second"_s,
                                       u"l1tex__t_bytes.sum"_s,
                                       u"l1tex__t_bytes.sum.per_second"_s,
                                       u"derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second"_s,
                                       u"derived__l1tex__lsu_writeback_bytes_mem_lg.sum.per_second"_s,
                                       u"derived__l1tex__lsu_writeback_bytes.sum.per_second"_s,
                                       u"device__attribute_display_name"_s};
    if (kExact.contains(name))
        return true;
    if (name.startsWith(kTensorOps))
        return name.endsWith(u".sum"_s) || name.endsWith(u".sum.per_cycle_elapsed"_s);
    // Achieved SASS counts and their per-cycle forms; derived__smsp__ (achieved) but not derived__sm__ (peak).
    const bool sass = name.startsWith(u"sm__sass_thread_inst_executed_op_"_s) ||
                      name.startsWith(u"smsp__sass_thread_inst_executed_op_"_s);
    if (sass)
        return name.endsWith(u"_pred_on.sum"_s) || name.endsWith(u"_pred_on.sum.per_cycle_elapsed"_s);
    return name.startsWith(u"derived__smsp__sass_thread_inst_executed_op_"_s);
}

Result<NcuRoofline> readNcuRoofline(const QHash<QString, NcuCell>& metrics)
{
    MetricValues in(metrics);
    NcuRoofline out;
    readTime(in, out);
    readSassFlops(in, out);
    readTensorOps(in, out);
    readBytes(in, out);
    if (in.error())
        return *in.error();
    out.notFinite = in.notFinite();
    return out;
}

std::optional<QString> missingRooflineCounters(const NcuTable& table, const std::vector<NcuRoofline>& kernels)
{
    bool time = false;
    bool flops = false;
    bool bytes = false;
    for (const NcuRoofline& kernel : kernels) {
        time = time || kernel.seconds.has_value() || !kernel.notFinite.isEmpty();
        flops = flops || kernel.anyFlopCounter || kernel.tensorCounted || !kernel.notFinite.isEmpty();
        bytes = bytes || kernel.dram || kernel.l2 || kernel.l1 || !kernel.notFinite.isEmpty();
    }
    if (time && flops && bytes)
        return std::nullopt;
    if (table.details && table.metricRows == 0 && table.ruleRows > 0)
        return u"only rule results (sections "_s + table.sections.join(u", "_s) +
               u"), no metric values: the details page does not list the roofline charts' counters; export them with "
               "`ncu --csv --page raw --section SpeedOfLight_RooflineChart` (or --set roofline)"_s;
    QStringList missing;
    if (!time)
        missing.append(
            u"no kernel time (gpu__time_duration.sum, or sm__cycles_elapsed.avg with "
            "sm__cycles_elapsed.avg.per_second)"_s);
    if (!flops)
        missing.append(
            u"no FLOP counters (sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum, or their "
            ".per_cycle_elapsed forms; tensor work: sm__ops_path_tensor_src_*)"_s);
    if (!bytes)
        missing.append(
            u"no memory traffic (dram__bytes.sum or dram__bytes_read.sum + dram__bytes_write.sum, "
            "lts__t_bytes.sum, l1tex__t_bytes.sum)"_s);
    return u"the file has "_s + missing.join(u", "_s) +
           u"; collect them with `ncu --csv --page raw --set roofline`, or --metrics with the names above (NERSC's "
           "roofline list)"_s;
}

}  // namespace ridgeline
