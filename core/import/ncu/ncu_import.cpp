#include "core/import/ncu/ncu_import.h"

#include "core/import/kernel/import_device.h"
#include "core/import/kernel/imported_kernel.h"
#include "core/import/kernel/kernel_names.h"
#include "core/import/ncu/ncu_roofline.h"
#include "core/import/ncu/ncu_table.h"
#include "core/import/text/import_text.h"

#include <QStringList>

#include <array>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

Error errorAt(int line, int column, const QString& what)
{
    return makeError(Error::Code::Parse, lineColumn(line, column) + u": "_s + what);
}

struct Evaluated {
    std::optional<KernelResult> kernel;  // nullopt: skipped with `reason`
    QString reason;
};

QString skipReason(const NcuRoofline& counters)
{
    if (!counters.notFinite.isEmpty())
        return u"a counter is not a finite number: "_s + counters.notFinite;
    if (!counters.seconds)
        return u"no time (gpu__time_duration.sum, or sm__cycles_elapsed.avg and its .per_second, is n/a or "
               "missing)"_s;
    if (*counters.seconds <= 0.0)
        return u"a time of 0"_s;
    if (counters.totalFlops() <= 0.0) {
        if (counters.tensorInstructions > 0.0 && !counters.tensorCounted)
            return u"no FLOPs counted: only tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum), which are "
                   "not FLOPs; collect sm__ops_path_tensor_src_*"_s;
        return u"no floating-point instructions executed (a copy, integer or tensor-only kernel?)"_s;
    }
    if (!(counters.dram.value_or(0.0) > 0.0 || counters.l2.value_or(0.0) > 0.0 || counters.l1.value_or(0.0) > 0.0))
        return u"no memory traffic (dram__bytes.sum, lts__t_bytes.sum and l1tex__t_bytes.sum are 0 or missing)"_s;
    return QString();
}

Result<Evaluated> evaluate(const NcuKernel& source, const NcuRoofline& counters, const QString& sourceName)
{
    Evaluated out;
    out.reason = skipReason(counters);
    if (!out.reason.isEmpty())
        return out;
    KernelResult kernel;
    kernel.kind = u"imported"_s;
    kernel.source = sourceName;
    const QString fullName = demangledName(source.name);
    kernel.name = shortKernelName(fullName);
    if (kernel.name != fullName)
        kernel.fullName = fullName;
    if (!source.grid.isEmpty() || !source.block.isEmpty())
        kernel.size = u"grid "_s + source.grid + u" block "_s + source.block;
    kernel.precision = counters.flops.size() > 1 ? u"mixed"_s : counters.flops.front().first;
    kernel.tensorFlopsCounted = counters.tensorCounted;
    kernel.device = gpuDeviceNamed(source.deviceName);
    // The primary point is the outermost level with traffic; the others join it as levels.
    const std::array<std::pair<QString, std::optional<double>>, 3> levels = {
        {{u"DRAM"_s, counters.dram}, {u"L2"_s, counters.l2}, {u"L1"_s, counters.l1}}};
    for (const auto& [level, bytes] : levels) {
        if (!bytes || *bytes <= 0.0)
            continue;
        if (kernel.level.isEmpty()) {
            kernel.level = level;
            kernel.bytes = *bytes;
        } else {
            kernel.levels.push_back(LevelPoint{level, *bytes, 0.0, 0.0});
        }
    }
    kernel.flops = counters.totalFlops();
    kernel.seconds = *counters.seconds;
    if (const auto problem = completeImportedKernel(kernel))
        return errorAt(source.line, source.nameColumn, u"kernel ID "_s + source.id + u": "_s + *problem);
    out.kernel = std::move(kernel);
    return out;
}

// ncu writes the same metrics for every kernel: one that lacks some was cut short (a truncated file), and
// reading it would silently undercount its FLOPs or bytes.
std::optional<Error> checkSameMetrics(const NcuTable& table)
{
    QStringList used;
    for (const NcuKernel& kernel : table.kernels)
        for (auto it = kernel.metrics.cbegin(); it != kernel.metrics.cend(); ++it)
            if (!used.contains(it.key()))
                used.append(it.key());
    used.sort();
    for (const NcuKernel& kernel : table.kernels) {
        if (kernel.metrics.isEmpty())
            continue;  // a kernel with only rule rows
        for (const QString& metric : used)
            if (!kernel.metrics.contains(metric))
                return errorAt(kernel.line, kernel.nameColumn,
                               u"kernel ID "_s + kernel.id + u" has no "_s + metric +
                                   u" row while other kernels have one (a truncated file?)"_s);
    }
    return std::nullopt;
}

QString countOf(int n, int of)
{
    return QString::number(n) + u" of "_s + QString::number(of) + u" kernels"_s;
}

// Which GPU the kernels ran on, per device the file names; kernels without a catalog GPU are said once each.
void addDeviceNotes(ImportResult& result)
{
    QStringList names;
    for (const KernelResult& kernel : result.kernels)
        if (!names.contains(kernel.device.name))
            names.append(kernel.device.name);
    for (const QString& name : std::as_const(names)) {
        int count = 0;
        QString gpu;
        for (const KernelResult& kernel : result.kernels)
            if (kernel.device.name == name) {
                ++count;
                gpu = kernel.device.gpu;
            }
        if (gpu.isEmpty())
            result.notes.append(missingGpuNote(count, name));
        else
            result.notes.append(QString::number(count) + (count == 1 ? u" kernel ran on "_s : u" kernels ran on "_s) +
                                name + u": drawn on the roofline of catalog GPU "_s + gpu);
    }
}

void addNotes(ImportResult& result, const NcuTable& table, const std::vector<NcuRoofline>& counters)
{
    result.notes.append(table.details ? u"Nsight Compute details CSV (one row per metric)"_s
                                      : u"Nsight Compute raw CSV (one column per metric, units in row 2)"_s);
    QStringList timeSources;
    int tensorCounted = 0;
    int tensorNotCounted = 0;
    int fp16 = 0;
    int integerOps = 0;
    for (const NcuRoofline& kernel : counters) {
        if (!kernel.timeFrom.isEmpty() && !timeSources.contains(kernel.timeFrom))
            timeSources.append(kernel.timeFrom);
        tensorCounted += kernel.tensorCounted ? 1 : 0;
        tensorNotCounted += !kernel.tensorCounted && kernel.tensorInstructions > 0.0 ? 1 : 0;
        integerOps += kernel.integerTensorOps > 0.0 ? 1 : 0;
        for (const auto& [precision, flops] : kernel.flops)
            fp16 += precision == u"fp16"_s ? 1 : 0;
    }
    const int all = static_cast<int>(counters.size());
    result.notes.append(u"time from "_s + timeSources.join(u", "_s));
    if (fp16 > 0)
        result.notes.append(
            u"FP16 counted as Nsight Compute's roofline sections count it: 2 FLOPs per HADD or HMUL "
            "and 4 per HFMA instruction (half2 pairs)"_s);
    if (tensorCounted > 0)
        result.notes.append(u"tensor FLOPs counted from sm__ops_path_tensor_src_* for "_s +
                            countOf(tensorCounted, all));
    else
        result.notes.append(u"no sm__ops_path_tensor_src_* counters: tensor-core FLOPs are not counted"_s);
    if (tensorNotCounted > 0)
        result.notes.append(
            countOf(tensorNotCounted, all) +
            u" ran tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum) that are not counted as "
            "FLOPs: that pipe also runs FP16 instructions on Volta to Ampere, and the FLOPs of one MMA "
            "depend on its shape; collect sm__ops_path_tensor_src_* (--section "
            "SpeedOfLight_HierarchicalTensorRooflineChart) to count them"_s);
    if (integerOps > 0)
        result.notes.append(countOf(integerOps, all) + u" ran integer tensor operations (int1/int4/int8), not FLOPs"_s);
    addDeviceNotes(result);
}

}  // namespace

Result<ImportResult> importNsightCompute(const QString& text, const QString& fileName)
{
    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::NsightCompute;
    auto table = readNcuTable(text, isNcuRooflineMetric, result.skipped);
    if (!table.ok())
        return table.error();
    std::vector<NcuRoofline> counters;
    counters.reserve(table.value().kernels.size());
    for (const NcuKernel& kernel : table.value().kernels) {
        auto read = readNcuRoofline(kernel.metrics);
        if (!read.ok())
            return read.error();
        counters.push_back(std::move(read).value());
    }
    if (const auto missing = missingRooflineCounters(table.value(), counters))
        return errorAt(table.value().headerLine, 1, *missing);
    if (auto error = checkSameMetrics(table.value()))
        return *error;

    const QString sourceName = importSource(fileName, u"ncu"_s);
    for (std::size_t i = 0; i < table.value().kernels.size(); ++i) {
        const NcuKernel& kernel = table.value().kernels[i];
        const auto evaluated = evaluate(kernel, counters[i], sourceName);
        if (!evaluated.ok())
            return evaluated.error();
        if (!evaluated.value().kernel) {
            result.skipped.push_back(SkippedRow{
                kernel.line, shortKernelName(kernel.name) + u" (ID "_s + kernel.id + u')', evaluated.value().reason});
            continue;
        }
        result.kernels.push_back(*evaluated.value().kernel);
    }
    addNotes(result, table.value(), counters);
    return result;
}

}  // namespace ridgeline
