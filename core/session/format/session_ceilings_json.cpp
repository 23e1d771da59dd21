#include "core/session/format/session_ceilings_json.h"

#include "core/session/format/session_json_rules.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

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

}  // namespace ridgeline
