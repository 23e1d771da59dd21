#pragma once
// What `ridgeline model` prints for one configuration: the JSON object (--json) and the table. Every figure the
// validation set measures (core/model/llm/calibration.h, quantityName) is a key of the JSON.

#include "core/model/llm/llm_model.h"

#include <QJsonObject>
#include <QTextStream>

namespace ridgeline::cli {

QJsonObject modelReportJson(const InferenceConfig& config, const InferenceReport& report);
void printModelTable(QTextStream& out, const InferenceConfig& config, const InferenceReport& report);

}  // namespace ridgeline::cli
