#pragma once
// `ridgeline train`'s options -> the TrainingConfig the core computes (core/model/training/training_config.h). Each
// option is read and range-checked where it is read; the core's check then names the field that does not fit with
// another.

#include "core/model/hf/hf_config.h"
#include "core/model/training/training_config.h"

#include <QCommandLineParser>

#include <optional>

namespace ridgeline::cli {

struct TrainOptions {
    TrainingConfig config;
    std::optional<HfModelConfig> modelConfig;  // when --model-config gave the model
};

// Every option of `ridgeline train` with its help text.
void addTrainOptions(QCommandLineParser& parser);

// Reads the model, the GPU and its links, the batch, the precision policy, the optimizer, checkpointing and the
// parallel layout; the error names the first option at fault.
std::optional<QString> readTrainOptions(const QCommandLineParser& parser, TrainOptions& options);

}  // namespace ridgeline::cli
