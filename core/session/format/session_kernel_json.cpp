#include "core/session/format/session_kernel_json.h"

#include "core/session/format/session_energy_json.h"
#include "core/session/format/session_json_rules.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

namespace {

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
                            in.where("kind"_L1) + u" must be \"gpu\", got "_s + describeText(device.kind));
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
                                                     describeText(device.gpu.left(120)));
    device.basis = in.text("basis"_L1);
    return device;
}

}  // namespace

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
    if (!kernel.levels.empty())
        object.insert("levels"_L1, toJsonArray(kernel.levels, levelPointToJson));
    if (!kernel.device.kind.isEmpty())
        object.insert("device"_L1, deviceToJson(kernel.device));
    if (kernel.energy.measured())
        object.insert("energy"_L1, kernelEnergyToJson(kernel.energy));
    return object;
}

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
        readObject(in, "device"_L1, [&kernel](ObjectReader& d) { kernel.device = deviceFromJson(d); });
        readObject(in, "energy"_L1, [&kernel](ObjectReader& e) { kernel.energy = kernelEnergyFromJson(e); });
    }
    return kernel;
}

}  // namespace ridgeline
