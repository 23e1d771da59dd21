#include "core/model/llm/inference_request.h"

#include "core/model/catalog/links.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/engine_catalog.h"

namespace ridgeline {

namespace {

Result<GpuSpec> resolveGpu(const InferenceRequest& request)
{
    if (request.gpuId != kCustomId)
        return findGpu(request.gpuId);
    return customGpu(request.customPeakTflops, request.customBandwidthTbs, request.customMemoryGib);
}

}  // namespace

Result<ModelSpec> resolveModelSpec(const InferenceRequest& request)
{
    if (request.modelId != kCustomId)
        return findModel(request.modelId);
    if (request.customShape)
        return *request.customShape;
    return modelFromParamCount(request.customParams);
}

QString defaultLinkId(const GpuSpec& gpu)
{
    for (const QString& id : {gpu.interconnect, gpu.hostLink})
        if (!id.isEmpty() && findLink(id))
            return id;
    return QStringLiteral("pcie4");
}

QString effectiveLinkId(const InferenceRequest& request)
{
    if (!request.linkId.isEmpty())
        return request.linkId;
    const Result<GpuSpec> gpu = resolveGpu(request);
    return gpu ? defaultLinkId(gpu.value()) : QString();
}

AllReduceKernels engineAllReduce(const InferenceRequest& request, const EngineSelection& engine)
{
    if (request.allReduce)
        return *request.allReduce;
    const Result<LinkSpec> link = findLink(effectiveLinkId(request));
    return link ? engine.allReduceKernels(link.value(), request.gpus) : AllReduceKernels::Nccl;
}

void setEngineChoice(InferenceRequest& request, EngineChoice choice, const Efficiency& plainShares)
{
    request.engine.clear();
    switch (choice) {
        case EngineChoice::Measured:
            request.efficiency = Efficiency{};
            request.terms = EngineTerms::measured();
            return;
        case EngineChoice::Plain:
            request.efficiency = plainShares;
            request.terms = EngineTerms(plainShares);
            return;
        case EngineChoice::Ideal:
            request.efficiency = Efficiency::ideal();
            request.terms = EngineTerms::ideal();
            return;
    }
}

std::optional<EngineChoice> engineChoiceOf(const InferenceRequest& request)
{
    if (!request.engine.isEmpty())
        return std::nullopt;
    const EngineTerms terms = request.terms ? *request.terms : EngineTerms(request.efficiency);
    if (terms == EngineTerms::measured())
        return EngineChoice::Measured;
    if (terms.isIdeal())
        return EngineChoice::Ideal;
    if (terms == EngineTerms(request.efficiency))
        return EngineChoice::Plain;
    return std::nullopt;
}

Result<InferenceConfig> resolveInference(const InferenceRequest& request)
{
    InferenceConfig config;
    Result<ModelSpec> model = resolveModelSpec(request);
    if (!model)
        return model.error();
    config.model = std::move(model).value();
    Result<GpuSpec> gpu = resolveGpu(request);
    if (!gpu)
        return gpu.error();
    config.gpu = std::move(gpu).value();
    config.weights = request.weights;
    config.kv = request.kv;
    config.batch = request.batch;
    config.context = request.context;
    config.prompt = request.prompt;
    config.output = request.output;
    config.tensorParallel = request.gpus;
    if (!request.linkId.isEmpty() || request.gpus > 1) {
        const QString linkId = request.linkId.isEmpty() ? defaultLinkId(config.gpu) : request.linkId;
        Result<LinkSpec> link = findLink(linkId);
        if (!link)
            return link.error();
        config.link = std::move(link).value();
    }
    config.allReduce = request.allReduce.value_or(AllReduceKernels::Nccl);
    if (request.engine.isEmpty()) {
        config.efficiency = request.terms ? *request.terms : EngineTerms(request.efficiency);
        config.decodeSplitsKv = request.decodeSplitsKv;
        // Without an engine the collectives move at the links' datasheet rates, as the default terms were fitted
        // (engine_terms.cpp); an engine runs them at the shares its kernels and NCCL reach (links.cpp).
        config.link = atDatasheetRates(config.link);
    } else {
        const Result<EngineSelection> engine = selectEngine(request.engine);
        if (!engine)
            return engine.error();
        config.efficiency = engine.value().profile->termsFor(config.gpu);
        config.allReduce = engineAllReduce(request, engine.value());
        config.decodeSplitsKv = engine.value().splitsDecodeAttention();
    }
    for (const auto& [term, value] : request.termEdits)
        setTermValue(config.efficiency, term, value);
    config.attentionWeights = request.attentionWeights;
    config.headWeights = request.headWeights;
    config.expertParallel = request.expertParallel;
    config.speculative = request.speculative;
    config.decodeAttention = request.decodeAttention;
    const GpuSpec& g = config.gpu;
    config.gpusPerNode = request.gpusPerNode >= 0                                         ? request.gpusPerNode
                         : (!g.networkLink.isEmpty() || !request.networkLinkId.isEmpty()) ? g.scaleUpGpus
                                                                                          : 0;
    if (config.gpusPerNode > 0 && request.gpus > config.gpusPerNode) {
        const QString networkId = request.networkLinkId.isEmpty() ? g.networkLink : request.networkLinkId;
        if (networkId.isEmpty())
            return makeError(Error::Code::InvalidArgument,
                             QStringLiteral("%1 GPUs are more than the %2 of one node of %3: name the network "
                                            "between the nodes (e.g. infiniband-ndr)")
                                 .arg(request.gpus)
                                 .arg(config.gpusPerNode)
                                 .arg(g.name));
        Result<LinkSpec> network = findLink(networkId);
        if (!network)
            return network.error();
        config.network = std::move(network).value();
    }
    return config;
}

}  // namespace ridgeline
