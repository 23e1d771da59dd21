#pragma once
// The JSON of a session's machine: the CPU, its caches, its clock under load and the last-level cache its
// bandwidth sweep saw. Beside session_json.cpp, which calls it.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QJsonObject>

namespace ridgeline {

QJsonObject machineToJson(const MachineInfo& machine);
MachineInfo machineFromJson(ObjectReader& in, int schema);

}  // namespace ridgeline
