#include "core/session/format/session_energy_json.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr double kMaxSeconds = 1e7;  // about four months, as every duration of a session
constexpr double kMaxWatts = 1e6;    // a megawatt: no CPU socket, a corrupt file
constexpr double kMaxJoulesPerToken = 1e6;

// A reading that is written only when measured has no zero: a file with one was not written by Ridgeline.
double aboveZero(ObjectReader& in, QLatin1StringView key, double max, Need need)
{
    const bool present = in.has(key);
    const double value = in.number(key, max, need);
    if (!in.problem().found() && present && value <= 0.0)
        in.problem().report(Error::Code::Range, in.where(key) +
                                                    u" must be above 0 (it is left out when not "
                                                    "measured), got "_s +
                                                    formatExactNumber(value));
    return value;
}

}  // namespace

QJsonObject kernelEnergyToJson(const KernelEnergy& energy)
{
    QJsonObject object{{u"seconds"_s, energy.seconds},
                       {u"package_w"_s, energy.packageWatts},
                       {u"j_per_token"_s, energy.joulesPerToken}};
    if (energy.dramWatts > 0.0)
        object.insert("dram_w"_L1, energy.dramWatts);
    return object;
}

KernelEnergy kernelEnergyFromJson(ObjectReader& in)
{
    KernelEnergy energy;
    energy.seconds = aboveZero(in, "seconds"_L1, kMaxSeconds, Need::Required);
    energy.packageWatts = aboveZero(in, "package_w"_L1, kMaxWatts, Need::Required);
    energy.dramWatts = aboveZero(in, "dram_w"_L1, kMaxWatts, Need::Optional);
    energy.joulesPerToken = aboveZero(in, "j_per_token"_L1, kMaxJoulesPerToken, Need::Required);
    return energy;
}

QJsonObject energySourceToJson(const EnergySource& source)
{
    return {{u"measured"_s, source.measured}, {u"basis"_s, source.basis}};
}

EnergySource energySourceFromJson(ObjectReader& in)
{
    EnergySource source;
    if (const auto measured = in.take("measured"_L1, Need::Required); measured && !measured->isBool())
        in.problem().report(Error::Code::Schema,
                            in.where("measured"_L1) + u" must be true or false, got "_s + describeJson(*measured));
    else if (measured)
        source.measured = measured->boolean();
    source.basis = in.text("basis"_L1, Need::Required);
    if (!in.problem().found() && source.basis.trimmed().isEmpty())
        in.problem().report(Error::Code::Schema,
                            in.where("basis"_L1) + u" must say where the energy comes from, or why there is none"_s);
    return source;
}

}  // namespace ridgeline
