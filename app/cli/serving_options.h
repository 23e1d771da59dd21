#pragma once
// `ridgeline model`'s serving options: the frontier (--frontier with its targets), the scheduler's assumptions
// (--max-running, --token-budget, --no-chunked-prefill), an open-loop arrival rate (--arrival-rate) and what a
// GPU costs and draws (--gpu-hour-price, --gpu-power-w). Each is checked where it is read and named in the message.

#include "app/cli/model_options.h"
#include "core/model/serving/frontier.h"
#include "core/model/serving/scheduler_choice.h"
#include "core/model/serving/token_cost.h"

#include <QCommandLineParser>

#include <optional>

namespace ridgeline::cli {

// --prompt and --output default to the frontier's lengths (kFrontierPrompt, kFrontierOutput in frontier.h).

struct ServingOptions {
    bool frontier = false;
    SchedulerOverrides schedulerGiven;  // --max-running, --token-budget, --no-chunked-prefill as given
    SchedulerChoice scheduler;          // the engine's scheduler with those on top (chooseServingScheduler)
    FrontierTargets targets;
    CostInputs cost;
    double arrivalRate = 0;  // > 0: the serving figures of one configuration under Poisson arrivals
};

void addServingOptions(QCommandLineParser& parser);

// The lengths a served request mix runs at (--frontier, --split): --prompt and --output, defaulting as above, each
// checked and named for `forWhat`; the request's batch becomes 1 and its context prompt + output.
std::optional<QString> readServedLengths(const QCommandLineParser& parser, InferenceRequest& request,
                                         const QString& forWhat);

// The scheduler the serving figures run: `engine`'s (scheduler_choice.h) with the options given on top; refuses a
// token budget that is not above the largest batch, naming the option or the engine each comes from.
std::optional<QString> chooseServingScheduler(ServingOptions& serving, const EngineProfile& engine);

// Reads the options above; with --frontier it also sets the request's prompt and output (defaults above), batch 1
// and context prompt + output, and refuses --batch and --context, which the frontier sweeps and derives.
std::optional<QString> readServingOptions(const QCommandLineParser& parser, ServingOptions& serving,
                                          InferenceRequest& request);

}  // namespace ridgeline::cli
