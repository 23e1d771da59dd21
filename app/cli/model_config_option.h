#pragma once
// `ridgeline model --model-config FILE`: a Hugging Face config.json as the model, and the formats it states as the
// defaults of --weights, --kv and --attention-weights (options given on the command line win, and say so).

#include "core/model/hf/hf_config.h"
#include "core/model/llm/inference_request.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace ridgeline::cli {

// Puts the config's shape and formats into the request; the error when the file states a weight format Ridgeline
// cannot model and --weights does not say which to use instead.
std::optional<QString> applyModelConfig(const HfModelConfig& config, const QCommandLineParser& parser,
                                        InferenceRequest& request);

// What was read and from where, for the table ("Model config: ...") and for --json ("model_config").
QStringList modelConfigLines(const HfModelConfig& config, const QCommandLineParser& parser);
QJsonObject modelConfigJson(const HfModelConfig& config, const QCommandLineParser& parser);

}  // namespace ridgeline::cli
