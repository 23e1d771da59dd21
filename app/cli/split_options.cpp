#include "app/cli/split_options.h"

#include "app/cli/option_values.h"
#include "core/model/llm/inference_request.h"

namespace ridgeline::cli {

namespace {

using Refusal = std::optional<QString>;

// --split P:D: two whole numbers of GPUs; the core says what is wrong with a pool.
Refusal readRatio(const QCommandLineParser& parser, SplitOptions& split)
{
    const QString text = parser.value(QStringLiteral("split"));
    const QStringList parts = text.split(u':');
    bool prefillOk = false, decodeOk = false;
    const int prefill = parts.size() == 2 ? parts[0].trimmed().toInt(&prefillOk) : 0;
    const int decode = parts.size() == 2 ? parts[1].trimmed().toInt(&decodeOk) : 0;
    if (!prefillOk || !decodeOk || prefill < 0 || decode < 0 || prefill > kMaxBatch || decode > kMaxBatch)
        return QStringLiteral("--split must be prefill GPUs:decode GPUs, two whole numbers such as 2:6, got \"%1\"")
            .arg(text);
    split.inputs.prefillGpus = prefill;
    split.inputs.decodeGpus = decode;
    return std::nullopt;
}

// --split-gpus: the sweep's total, two pools of whole engines of --tp GPUs, or with --split the check that the ratio
// adds up to it.
Refusal readTotal(const QCommandLineParser& parser, int tensorParallel, SplitOptions& split)
{
    std::int64_t total = kSplitSweepGpus;
    if (Refusal refused = wholeNumberOption(parser, "split-gpus", 2, kMaxTensorParallel, total))
        return refused;
    split.totalGpus = static_cast<int>(total);
    if (!split.single) {
        if (total < 2 * tensorParallel || total % tensorParallel != 0)
            return QStringLiteral(
                       "--split-gpus %1 does not make two pools of whole engines of --tp %2 GPUs: give at least %3, "
                       "a multiple of %2")
                .arg(total)
                .arg(tensorParallel)
                .arg(2 * tensorParallel);
        return std::nullopt;
    }
    const int sum = split.inputs.prefillGpus + split.inputs.decodeGpus;
    if (parser.isSet(QStringLiteral("split-gpus")) && sum != split.totalGpus)
        return QStringLiteral("--split %1:%2 makes %3 GPUs, not the %4 of --split-gpus")
            .arg(split.inputs.prefillGpus)
            .arg(split.inputs.decodeGpus)
            .arg(sum)
            .arg(split.totalGpus);
    split.totalGpus = sum;
    return std::nullopt;
}

// The request's lengths and concurrency, as --frontier takes them.
Refusal readMix(const QCommandLineParser& parser, SplitOptions& split, InferenceRequest& request)
{
    for (const char* name : {"context", "frontier"})
        if (parser.isSet(QLatin1String(name)))
            return QStringLiteral(
                       "--split and --split-sweep serve --prompt and --output at --batch requests in flight or "
                       "--arrival-rate; --%1 cannot go with them")
                .arg(QLatin1String(name));
    split.concurrency = request.batch;  // before the lengths' reader sets the request's batch to one
    return readServedLengths(parser, request, QStringLiteral("--split"));
}

}  // namespace

void addSplitOptions(QCommandLineParser& parser)
{
    auto option = [&](const char* name, const char* help, const char* valueName = nullptr) {
        addOption(parser, name, help, valueName);
    };
    option("split",
           "disaggregated serving: P GPUs prefill and D GPUs decode (P:D, each a multiple of --tp), against "
           "colocated serving on the same GPUs, for --prompt and --output (default 1024 and 1024) at --batch "
           "requests in flight or --arrival-rate",
           "P:D");
    option("split-sweep",
           "every prefill:decode split of --split-gpus, marking the best for the mix (the most tokens/s per GPU; "
           "at an --arrival-rate the shortest end-to-end latency)");
    option("split-gpus", "GPUs shared by the two pools (default 8; with --split it must be P + D)", "N");
    option("kv-link",
           "the link the KV cache crosses from a prefill to a decode GPU (default: the card's own when the pools "
           "fit in one node, else its network)",
           "L");
    option("kv-overlap", "send the KV cache layer by layer during the prefill (Splitwise) instead of after it");
}

std::optional<QString> readSplitOptions(const QCommandLineParser& parser, SplitOptions& split,
                                        InferenceRequest& request)
{
    split.single = parser.isSet(QStringLiteral("split"));
    split.sweep = parser.isSet(QStringLiteral("split-sweep"));
    if (!split.active()) {
        for (const char* name : {"split-gpus", "kv-link", "kv-overlap"})
            if (parser.isSet(QLatin1String(name)))
                return QStringLiteral("--%1 goes with --split or --split-sweep").arg(QLatin1String(name));
        return std::nullopt;
    }
    if (split.single && split.sweep)
        return QStringLiteral("--split evaluates one split and --split-sweep all of them; give one");
    if (split.single)
        if (Refusal refused = readRatio(parser, split))
            return refused;
    if (Refusal refused = readTotal(parser, request.gpus, split))
        return refused;
    split.linkId = parser.value(QStringLiteral("kv-link")).trimmed();
    if (parser.isSet(QStringLiteral("kv-link")) && split.linkId.isEmpty())
        return QStringLiteral("--kv-link needs a link id, e.g. nvlink4 or infiniband-ndr");
    split.inputs.overlapTransfer = parser.isSet(QStringLiteral("kv-overlap"));
    return readMix(parser, split, request);
}

Result<LinkSpec> splitLink(const SplitOptions& split, const GpuSpec& gpu)
{
    if (!split.linkId.isEmpty()) {
        Result<LinkSpec> link = findLink(split.linkId);
        if (!link)
            return makeError(link.error().code, QStringLiteral("--kv-link: ") + link.error().message);
        return link;
    }
    const bool oneNode = gpu.scaleUpGpus <= 0 || split.totalGpus <= gpu.scaleUpGpus;
    const QString id = oneNode ? defaultLinkId(gpu) : gpu.networkLink;
    if (id.isEmpty())
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("--kv-link: the %1 GPUs of the two pools are more than the %2 of one node of "
                                        "%3, and the catalog names no network between nodes; give one (e.g. "
                                        "--kv-link infiniband-ndr)")
                             .arg(split.totalGpus)
                             .arg(gpu.scaleUpGpus)
                             .arg(gpu.name));
    return findLink(id);
}

}  // namespace ridgeline::cli
