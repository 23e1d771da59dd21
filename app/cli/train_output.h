#pragma once
// What `ridgeline train` prints for one configuration: the JSON object (--json) and the table, each with the
// cheapest move that makes the configuration fit.

#include "core/model/training/training_fix.h"
#include "core/model/training/training_step.h"

#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace ridgeline::cli {

// The options that turn `config` into the fix's configuration: "--precision bf16-mixed --checkpointing full".
QStringList fixOptions(const TrainingConfig& config, const TrainingFix& fix);

QJsonObject trainReportJson(const TrainingConfig& config, const TrainingReport& report,
                            const std::optional<TrainingFix>& fix);
void printTrainTable(QTextStream& out, const TrainingConfig& config, const TrainingReport& report,
                     const std::optional<TrainingFix>& fix);

}  // namespace ridgeline::cli
