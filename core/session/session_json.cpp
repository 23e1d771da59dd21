#include "core/session/session_json.h"

#include "core/session/session_energy_json.h"
#include "core/session/session_training_json.h"

#include "core/json/split_object.h"
#include "core/json/strict_reader.h"
#include "core/message_text.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_terms.h"
#include "core/model/llm/llm_model.h"
#include "core/model/number_format.h"
#include "core/model/physical_limits.h"
#include "core/read_file.h"
#include "core/save_file.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// Bounds past which a number is not a measurement but a corrupt or hostile file.
constexpr qsizetype kMaxEntries = 1'000'000;
constexpr qsizetype kMaxCaches = 1024;
constexpr qsizetype kMaxIsaFlags = 4096;
constexpr qsizetype kMaxLevels = 16;  // memory levels of one imported kernel
constexpr std::int64_t kMaxCpus = 65536;
constexpr std::int64_t kMaxCacheLevel = 16;
constexpr std::int64_t kMaxKernelBatch = std::int64_t{1} << 20;  // a measured kernel's batch (the model's is kMaxBatch)
constexpr std::int64_t kMaxRepetitions = 1'000'000'000;
constexpr std::int64_t kTiB = std::int64_t{1} << 40;
constexpr std::int64_t kPiB = std::int64_t{1} << 50;
constexpr double kMaxGflops = 1e9;           // 1e18 FLOP/s
constexpr double kMaxGbps = 1e9;             // 1e18 B/s
constexpr double kMaxOperationCount = 1e21;  // FLOPs or bytes of one kernel run
constexpr double kMaxSeconds = 1e7;          // about four months
constexpr double kMaxClockGhz = 1000.0;
constexpr double kMaxIntensity = 1e12;  // FLOP per byte
constexpr double kMaxTokensPerSecond = 1e12;
constexpr double kMaxSpeedup = 1e9;
constexpr double kMaxDifference = 1e300;   // only NaN and infinity are refused
constexpr double kMaxFlopsPerCycle = 1e6;  // per core; AMX does about 2048
constexpr std::int64_t kMaxCpuFamily = 0xFFFF;
constexpr std::int64_t kMaxCpuModel = 0xFFFF;
constexpr qsizetype kMaxFindings = 10'000;
constexpr qsizetype kMaxCalibrations = 1000;
constexpr qsizetype kMaxCalibrationPoints = 100'000;
constexpr double kMaxMeasuredValue = 1e12;  // seconds or tokens per second of one benchmark figure
constexpr double kMaxRelativeError = 1e6;   // a prediction a million times off is still a number a fit can report

// The first schema with each group of fields; a file of an older schema that has them is refused as unknown.
constexpr int kFirstSchemaWithChecks = 2;  // clock, core, last-level cache, FLOP/cycle, findings, skipped

// min, median and max are flattened into the entry; all three or none, and in that order.
Spread readSpread(ObjectReader& in, double max)
{
    const bool any = in.has("min"_L1) || in.has("median"_L1) || in.has("max"_L1);
    const Need need = any ? Need::Required : Need::Optional;
    Spread spread;
    spread.min = in.number("min"_L1, max, need);
    spread.median = in.number("median"_L1, max, need);
    spread.max = in.number("max"_L1, max, need);
    Problem& problem = in.problem();
    if (problem.found())
        return spread;
    if (spread.min > spread.median)
        problem.report(Error::Code::Range, in.where("min"_L1) + u" ("_s + formatExactNumber(spread.min) +
                                               u") must not exceed the median ("_s + formatExactNumber(spread.median) +
                                               u')');
    else if (spread.median > spread.max)
        problem.report(Error::Code::Range, in.where("median"_L1) + u" ("_s + formatExactNumber(spread.median) +
                                               u") must not exceed the max ("_s + formatExactNumber(spread.max) + u')');
    return spread;
}

// A ceiling of 0 or a kernel that took 0 s has no place on a log-log chart (and divides by zero): the file is
// refused naming the field, rather than drawn without it. Mirrored by exclusiveMinimum in session.schema.json.
void requireAboveZero(ObjectReader& in, QLatin1StringView key, double value, const QString& why)
{
    if (!in.problem().found() && value <= 0.0)
        in.problem().report(Error::Code::Range,
                            in.where(key) + u" must be above 0 ("_s + why + u"), got "_s + formatExactNumber(value));
}

// Rates, bandwidths, intensities and times keep to the one physical rule (core/model/physical_limits.h), so that a
// ridge or an axis built from them stays finite; Zero::NotMeasured allows 0 for fields where it means "not measured".
enum class Zero { Refused, NotMeasured };
void requirePhysical(ObjectReader& in, QLatin1StringView key, double value, PhysicalQuantity quantity,
                     Zero zero = Zero::Refused)
{
    if (in.problem().found() || (zero == Zero::NotMeasured && value == 0.0))
        return;
    if (const std::optional<QString> problem = physicalProblem(quantity, value))
        in.problem().report(Error::Code::Range, in.where(key) + u' ' + *problem);
}

// Each struct's writer and reader sit side by side so that a key cannot drift between them.

QJsonObject cacheToJson(const CacheInfo& cache)
{
    return {{u"level"_s, cache.level},
            {u"type"_s, cache.type},
            {u"size_bytes"_s, static_cast<qint64>(cache.sizeBytes)},
            {u"shared_by_cpus"_s, cache.sharedByCpus}};
}

CacheInfo cacheFromJson(ObjectReader& in)
{
    CacheInfo cache;
    cache.level = in.smallInteger("level"_L1, 0, kMaxCacheLevel, 0);
    cache.type = in.text("type"_L1);
    cache.sizeBytes = in.integer("size_bytes"_L1, 0, kTiB, 0);
    cache.sharedByCpus = in.smallInteger("shared_by_cpus"_L1, 0, kMaxCpus, 1);
    return cache;
}

QJsonObject clockToJson(const ClockMeasurement& clock)
{
    QJsonObject object{
        {u"method"_s, clock.method},  {u"add_chain_ghz"_s, clock.addChainGhz}, {u"mul_chain_ghz"_s, clock.mulChainGhz},
        {u"tsc_ghz"_s, clock.tscGhz}, {u"reported_ghz"_s, clock.reportedGhz},  {u"doubtful"_s, clock.doubtful}};
    if (!clock.reportedSource.isEmpty())
        object.insert("reported_source"_L1, clock.reportedSource);
    if (!clock.doubt.isEmpty())
        object.insert("doubt"_L1, clock.doubt);
    return object;
}

ClockMeasurement clockFromJson(ObjectReader& in)
{
    ClockMeasurement clock;
    clock.method = in.text("method"_L1, Need::Required);
    clock.addChainGhz = in.number("add_chain_ghz"_L1, kMaxClockGhz);
    clock.mulChainGhz = in.number("mul_chain_ghz"_L1, kMaxClockGhz);
    clock.tscGhz = in.number("tsc_ghz"_L1, kMaxClockGhz);
    clock.reportedGhz = in.number("reported_ghz"_L1, kMaxClockGhz);
    clock.reportedSource = in.text("reported_source"_L1);
    clock.doubtful = in.boolean("doubtful"_L1, false);
    clock.doubt = in.text("doubt"_L1);
    if (!in.problem().found() && clock.doubtful && clock.doubt.isEmpty())
        in.problem().report(Error::Code::Schema, in.where("doubt"_L1) + u" must say why the clock is doubtful"_s);
    return clock;
}

QJsonObject lastLevelCacheToJson(const LastLevelCache& cache)
{
    return {{u"level"_s, cache.level},
            {u"reported_bytes"_s, static_cast<qint64>(cache.reportedBytes)},
            {u"effective_bytes"_s, static_cast<qint64>(cache.effectiveBytes)},
            {u"basis"_s, cache.basis}};
}

LastLevelCache lastLevelCacheFromJson(ObjectReader& in)
{
    LastLevelCache cache;
    cache.level = in.smallInteger("level"_L1, 0, kMaxCacheLevel, 0, Need::Required);
    cache.reportedBytes = in.integer("reported_bytes"_L1, 0, kPiB, 0);
    cache.effectiveBytes = in.integer("effective_bytes"_L1, 0, kPiB, 0, Need::Required);
    cache.basis = in.text("basis"_L1);
    return cache;
}

QJsonObject machineCoreToJson(const MachineInfo& machine, const QJsonArray& caches)
{
    return {{u"cpu_model"_s, machine.cpuModel},
            {u"hostname"_s, machine.hostname},
            {u"os"_s, machine.os},
            {u"cores"_s, machine.cores},
            {u"isa"_s, QJsonArray::fromStringList(machine.isa)},
            {u"caches"_s, caches},
            {u"openblas_version"_s, machine.openblasVersion},
            {u"openblas_core"_s, machine.openblasCore},
            {u"openblas_config"_s, machine.openblasConfig},
            {u"openblas_threads"_s, machine.openblasThreads},
            {u"clock_ghz"_s, machine.clockGhz},
            {u"memory_available_bytes"_s, static_cast<qint64>(machine.memoryAvailableBytes)}};
}

QJsonObject machineToJson(const MachineInfo& machine)
{
    QJsonArray caches;
    for (const CacheInfo& cache : machine.caches)
        caches.append(cacheToJson(cache));
    QJsonObject object = machineCoreToJson(machine, caches);
    // Schema 2 fields only when known, so an imported session stays as small as it was.
    if (!machine.vendor.isEmpty())
        object.insert("vendor"_L1, machine.vendor);
    if (machine.family > 0)
        object.insert("family"_L1, machine.family);
    if (machine.model > 0)
        object.insert("model"_L1, machine.model);
    if (machine.hypervisor)
        object.insert("hypervisor"_L1, true);
    if (!machine.coreName.isEmpty())
        object.insert("core"_L1, QJsonObject{{u"name"_s, machine.coreName}, {u"basis"_s, machine.coreBasis}});
    if (!machine.clock.method.isEmpty())
        object.insert("clock"_L1, clockToJson(machine.clock));
    if (machine.lastLevelCache.effectiveBytes > 0 || machine.lastLevelCache.level > 0)
        object.insert("last_level_cache"_L1, lastLevelCacheToJson(machine.lastLevelCache));
    return object;
}

MachineInfo machineFromJson(ObjectReader& in, int schema)
{
    MachineInfo machine;
    machine.cpuModel = in.text("cpu_model"_L1, Need::Required);
    machine.cores = in.smallInteger("cores"_L1, 1, kMaxCpus, 0, Need::Required);
    machine.hostname = in.text("hostname"_L1);
    machine.os = in.text("os"_L1);
    machine.isa = textListFromJson(in, "isa"_L1, kMaxIsaFlags);
    machine.caches = readEntries<CacheInfo>(in, "caches"_L1, kMaxCaches, Need::Optional, cacheFromJson);
    machine.openblasVersion = in.text("openblas_version"_L1);
    machine.openblasCore = in.text("openblas_core"_L1);
    machine.openblasConfig = in.text("openblas_config"_L1);
    machine.openblasThreads = in.smallInteger("openblas_threads"_L1, 0, kMaxCpus, 0);
    machine.clockGhz = in.number("clock_ghz"_L1, kMaxClockGhz);
    machine.memoryAvailableBytes = in.integer("memory_available_bytes"_L1, 0, kPiB, 0);
    if (schema < kFirstSchemaWithChecks)
        return machine;
    machine.vendor = in.text("vendor"_L1);
    machine.family = in.smallInteger("family"_L1, 0, kMaxCpuFamily, 0);
    machine.model = in.smallInteger("model"_L1, 0, kMaxCpuModel, 0);
    machine.hypervisor = in.boolean("hypervisor"_L1, false);
    if (const auto core = in.object("core"_L1, Need::Optional)) {
        ObjectReader coreIn(*core, in.where("core"_L1), in.problem());
        machine.coreName = coreIn.text("name"_L1, Need::Required);
        machine.coreBasis = coreIn.text("basis"_L1);
        coreIn.rejectUnknownKeys();
    }
    if (const auto clock = in.object("clock"_L1, Need::Optional)) {
        ObjectReader clockIn(*clock, in.where("clock"_L1), in.problem());
        machine.clock = clockFromJson(clockIn);
        clockIn.rejectUnknownKeys();
    }
    if (const auto cache = in.object("last_level_cache"_L1, Need::Optional)) {
        ObjectReader cacheIn(*cache, in.where("last_level_cache"_L1), in.problem());
        machine.lastLevelCache = lastLevelCacheFromJson(cacheIn);
        cacheIn.rejectUnknownKeys();
    }
    return machine;
}

void insertSpread(QJsonObject& object, const Spread& spread)
{
    object.insert("min"_L1, spread.min);
    object.insert("median"_L1, spread.median);
    object.insert("max"_L1, spread.max);
}

QJsonObject computeToJson(const ComputeCeiling& ceiling)
{
    QJsonObject object{{u"name"_s, ceiling.name},
                       {u"precision"_s, ceiling.precision},
                       {u"isa"_s, ceiling.isa},
                       {u"threads"_s, ceiling.threads},
                       {u"gflops"_s, ceiling.gflops},
                       {u"theoretical_gflops"_s, ceiling.theoreticalGflops},
                       {u"repetitions"_s, ceiling.repetitions}};
    insertSpread(object, ceiling.spread);
    if (ceiling.clockGhz > 0.0) {
        object.insert("clock_ghz"_L1, ceiling.clockGhz);
        object.insert("flops_per_cycle"_L1, ceiling.flopsPerCycle);
        object.insert("fma_per_cycle"_L1, ceiling.fmaPerCycle);
        object.insert("peak_basis"_L1, ceiling.peakBasis);
    }
    return object;
}

ComputeCeiling computeFromJson(ObjectReader& in, int schema)
{
    ComputeCeiling ceiling;
    ceiling.name = in.text("name"_L1, Need::Required);
    ceiling.precision = in.text("precision"_L1);
    ceiling.isa = in.text("isa"_L1);
    ceiling.threads = in.smallInteger("threads"_L1, 1, kMaxCpus, 1);
    ceiling.gflops = in.number("gflops"_L1, kMaxGflops, Need::Required);
    requireAboveZero(in, "gflops"_L1, ceiling.gflops, u"a compute ceiling of 0 GFLOP/s is no roof"_s);
    requirePhysical(in, "gflops"_L1, ceiling.gflops, PhysicalQuantity::ComputeGflops);
    ceiling.theoreticalGflops = in.number("theoretical_gflops"_L1, kMaxGflops);
    requirePhysical(in, "theoretical_gflops"_L1, ceiling.theoreticalGflops, PhysicalQuantity::ComputeGflops,
                    Zero::NotMeasured);
    ceiling.repetitions = in.smallInteger("repetitions"_L1, 0, kMaxRepetitions, 0);
    ceiling.spread = readSpread(in, kMaxGflops);
    if (schema >= kFirstSchemaWithChecks) {
        ceiling.clockGhz = in.number("clock_ghz"_L1, kMaxClockGhz);
        ceiling.flopsPerCycle = in.number("flops_per_cycle"_L1, kMaxFlopsPerCycle);
        ceiling.fmaPerCycle = in.number("fma_per_cycle"_L1, kMaxFlopsPerCycle);
        ceiling.peakBasis = in.text("peak_basis"_L1);
    }
    return ceiling;
}

QJsonObject bandwidthToJson(const BandwidthCeiling& ceiling)
{
    QJsonObject object{
        {u"level"_s, ceiling.level},     {u"mix"_s, ceiling.mix},
        {u"gbps"_s, ceiling.gbps},       {u"working_set_bytes"_s, static_cast<qint64>(ceiling.workingSetBytes)},
        {u"threads"_s, ceiling.threads}, {u"repetitions"_s, ceiling.repetitions}};
    insertSpread(object, ceiling.spread);
    return object;
}

BandwidthCeiling bandwidthFromJson(ObjectReader& in)
{
    BandwidthCeiling ceiling;
    ceiling.level = in.text("level"_L1, Need::Required);
    ceiling.mix = in.text("mix"_L1);
    ceiling.gbps = in.number("gbps"_L1, kMaxGbps, Need::Required);
    requireAboveZero(in, "gbps"_L1, ceiling.gbps, u"a bandwidth ceiling of 0 GB/s is no roof"_s);
    requirePhysical(in, "gbps"_L1, ceiling.gbps, PhysicalQuantity::BandwidthGbps);
    ceiling.workingSetBytes = in.integer("working_set_bytes"_L1, 0, kPiB, 0);
    ceiling.threads = in.smallInteger("threads"_L1, 1, kMaxCpus, 1);
    ceiling.repetitions = in.smallInteger("repetitions"_L1, 0, kMaxRepetitions, 0);
    ceiling.spread = readSpread(in, kMaxGbps);
    return ceiling;
}

QJsonObject curvePointToJson(const BandwidthPoint& point)
{
    QJsonObject object{{u"working_set_bytes"_s, static_cast<qint64>(point.workingSetBytes)},
                       {u"mix"_s, point.mix},
                       {u"level"_s, point.level},
                       {u"threads"_s, point.threads},
                       {u"gbps"_s, point.gbps}};
    insertSpread(object, point.spread);
    return object;
}

BandwidthPoint curvePointFromJson(ObjectReader& in)
{
    BandwidthPoint point;
    point.workingSetBytes = in.integer("working_set_bytes"_L1, 0, kPiB, 0, Need::Required);
    point.mix = in.text("mix"_L1);
    point.level = in.text("level"_L1);
    point.threads = in.smallInteger("threads"_L1, 1, kMaxCpus, 1);
    point.gbps = in.number("gbps"_L1, kMaxGbps, Need::Required);
    requirePhysical(in, "gbps"_L1, point.gbps, PhysicalQuantity::BandwidthGbps, Zero::NotMeasured);
    point.spread = readSpread(in, kMaxGbps);
    return point;
}

QJsonObject levelPointToJson(const LevelPoint& point)
{
    return {{u"level"_s, point.level},
            {u"bytes"_s, point.bytes},
            {u"gbps"_s, point.gbps},
            {u"intensity"_s, point.intensity}};
}

LevelPoint levelPointFromJson(ObjectReader& in)
{
    LevelPoint point;
    point.level = in.text("level"_L1, Need::Required);
    point.bytes = in.number("bytes"_L1, kMaxOperationCount, Need::Required);
    point.gbps = in.number("gbps"_L1, kMaxGbps);
    requirePhysical(in, "gbps"_L1, point.gbps, PhysicalQuantity::BandwidthGbps, Zero::NotMeasured);
    point.intensity = in.number("intensity"_L1, kMaxIntensity);
    requirePhysical(in, "intensity"_L1, point.intensity, PhysicalQuantity::IntensityFlopPerByte, Zero::NotMeasured);
    return point;
}

QJsonObject deviceToJson(const KernelDevice& device)
{
    QJsonObject object{{u"kind"_s, device.kind}};
    const std::pair<QLatin1StringView, const QString&> texts[] = {
        {"name"_L1, device.name}, {"gpu"_L1, device.gpu}, {"basis"_L1, device.basis}};
    for (const auto& [key, text] : texts)
        if (!text.isEmpty())
            object.insert(key, text);
    return object;
}

// A GPU catalog id as the catalog writes them ("a100-40gb-sxm"); mirrored by the schema's pattern.
bool isCatalogId(const QString& id)
{
    static const QRegularExpression pattern(u"^[a-z0-9][a-z0-9._-]*$"_s);
    return pattern.match(id).hasMatch();
}

KernelDevice deviceFromJson(ObjectReader& in)
{
    KernelDevice device;
    device.kind = in.text("kind"_L1, Need::Required);
    if (!in.problem().found() && device.kind != u"gpu"_s)
        in.problem().report(Error::Code::Schema,
                            in.where("kind"_L1) + u" must be \"gpu\", got "_s + describeJson(QJsonValue(device.kind)));
    const bool hasName = in.has("name"_L1);
    device.name = in.text("name"_L1);
    if (!in.problem().found() && hasName && device.name.isEmpty())
        in.problem().report(
            Error::Code::Schema,
            in.where("name"_L1) + u" is empty: leave it out when the profiler does not name the device"_s);
    const bool hasGpu = in.has("gpu"_L1);
    device.gpu = in.text("gpu"_L1);
    if (!in.problem().found() && hasGpu && (device.gpu.size() > 100 || !isCatalogId(device.gpu)))
        in.problem().report(Error::Code::Schema, in.where("gpu"_L1) +
                                                     u" must be a catalog GPU id such as \"a100-40gb-sxm\", got "_s +
                                                     describeJson(QJsonValue(device.gpu.left(120))));
    device.basis = in.text("basis"_L1);
    return device;
}

QJsonObject kernelToJson(const KernelResult& kernel)
{
    QJsonObject object{{u"name"_s, kernel.name},
                       {u"kind"_s, kernel.kind},
                       {u"size"_s, kernel.size},
                       {u"precision"_s, kernel.precision},
                       {u"threads"_s, kernel.threads},
                       {u"batch"_s, kernel.batch},
                       {u"flops"_s, kernel.flops},
                       {u"bytes"_s, kernel.bytes},
                       {u"seconds"_s, kernel.seconds},
                       {u"gflops"_s, kernel.gflops},
                       {u"gbps"_s, kernel.gbps},
                       {u"intensity"_s, kernel.intensity},
                       {u"tokens_per_s"_s, kernel.tokensPerSecond},
                       {u"repetitions"_s, kernel.repetitions}};
    insertSpread(object, kernel.spread);
    // Imported-kernel fields only when set, so measured sessions are written exactly as before.
    if (!kernel.fullName.isEmpty())
        object.insert("full_name"_L1, kernel.fullName);
    if (!kernel.source.isEmpty())
        object.insert("source"_L1, kernel.source);
    if (!kernel.level.isEmpty())
        object.insert("level"_L1, kernel.level);
    if (!kernel.group.isEmpty())
        object.insert("group"_L1, kernel.group);
    if (kernel.tensorFlopsCounted)
        object.insert("tensor_flops_counted"_L1, true);
    if (!kernel.levels.empty()) {
        QJsonArray levels;
        for (const LevelPoint& point : kernel.levels)
            levels.append(levelPointToJson(point));
        object.insert("levels"_L1, levels);
    }
    if (!kernel.device.kind.isEmpty())
        object.insert("device"_L1, deviceToJson(kernel.device));
    if (kernel.energy.measured())
        object.insert("energy"_L1, kernelEnergyToJson(kernel.energy));
    return object;
}

// One copy of each text many kernels repeat (kind, size, precision, source, level, group): a QString read from JSON
// is an allocation of its own, and in a session of half a million kernels those copies took a third of its memory.
class SharedTexts {
public:
    QString operator()(const QString& text)
    {
        if (text.isEmpty())
            return text;
        const auto found = m_texts.constFind(text);
        if (found != m_texts.constEnd())
            return *found;
        m_texts.insert(text);
        return text;
    }

private:
    QSet<QString> m_texts;
};

KernelResult kernelFromJson(ObjectReader& in, int schema, SharedTexts& shared)
{
    KernelResult kernel;
    kernel.name = in.text("name"_L1, Need::Required);
    kernel.kind = shared(in.text("kind"_L1, Need::Required));
    kernel.size = shared(in.text("size"_L1));
    kernel.precision = shared(in.text("precision"_L1));
    kernel.threads = in.smallInteger("threads"_L1, 1, kMaxCpus, 1);
    kernel.batch = in.smallInteger("batch"_L1, 0, kMaxKernelBatch, 0);
    kernel.flops = in.number("flops"_L1, kMaxOperationCount);
    kernel.bytes = in.number("bytes"_L1, kMaxOperationCount);
    kernel.seconds = in.number("seconds"_L1, kMaxSeconds, Need::Required);
    requireAboveZero(in, "seconds"_L1, kernel.seconds, u"a kernel that took no time has no rate"_s);
    requirePhysical(in, "seconds"_L1, kernel.seconds, PhysicalQuantity::DurationSeconds);
    kernel.gflops = in.number("gflops"_L1, kMaxGflops);
    requirePhysical(in, "gflops"_L1, kernel.gflops, PhysicalQuantity::ComputeGflops, Zero::NotMeasured);
    kernel.gbps = in.number("gbps"_L1, kMaxGbps);
    requirePhysical(in, "gbps"_L1, kernel.gbps, PhysicalQuantity::BandwidthGbps, Zero::NotMeasured);
    kernel.intensity = in.number("intensity"_L1, kMaxIntensity);
    requirePhysical(in, "intensity"_L1, kernel.intensity, PhysicalQuantity::IntensityFlopPerByte, Zero::NotMeasured);
    kernel.tokensPerSecond = in.number("tokens_per_s"_L1, kMaxTokensPerSecond);
    kernel.repetitions = in.smallInteger("repetitions"_L1, 0, kMaxRepetitions, 0);
    kernel.spread = readSpread(in, kMaxSeconds);
    kernel.fullName = in.text("full_name"_L1);
    kernel.source = shared(in.text("source"_L1));
    kernel.level = shared(in.text("level"_L1));
    kernel.group = shared(in.text("group"_L1));
    kernel.tensorFlopsCounted = in.boolean("tensor_flops_counted"_L1, false);
    kernel.levels = readEntries<LevelPoint>(in, "levels"_L1, kMaxLevels, Need::Optional, levelPointFromJson);
    if (schema >= kFirstSchemaWithChecks) {
        if (const auto device = in.object("device"_L1, Need::Optional)) {
            ObjectReader deviceIn(*device, in.where("device"_L1), in.problem());
            kernel.device = deviceFromJson(deviceIn);
            deviceIn.rejectUnknownKeys();
        }
        if (const auto energy = in.object("energy"_L1, Need::Optional)) {
            ObjectReader energyIn(*energy, in.where("energy"_L1), in.problem());
            kernel.energy = kernelEnergyFromJson(energyIn);
            energyIn.rejectUnknownKeys();
        }
    }
    return kernel;
}

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
                                                     describeJson(QJsonValue(finding.kind)));
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

// ---- calibrations (schema 2): fits of the LLM model's engine terms to benchmark results.

QJsonObject calibrationErrorToJson(const CalibrationError& error)
{
    return {{u"median_abs"_s, error.medianAbs}, {u"worst_abs"_s, error.worstAbs}, {u"rms_log"_s, error.rmsLog}};
}

CalibrationError calibrationErrorFromJson(ObjectReader& in)
{
    CalibrationError error;
    error.medianAbs = in.number("median_abs"_L1, kMaxRelativeError, Need::Required);
    error.worstAbs = in.number("worst_abs"_L1, kMaxRelativeError, Need::Required);
    error.rmsLog = in.number("rms_log"_L1, kMaxRelativeError, Need::Required);
    if (!in.problem().found() && error.medianAbs > error.worstAbs)
        in.problem().report(Error::Code::Range,
                            in.where("median_abs"_L1) + u" ("_s + formatExactNumber(error.medianAbs) +
                                u") must not exceed worst_abs ("_s + formatExactNumber(error.worstAbs) + u')');
    return error;
}

QJsonObject calibrationTermToJson(const CalibrationTerm& term)
{
    return {{u"name"_s, term.name}, {u"start"_s, term.start}, {u"fitted"_s, term.fitted}};
}

CalibrationTerm calibrationTermFromJson(ObjectReader& in)
{
    CalibrationTerm term;
    term.name = in.text("name"_L1, Need::Required);
    // Shares lie in (0, 1]; times in [0, 1 s] (checkTerms' bounds).
    term.start = in.number("start"_L1, 1.0, Need::Required);
    term.fitted = in.number("fitted"_L1, 1.0, Need::Required);
    if (in.problem().found())
        return term;
    const auto parsed = parseTermName(term.name);
    if (!parsed)
        in.problem().report(Error::Code::Schema, in.where("name"_L1) +
                                                     u" must name an engine term such as "
                                                     "\"layer_seconds\" or \"weight_bandwidth.bf16\", got "_s +
                                                     describeJson(QJsonValue(term.name)));
    else if (parsed->isShare() && (term.start <= 0.0 || term.fitted <= 0.0))
        in.problem().report(Error::Code::Range, in.where(term.start <= 0.0 ? "start"_L1 : "fitted"_L1) +
                                                    u" must be above 0: "_s + term.name +
                                                    u" is a share of a datasheet peak"_s);
    return term;
}

QJsonObject calibrationPointToJson(const CalibrationPoint& point)
{
    return {{u"id"_s, point.id},
            {u"file"_s, point.file},
            {u"run"_s, point.run},
            {u"label"_s, point.label},
            {u"quantity"_s, point.quantity},
            {u"statistic"_s, point.statistic},
            {u"model"_s, point.model},
            {u"gpu"_s, point.gpu},
            {u"tensor_parallel"_s, point.tensorParallel},
            {u"weights"_s, point.weights},
            {u"kv"_s, point.kv},
            {u"batch"_s, static_cast<qint64>(point.batch)},
            {u"prompt"_s, static_cast<qint64>(point.prompt)},
            {u"output"_s, static_cast<qint64>(point.output)},
            {u"measured"_s, point.measured},
            {u"predicted_before"_s, point.predictedBefore},
            {u"predicted"_s, point.predicted}};
}

// The prompt and output a quantity needs to be predicted at all (predictQuantity's conditions), so that a stored
// point is one the window can redraw: {least prompt, least output}.
std::pair<std::int64_t, std::int64_t> leastLengths(MeasuredQuantity quantity)
{
    switch (quantity) {
        case MeasuredQuantity::TokenLatency:
        case MeasuredQuantity::TokensPerSecond:
            return {0, 0};
        case MeasuredQuantity::Ttft:
            return {1, 0};
        case MeasuredQuantity::EndToEnd:
        case MeasuredQuantity::StaticThroughput:
            return {1, 1};
        case MeasuredQuantity::StaticTpot:
        case MeasuredQuantity::StaticDecodeRate:
        case MeasuredQuantity::ServingTpot:
        case MeasuredQuantity::ServingThroughput:
            return {1, 2};
    }
    return {0, 0};
}

CalibrationPoint calibrationPointFromJson(ObjectReader& in)
{
    CalibrationPoint point;
    point.id = in.text("id"_L1, Need::Required);
    point.file = in.text("file"_L1, Need::Required);
    point.run = in.smallInteger("run"_L1, 1, 1'000'000'000, 1, Need::Required);
    point.label = in.text("label"_L1);
    point.quantity = in.text("quantity"_L1, Need::Required);
    point.statistic = in.text("statistic"_L1);
    point.model = in.text("model"_L1, Need::Required);
    point.gpu = in.text("gpu"_L1, Need::Required);
    // The model's own limits (llm_model.h): a point outside them is one no curve can be drawn through.
    point.tensorParallel = in.smallInteger("tensor_parallel"_L1, 1, kMaxTensorParallel, 1, Need::Required);
    point.weights = in.text("weights"_L1, Need::Required);
    point.kv = in.text("kv"_L1, Need::Required);
    point.batch = in.integer("batch"_L1, 1, kMaxBatch, 1, Need::Required);
    point.prompt = in.integer("prompt"_L1, 0, kMaxContext, 0, Need::Required);
    point.output = in.integer("output"_L1, 0, kMaxContext, 0, Need::Required);
    point.measured = in.number("measured"_L1, kMaxMeasuredValue, Need::Required);
    point.predictedBefore = in.number("predicted_before"_L1, kMaxMeasuredValue, Need::Required);
    point.predicted = in.number("predicted"_L1, kMaxMeasuredValue, Need::Required);
    if (in.problem().found())
        return point;
    const auto quantity = parseQuantityName(point.quantity);
    for (const auto& [key, text] : {std::pair{"id"_L1, &point.id}, std::pair{"file"_L1, &point.file},
                                    std::pair{"model"_L1, &point.model}, std::pair{"gpu"_L1, &point.gpu}}) {
        if (!in.problem().found() && text->trimmed().isEmpty())
            in.problem().report(Error::Code::Schema, in.where(key) +
                                                         u" is empty: a calibration point names its "
                                                         "benchmark file, run, model and GPU"_s);
    }
    if (in.problem().found())
        return point;
    if (!quantity)
        in.problem().report(Error::Code::Schema, in.where("quantity"_L1) +
                                                     u" must name a measured quantity such as \"serving_tpot_s\" or "
                                                     "\"e2e_latency_s\", got "_s +
                                                     describeJson(QJsonValue(point.quantity)));
    else if (point.prompt + point.output > kMaxContext)
        in.problem().report(Error::Code::Range, in.where("output"_L1) + u": prompt and output together are "_s +
                                                    QString::number(point.prompt + point.output) +
                                                    u" tokens; the model takes at most "_s +
                                                    QString::number(kMaxContext));
    else if (point.prompt < leastLengths(*quantity).first)
        in.problem().report(Error::Code::Range, in.where("prompt"_L1) + u" must be at least "_s +
                                                    QString::number(leastLengths(*quantity).first) + u" for "_s +
                                                    point.quantity + u", got "_s + QString::number(point.prompt));
    else if (point.output < leastLengths(*quantity).second)
        in.problem().report(Error::Code::Range, in.where("output"_L1) + u" must be at least "_s +
                                                    QString::number(leastLengths(*quantity).second) + u" for "_s +
                                                    point.quantity + u", got "_s + QString::number(point.output));
    else if (!parseNumberFormat(point.weights))
        in.problem().report(Error::Code::Schema, in.where("weights"_L1) + u" must be a number format, got "_s +
                                                     describeJson(QJsonValue(point.weights)));
    else if (!parseNumberFormat(point.kv))
        in.problem().report(Error::Code::Schema, in.where("kv"_L1) + u" must be a number format, got "_s +
                                                     describeJson(QJsonValue(point.kv)));
    else if (point.measured <= 0.0 || point.predicted <= 0.0 || point.predictedBefore <= 0.0)
        in.problem().report(Error::Code::Range, in.where(point.measured <= 0.0    ? "measured"_L1
                                                         : point.predicted <= 0.0 ? "predicted"_L1
                                                                                  : "predicted_before"_L1) +
                                                    u" must be above 0: a fitted figure is a time or a rate"_s);
    return point;
}

QJsonObject calibrationToJson(const Calibration& calibration)
{
    QJsonArray terms;
    for (const CalibrationTerm& term : calibration.terms)
        terms.append(calibrationTermToJson(term));
    QJsonArray points;
    for (const CalibrationPoint& point : calibration.points)
        points.append(calibrationPointToJson(point));
    QJsonObject out{{u"generator"_s, calibration.generator},
                    {u"sources"_s, QJsonArray::fromStringList(calibration.sources)},
                    {u"free_terms"_s, QJsonArray::fromStringList(calibration.freeTerms)},
                    {u"terms"_s, terms},
                    {u"iterations"_s, calibration.iterations},
                    {u"converged"_s, calibration.converged},
                    {u"error_before"_s, calibrationErrorToJson(calibration.before)},
                    {u"error_after"_s, calibrationErrorToJson(calibration.after)},
                    {u"points"_s, points},
                    {u"notes"_s, QJsonArray::fromStringList(calibration.notes)}};
    if (calibration.created.isValid())
        out.insert("created"_L1, calibration.created.toUTC().toString(Qt::ISODateWithMs));
    return out;
}

Calibration calibrationFromJson(ObjectReader& in)
{
    Calibration calibration;
    calibration.created = in.dateTime("created"_L1);
    calibration.generator = in.text("generator"_L1);
    calibration.sources = textListFromJson(in, "sources"_L1, kMaxEntries);
    calibration.freeTerms = textListFromJson(in, "free_terms"_L1, kMaxEntries);
    calibration.terms =
        readEntries<CalibrationTerm>(in, "terms"_L1, kMaxEntries, Need::Required, calibrationTermFromJson);
    calibration.iterations = in.smallInteger("iterations"_L1, 0, 1'000'000, 0, Need::Required);
    calibration.converged = in.boolean("converged"_L1, false);
    for (const auto& [key, error] :
         {std::pair{"error_before"_L1, &calibration.before}, std::pair{"error_after"_L1, &calibration.after}}) {
        if (const auto object = in.object(key, Need::Required)) {
            ObjectReader errorIn(*object, in.where(key), in.problem());
            *error = calibrationErrorFromJson(errorIn);
            errorIn.rejectUnknownKeys();
        }
    }
    calibration.points =
        readEntries<CalibrationPoint>(in, "points"_L1, kMaxCalibrationPoints, Need::Required, calibrationPointFromJson);
    calibration.notes = textListFromJson(in, "notes"_L1, kMaxEntries);
    Problem& problem = in.problem();
    if (problem.found())
        return calibration;
    if (calibration.points.empty())
        problem.report(Error::Code::Schema, in.where("points"_L1) + u" is empty: a calibration fits measured points"_s);
    // A point is one figure of one run: the same run and figure twice is a file edited by hand, or a broken one.
    QSet<QString> figures;
    for (std::size_t i = 0; i < calibration.points.size() && !problem.found(); ++i) {
        const CalibrationPoint& point = calibration.points[i];
        const QString figure = point.id + u'\n' + point.quantity;
        if (figures.contains(figure))
            problem.report(Error::Code::Schema, indexedPath(in.where("points"_L1), static_cast<qsizetype>(i)) +
                                                    u": "_s + point.quantity + u" of "_s + oneLine(point.id) +
                                                    u" appears twice"_s);
        figures.insert(figure);
    }
    QSet<QString> names;
    for (std::size_t i = 0; i < calibration.terms.size() && !problem.found(); ++i) {
        const QString& name = calibration.terms[i].name;
        if (names.contains(name))
            problem.report(Error::Code::Schema, indexedPath(in.where("terms"_L1), static_cast<qsizetype>(i)) +
                                                    u".name: the term "_s + name + u" appears twice"_s);
        names.insert(name);
    }
    for (qsizetype i = 0; i < calibration.freeTerms.size() && !problem.found(); ++i) {
        if (!names.contains(calibration.freeTerms[i]))
            problem.report(Error::Code::Schema, indexedPath(in.where("free_terms"_L1), i) + u" names "_s +
                                                    describeJson(QJsonValue(calibration.freeTerms[i])) +
                                                    u", which is not in terms"_s);
        else if (calibration.freeTerms.indexOf(calibration.freeTerms[i]) < i)
            problem.report(Error::Code::Schema, indexedPath(in.where("free_terms"_L1), i) + u" names "_s +
                                                    calibration.freeTerms[i] + u" a second time"_s);
    }
    return calibration;
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

    if (const auto machine = in.object("machine"_L1, Need::Required)) {
        ObjectReader machineIn(*machine, in.where("machine"_L1), problem);
        session.machine = machineFromJson(machineIn, schema);
        machineIn.rejectUnknownKeys();
    }
    if (const auto ceilings = in.object("ceilings"_L1, Need::Required)) {
        ObjectReader ceilingsIn(*ceilings, in.where("ceilings"_L1), problem);
        session.computeCeilings =
            readEntries<ComputeCeiling>(ceilingsIn, "compute"_L1, kMaxEntries, Need::Required,
                                        [schema](ObjectReader& entry) { return computeFromJson(entry, schema); });
        session.bandwidthCeilings =
            readEntries<BandwidthCeiling>(ceilingsIn, "bandwidth"_L1, kMaxEntries, Need::Required, bandwidthFromJson);
        ceilingsIn.rejectUnknownKeys();
    }
    session.bandwidthCurve =
        readEntries<BandwidthPoint>(in, "bandwidth_curve"_L1, kMaxEntries, Need::Optional, curvePointFromJson);
    SharedTexts shared;
    session.kernels = readSplitEntries<KernelResult>(
        in, file, "kernels"_L1, kMaxEntries, Need::Required,
        [schema, &shared](ObjectReader& entry) { return kernelFromJson(entry, schema, shared); });
    if (const auto fusion = in.object("fusion"_L1, Need::Optional)) {
        ObjectReader fusionIn(*fusion, in.where("fusion"_L1), problem);
        session.fusion = fusionFromJson(fusionIn);
        fusionIn.rejectUnknownKeys();
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
        if (const auto energy = in.object("energy"_L1, Need::Optional)) {
            ObjectReader energyIn(*energy, in.where("energy"_L1), problem);
            session.energy = energySourceFromJson(energyIn);
            energyIn.rejectUnknownKeys();
        }
        if (const auto training = in.object("training"_L1, Need::Optional)) {
            ObjectReader trainingIn(*training, in.where("training"_L1), problem);
            session.training = trainingFromJson(trainingIn);
            trainingIn.rejectUnknownKeys();
        }
    }
    in.rejectUnknownKeys();
    return session;
}

Error sourceError(const QString& sourceName, Error::Code code, const QString& detail)
{
    return Error{code, sourceName + u": "_s + oneLine(detail)};
}

}  // namespace

QJsonObject sessionToJsonObject(const Session& session)
{
    QJsonArray compute;
    for (const ComputeCeiling& ceiling : session.computeCeilings)
        compute.append(computeToJson(ceiling));
    QJsonArray bandwidth;
    for (const BandwidthCeiling& ceiling : session.bandwidthCeilings)
        bandwidth.append(bandwidthToJson(ceiling));
    QJsonArray curve;
    for (const BandwidthPoint& point : session.bandwidthCurve)
        curve.append(curvePointToJson(point));
    QJsonArray kernels;
    for (const KernelResult& kernel : session.kernels)
        kernels.append(kernelToJson(kernel));

    QJsonObject root{{u"format"_s, Session::kFormat},
                     {u"schema_version"_s, Session::kSchemaVersion},
                     {u"title"_s, session.title},
                     {u"generator"_s, session.generator},
                     {u"quick"_s, session.quick},
                     {u"complete"_s, session.complete},
                     {u"wall_seconds"_s, session.wallSeconds},
                     {u"stream_triad_gbps"_s, session.streamTriadGbps},
                     {u"machine"_s, machineToJson(session.machine)},
                     {u"ceilings"_s, QJsonObject{{u"compute"_s, compute}, {u"bandwidth"_s, bandwidth}}},
                     {u"bandwidth_curve"_s, curve},
                     {u"kernels"_s, kernels}};
    // A fusion object only when fusion was measured: an experiment that did not run is in "skipped".
    if (session.fusion.elements > 0)
        root.insert("fusion"_L1, fusionToJson(session.fusion));
    if (session.training.tokens > 0)
        root.insert("training"_L1, trainingToJson(session.training));
    if (!session.findings.empty()) {
        QJsonArray findings;
        for (const Finding& finding : session.findings)
            findings.append(findingToJson(finding));
        root.insert("findings"_L1, findings);
    }
    if (!session.skipped.empty()) {
        QJsonArray skipped;
        for (const SkippedExperiment& entry : session.skipped)
            skipped.append(skippedToJson(entry));
        root.insert("skipped"_L1, skipped);
    }
    if (!session.engine.isEmpty())
        root.insert("engine"_L1, session.engine);
    if (!session.energy.basis.isEmpty())
        root.insert("energy"_L1, energySourceToJson(session.energy));
    if (!session.calibrations.empty()) {
        QJsonArray calibrations;
        for (const Calibration& calibration : session.calibrations)
            calibrations.append(calibrationToJson(calibration));
        root.insert("calibrations"_L1, calibrations);
    }
    // Only a busy run has the key, so quiet sessions read the same as before it existed.
    if (session.noisy())
        root.insert("noisy_measurements"_L1, QJsonArray::fromStringList(session.noisyMeasurements));
    // UTC with an explicit "Z": a local time without an offset would mean something else elsewhere.
    if (session.created.isValid())
        root.insert("created"_L1, session.created.toUTC().toString(Qt::ISODateWithMs));
    return root;
}

QByteArray sessionToJson(const Session& session)
{
    return QJsonDocument(sessionToJsonObject(session)).toJson(QJsonDocument::Indented);
}

Result<Session> sessionFromJson(QByteArray bytes, const QString& sourceName)
{
    if (bytes.trimmed().isEmpty())
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
    if (std::optional<Error> unreadable = checkReadableFile(path, u"session file"_s))
        return Error{unreadable->code, oneLine(unreadable->message)};
    const QFileInfo info(path);
    if (info.size() > kMaxSessionFileBytes) {
        return sourceError(path, Error::Code::Range,
                           u"the file is "_s + QString::number(info.size()) +
                               u" bytes; session files larger "
                               "than 256 MiB are refused"_s);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sourceError(path, Error::Code::Io, u"cannot open: "_s + file.errorString());
    // One byte past the limit tells a file that grew since it was measured (or a /proc file) from one that fits.
    QByteArray bytes = file.read(kMaxSessionFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return sourceError(path, Error::Code::Io, u"cannot read: "_s + file.errorString());
    file.close();
    return sessionFromJson(std::move(bytes), path);
}

std::optional<Error> saveSession(const Session& session, const QString& path)
{
    // Validate what is about to be written, so that every saved file loads back.
    const QJsonObject root = sessionToJsonObject(session);
    Problem problem;
    sessionFromObject(SplitObject::whole(root), problem);
    if (problem.found())
        return sourceError(path, problem.error().code, u"not saved: "_s + problem.error().message);

    return saveFile(path, QJsonDocument(root).toJson(QJsonDocument::Indented));
}

}  // namespace ridgeline
