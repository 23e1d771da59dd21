#pragma once
// What `ridgeline model` prints for one configuration: the JSON object (--json) and the table. Every figure the
// validation set measures (core/model/llm/calibration.h, quantityName) is a key of the JSON.

#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/llm_model.h"

#include <QJsonObject>
#include <QTextStream>

namespace ridgeline::cli {

QJsonObject modelReportJson(const InferenceConfig& config, const InferenceReport& report);
// The engine profile the terms came from: {"name", "version", "fallback_note", "memory_family", "overrides"}, and
// the one line the table starts with when --engine was given.
QJsonObject engineJson(const EngineSelection& engine, const GpuSpec& gpu);
QString engineLine(const EngineSelection& engine, const GpuSpec& gpu);
void printModelTable(QTextStream& out, const InferenceConfig& config, const InferenceReport& report);

}  // namespace ridgeline::cli
