#include "core/session/format/session_machine_json.h"

#include "core/session/format/session_json_rules.h"

#include <QJsonArray>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

namespace {

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

}  // namespace

QJsonObject machineToJson(const MachineInfo& machine)
{
    QJsonObject object = machineCoreToJson(machine, toJsonArray(machine.caches, cacheToJson));
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
    readObject(in, "core"_L1, [&machine](ObjectReader& core) {
        machine.coreName = core.text("name"_L1, Need::Required);
        machine.coreBasis = core.text("basis"_L1);
    });
    readObject(in, "clock"_L1, [&machine](ObjectReader& c) { machine.clock = clockFromJson(c); });
    readObject(in, "last_level_cache"_L1,
               [&machine](ObjectReader& c) { machine.lastLevelCache = lastLevelCacheFromJson(c); });
    return machine;
}

}  // namespace ridgeline
