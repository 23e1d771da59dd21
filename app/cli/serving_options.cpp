#include "app/cli/serving_options.h"

#include "app/cli/option_values.h"

#include <cmath>

namespace ridgeline::cli {

namespace {

using Refusal = std::optional<QString>;

// --max-running, --token-budget and --no-chunked-prefill, each only when given: the engine's otherwise.
Refusal readSchedulerOptions(const QCommandLineParser& parser, SchedulerOverrides& given)
{
    std::int64_t value = 0;
    if (Refusal refused = wholeNumberOption(parser, "max-running", 1, kMaxBatch, value))
        return refused;
    if (parser.isSet(QStringLiteral("max-running")))
        given.maxRunning = value;
    if (Refusal refused = wholeNumberOption(parser, "token-budget", 2, kMaxContext, value))
        return refused;
    if (parser.isSet(QStringLiteral("token-budget")))
        given.tokenBudget = value;
    if (parser.isSet(QStringLiteral("no-chunked-prefill")))
        given.chunkedPrefill = false;
    return std::nullopt;
}

// --frontier: the lengths it serves, and no --batch or --context of its own.
Refusal readFrontier(const QCommandLineParser& parser, InferenceRequest& request)
{
    for (const char* name : {"batch", "context", "arrival-rate"})
        if (parser.isSet(QLatin1String(name)))
            return QStringLiteral(
                       "--frontier sweeps the batch at the lengths of --prompt and --output; --%1 cannot "
                       "go with it")
                .arg(QLatin1String(name));
    return readServedLengths(parser, request, QStringLiteral("--frontier"));
}

}  // namespace

std::optional<QString> readServedLengths(const QCommandLineParser& parser, InferenceRequest& request,
                                         const QString& forWhat)
{
    if (!parser.isSet(QStringLiteral("prompt")))
        request.prompt = kFrontierPrompt;
    if (!parser.isSet(QStringLiteral("output")))
        request.output = kFrontierOutput;
    if (request.prompt < 1)
        return QStringLiteral("--prompt must be at least 1 token for %1").arg(forWhat);
    if (request.output < 2)
        return QStringLiteral(
                   "--output must be at least 2 tokens for %1: the inter-token latency is the time between two")
            .arg(forWhat);
    request.batch = 1;
    request.context = request.prompt + request.output;
    return std::nullopt;
}

void addServingOptions(QCommandLineParser& parser)
{
    auto option = [&](const char* name, const char* help, const char* valueName = nullptr) {
        addOption(parser, name, help, valueName);
    };
    option("frontier",
           "tokens/s per GPU against tokens/s per user (1 / inter-token latency) over the batch, 1, 2, 4, ... to the "
           "largest that fits and --max-running, for --prompt and --output (default 1024 and 1024)");
    option("ttft-target",
           "with --frontier or --split-sweep: mark the points or splits whose time to first token is at most S "
           "seconds",
           "S");
    option("itl-target",
           "with --frontier or --split-sweep: mark the points or splits whose inter-token latency is at most S "
           "seconds",
           "S");
    option("arrival-rate",
           "requests per second arriving at random (open loop) for the serving figures, instead of --batch "
           "requests always in flight",
           "R");
    option("max-running",
           "the scheduler's largest batch (default: the engine's, e.g. TensorRT-LLM's 2048; else 128, vLLM's "
           "max_num_seqs)",
           "N");
    option("token-budget",
           "tokens one step takes, decode first, then prompt chunks (default: the engine's, e.g. TensorRT-LLM's "
           "8192; else 2048, vLLM's max_num_batched_tokens)",
           "N");
    option("no-chunked-prefill", "prefill each prompt in a pass of its own ahead of the decodes (vLLM V0's default)");
    option(
        "gpu-hour-price",
        "US dollars per GPU-hour: cost per million input and output tokens (default: the price saved with the GPU in "
        "your catalog, else the bundled catalog's example price for it, else none)",
        "USD");
    option("gpu-power-w", "watts one GPU draws: joules per output token (default: the card's board power)", "W");
}

std::optional<QString> chooseServingScheduler(ServingOptions& serving, const EngineProfile& engine)
{
    serving.scheduler = chooseScheduler(engine, serving.schedulerGiven);
    return schedulerConflict(serving.scheduler, QStringLiteral("--max-running"), QStringLiteral("--token-budget"));
}

std::optional<QString> readServingOptions(const QCommandLineParser& parser, ServingOptions& serving,
                                          InferenceRequest& request)
{
    if (Refusal refused =
            positiveNumberOption(parser, "gpu-hour-price", "US dollars per GPU-hour", serving.cost.gpuHourPrice))
        return refused;
    if (serving.cost.gpuHourPrice)
        if (const std::optional<QString> refused = checkGpuHourPrice(*serving.cost.gpuHourPrice))
            return QStringLiteral("--gpu-hour-price: ") + *refused;
    if (Refusal refused = positiveNumberOption(parser, "gpu-power-w", "watts", serving.cost.gpuPowerWatts))
        return refused;
    if (Refusal refused = readSchedulerOptions(parser, serving.schedulerGiven))
        return refused;
    std::optional<double> rate;
    if (Refusal refused = positiveNumberOption(parser, "arrival-rate", "requests per second", rate))
        return refused;
    serving.arrivalRate = rate.value_or(0.0);
    serving.frontier = parser.isSet(QStringLiteral("frontier"));
    if (Refusal refused = positiveNumberOption(parser, "ttft-target", "seconds", serving.targets.ttftSeconds))
        return refused;
    if (Refusal refused = positiveNumberOption(parser, "itl-target", "seconds", serving.targets.itlSeconds))
        return refused;
    if (!serving.frontier) {
        const bool split = parser.isSet(QStringLiteral("split")) || parser.isSet(QStringLiteral("split-sweep"));
        if ((serving.targets.ttftSeconds || serving.targets.itlSeconds) && !split)
            return QStringLiteral(
                "--ttft-target and --itl-target mark the points of --frontier or the splits of --split-sweep; add "
                "--frontier or --split-sweep");
        if (serving.arrivalRate > 0 && (request.prompt < 1 || request.output < 2))
            return QStringLiteral("--arrival-rate needs --prompt and an --output of 2 tokens or more");
        return std::nullopt;
    }
    return readFrontier(parser, request);
}

}  // namespace ridgeline::cli
