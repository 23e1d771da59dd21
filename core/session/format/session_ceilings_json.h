#pragma once
// The JSON of a session's ceilings: the compute and bandwidth roofs and the bandwidth sweep's points. Beside
// session_json.cpp, which calls it.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QJsonObject>

namespace ridgeline {

QJsonObject computeToJson(const ComputeCeiling& ceiling);
ComputeCeiling computeFromJson(ObjectReader& in, int schema);
QJsonObject bandwidthToJson(const BandwidthCeiling& ceiling);
BandwidthCeiling bandwidthFromJson(ObjectReader& in);
QJsonObject curvePointToJson(const BandwidthPoint& point);
BandwidthPoint curvePointFromJson(ObjectReader& in);

}  // namespace ridgeline
