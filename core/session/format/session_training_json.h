#pragma once
// The JSON of a session's training step (schema 2, optional): the "training" object, written only when the step
// was measured. Beside session_json.cpp, which calls it.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QJsonObject>

namespace ridgeline {

QJsonObject trainingToJson(const TrainingResult& training);
TrainingResult trainingFromJson(ObjectReader& in);

}  // namespace ridgeline
