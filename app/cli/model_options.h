#pragma once
// `ridgeline model`'s options -> the InferenceRequest the core resolves (core/model/llm/inference_request.h). Each
// option is checked where it is read, and the first one at fault is named in the message.

#include "core/model/hf/hf_config.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/inference_request.h"

#include <QCommandLineParser>

#include <optional>

namespace ridgeline::cli {

// What the options ask for: the request, and the Hugging Face config when --model-config gave the model.
struct ModelOptions {
    InferenceRequest request;
    std::optional<HfModelConfig> modelConfig;
    EngineSelection engine = genericEngine();  // --engine NAME[@VERSION]; generic when not given
    bool engineGiven = false;
};

// Reads the model, the GPU, the workload, the parallelism and the engine terms, in that order; the error names the
// first option that does not make sense (alone or with another).
std::optional<QString> readModelOptions(const QCommandLineParser& parser, ModelOptions& options);

}  // namespace ridgeline::cli
