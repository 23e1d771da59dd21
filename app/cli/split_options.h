#pragma once
// `ridgeline model`'s prefill/decode split options: --split P:D (one split), --split-sweep (every split of
// --split-gpus), the link the KV cache crosses (--kv-link) and whether it is sent during the prefill (--kv-overlap).
// Each is checked where it is read and named in the message.

#include "app/cli/serving_options.h"
#include "core/model/serving/disaggregation.h"

#include <QCommandLineParser>

#include <optional>

namespace ridgeline::cli {

// The GPUs --split-sweep shares out when --split-gpus is not given: one HGX node.
inline constexpr int kSplitSweepGpus = 8;

struct SplitOptions {
    bool single = false;  // --split P:D
    bool sweep = false;   // --split-sweep
    int totalGpus = kSplitSweepGpus;
    std::int64_t concurrency = 1;  // --batch: requests in flight when no --arrival-rate is given
    QString linkId;                // empty: the card's own link when the pools fit in one node, else its network
    SplitInputs inputs;            // its link and scheduling policy are filled in later
    bool active() const { return single || sweep; }
};

void addSplitOptions(QCommandLineParser& parser);

// Reads the options above. With --split or --split-sweep it also sets the request's prompt and output (the
// frontier's defaults), the closed loop's concurrency from --batch (default 1), batch 1 and the context prompt +
// output, and refuses
// --context and --frontier.
std::optional<QString> readSplitOptions(const QCommandLineParser& parser, SplitOptions& split,
                                        InferenceRequest& request);

// The link between the pools: --kv-link, else the card's interconnect when the `totalGpus` fit in one of its
// nodes, else its network link; a message naming --kv-link when there is none.
Result<LinkSpec> splitLink(const SplitOptions& split, const GpuSpec& gpu);

}  // namespace ridgeline::cli
