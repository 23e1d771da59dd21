// libFuzzer target for the Hugging Face config.json reader (core/model/hf/hf_config.h; `--hf-config`, the batching
// tab's Open config): such files come from anywhere on the Hub, so any bytes give a model shape or a one-line Error
// naming the file, never a crash, a leak or a sanitizer report. A shape that is read must be one the model counts
// (countParams takes it, with a positive total); applied to a request it either works or says why in one line naming
// the file, and the request then resolves to the model's input or says why in one line.
#include "core/model/catalog/model_shapes.h"
#include "core/model/hf/hf_config.h"
#include "core/model/llm/inference_request.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

constexpr const char* kTarget = "fuzz_hf_config";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString source = QStringLiteral("config.json");
    const Result<HfModelConfig> read =
        fuzz::readOrCheckRefusal(kTarget, fuzz::inputBytes(data, size), source, parseHfConfig);
    if (!read.ok())
        return 0;
    const Result<ParamCounts> counts = countParams(read.value().shape);
    if (!counts.ok())
        fuzz::fail(kTarget, "a config that was read has a shape the model refuses", counts.error().message);
    if (counts.value().total <= 0)
        fuzz::fail(kTarget, "a config that was read has no parameters", read.value().shape.id);
    InferenceRequest request;
    if (const std::optional<QString> refused = applyHfConfig(read.value(), request)) {
        fuzz::checkRefusal(kTarget, source, *refused);
        return 0;
    }
    // The shape as the model's input, on the default GPU: it resolves, or says why in one line.
    const Result<InferenceConfig> resolved = resolveInference(request);
    if (!resolved.ok() && resolved.error().message.contains(u'\n'))
        fuzz::fail(kTarget, "an error message is more than one line", resolved.error().message);
    return 0;
}
