#pragma once
// The JSON of a session's energy (schema 2, all optional): the decode batches' RAPL readings ("energy" in a kernel)
// and where they come from, or why there are none ("energy" at the top). Beside session_json.cpp, which calls it.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QJsonObject>

namespace ridgeline {

QJsonObject kernelEnergyToJson(const KernelEnergy& energy);
KernelEnergy kernelEnergyFromJson(ObjectReader& in);

QJsonObject energySourceToJson(const EnergySource& source);
EnergySource energySourceFromJson(ObjectReader& in);

}  // namespace ridgeline
