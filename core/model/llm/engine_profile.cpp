#include "core/model/llm/engine_profile.h"

#include <QVersionNumber>

namespace ridgeline {

namespace {

EngineTerm term(const char* name)
{
    return parseTermName(QString::fromLatin1(name)).value();  // the names below are the terms' own
}

// source: the published figure; how: how the value follows from it, when the figure alone does not say.
TermOverride on(const char* name, double value, std::optional<MemoryFamily> family, const char* source,
                const char* how = nullptr)
{
    QString text = QString::fromUtf8(source);
    if (how)
        text += QStringLiteral("; ") + QString::fromUtf8(how);
    return TermOverride{term(name), value, family, text};
}

// Where the engines' own all-reduce kernels run, from their dispatch code.
constexpr const char* kVllmCustomAllReduce =
    "vLLM custom_all_reduce.py (vllm-project/vllm#2192 and after): the custom kernels run where every pair of GPUs "
    "reaches the other peer-to-peer and either NVLink joins them all or there are two ('Custom allreduce is disabled "
    "because it's not supported on more than two PCIe-only GPUs', quoted in vllm-project/vllm#56128)";
constexpr const char* kSglangCustomAllReduce =
    "SGLang custom_all_reduce_utils.py, vLLM's rule: can_use_custom_all_reduce_with_nvlink() rejects more than two "
    "PCIe-only GPUs (haohervchb/sglang-V100#2)";
constexpr const char* kTrtllmCustomAllReduce =
    "TensorRT-LLM allreducePlugin.cpp selectImplementation(): the AUTO strategy returns NCCL unless NVML finds NVLink "
    "between every pair of the group (and peer-to-peer); with it, one-shot below 1 MB (TP <= 4) or 500 KB, two-shot "
    "above. Before 0.8 engines were built by the examples' build.py scripts, which take --use_custom_all_reduce as a "
    "flag that is off unless given ('Activates latency-optimized algorithm for all-reduce instead of NCCL', "
    "examples/falcon/build.py@138f96d4), and the 0.5.0 and 0.6.1 performance pages build without it: NCCL. 0.8 and "
    "0.9 ran their kernels over any link with peer access, PCIe included: engines built with them (the default) "
    "failed on GPUs without it instead of falling back to NCCL ('Can't enable access between nodes' with 0.8.0 and "
    "0.9.0.dev where 0.7.1 ran, NVIDIA/TensorRT-LLM#1374; 'custom allreduce is only supported when the peer access "
    "is supported', #1499 on v0.9.0; the same on the main branch of May 2024, #1588 and #1625); the NVLink test is "
    "taken from 0.10, the first version past that evidence";

// Each value is the model solved for one published batch-1 decode rate (Llama 2 7B, 64 tokens of context on
// average as in llama-bench's tg 128) with every other term at the engine's value: first the fixed time per layer
// from the fastest stream (the share at 1), then each format's share of what the card sustains.
constexpr const char* kLlamaLayer =
    "llama.cpp PR #4766 (ggml-org/llama.cpp, 2024-01): llama-bench on an RTX 4090, llama 7B F16 (12.55 GiB) tg 128 = "
    "61.03 t/s, 0.82 TB/s of the card's 1.008 TB/s; with the weights streamed at the full sustained share (0.869 "
    "TB/s) and its 23 us per sequence and layer, 9.5 us per layer is left (the measured default, 53 us, would give "
    "56.6 t/s)";
constexpr const char* kLlamaA100 =
    "llama.cpp PR #6017 (2024-03): llama-bench on one A100 80GB PCIe, llama 7B F16 (12.55 GiB) tg 128 = 74.77 t/s, "
    "1.01 TB/s of the card's 1.935 TB/s (52 %; the measured default gives 99.9 t/s); taken for every weight format "
    "on HBM cards (the issue's blind set: llama.cpp at 55-65 % of A100 and H100 bandwidth at batch 1)";
constexpr const char* kLlama4090F16 =
    "llama.cpp PR #4766 (2024-01): llama-bench on an RTX 4090, llama 7B F16 tg 128 = 61.03 t/s: the full share";
constexpr const char* kLlama4090Q8 =
    "llama.cpp PR #4766 (2024-01): llama-bench on an RTX 4090, llama 7B Q8_0 (6.67 GiB, 8.5 bits per weight) "
    "tg 128 = 98.13 t/s";
constexpr const char* kLlama4090Q4 =
    "llama.cpp PR #6766 (2024-04): RTX 4090, LLaMA 2 7B q4_0 (4.5 bits per weight), ./main token generation "
    "138.31 t/s on master before CUDA graphs";
constexpr const char* kLlamaApple =
    "llama.cpp discussion #4167 'Performance of llama.cpp on Apple Silicon M-series' (llama-bench, llama 7B), as "
    "quoted with its figures: M2 Max, 38-core GPU, Q4_0 tg 128 = 65.95 t/s (M3 Max, 40-core, 66.31 t/s, gives the "
    "same share), 0.25 TB/s of the SoC's 0.4 TB/s (63 %)";
constexpr const char* kLlamaBatch =
    "llama.cpp PR #15802 (2025-09): RTX 3090, llama 8B Q4_0, pp512 by micro-batch of 1, 2, 4, 8 tokens: 155.0, "
    "277.4, 469.0, 570.7 t/s; a step of 8 takes 14.02 ms against 6.45 ms for one, 7.57 ms more, of which the "
    "model's own batch costs (the GEMMs' compute, the KV reads) give 2.45 ms: (7.57 - 2.45) ms / 7 sequences / 32 "
    "layers = 23 us per sequence and layer (the mat-vec kernels do each column's dot products apart; the measured "
    "default is 0.35 us)";
constexpr const char* kExl2 =
    "turboderp/exllamav2 README (v0.1.0), Performance: Llama 2 7B EXL2 4.0 bpw, 207 t/s on an RTX 4090 and 179 t/s "
    "on an RTX 3090 Ti (both 1.008 TB/s)";

// Fitted by core/model/llm/calibration on the 72 vLLM rows of the fit part of tests/data/llm/validation.csv alone,
// each run as `--engine vllm` runs it (vLLM's own all-reduce kernels over the link), every other term at the measured
// defaults, prior weight 0.1 (the held-out rows of vLLM are not used).
constexpr double kVllmSequenceSeconds = 1.21e-6;
constexpr const char* kVllmSequence =
    "fitted on the 72 vLLM rows of the fit part of tests/data/llm/validation.csv (ROCm vLLM 0.6.7 and 0.10.0 static "
    "batch sweeps of Llama 3.1 70B and 405B on MI300X, batch 1-128; vLLM's FP8 KV-cache post on H100), each with "
    "vLLM's own all-reduce kernels and every other term at the measured defaults: 1.21 us per sequence and layer. "
    "The defaults' 0.35 us, fitted on every engine's rows together, leaves vLLM's batch sweeps too flat: the time a "
    "sequence waits per token at batch 128 relative to batch 1 was predicted 30-40 % below what those sweeps "
    "measure";

// Fitted on the fit part of tests/data/llm/serving_validation.csv (NIM 1.8.0: TensorRT-LLM behind NIM's server,
// 39 closed-loop runs), the value on a 0.25-step grid with the least mean |ln(model / measured)| of the time to first
// token (test ServingValidation.FirstTokenLagIsTheFitOnTheFitPart). The mean, not the median: the median of 39 rows is
// within 1.5 points from 3 to 4.75 steps, and which of those it prefers turns on the rows nearest it.
constexpr double kTrtllmFirstTokenLagSteps = 4.0;
constexpr const char* kTrtllmScheduler =
    "NVIDIA/TensorRT-LLM tensorrt_llm/builder.py@008b2b8d, BuildConfig: max_batch_size 2048, max_num_tokens 8192, "
    "the defaults of trtllm-build (tensorrt_llm/commands/build.py) when an engine is built without them; "
    "tensorrt_llm/llmapi/llm_args.py, KvCacheConfig.free_gpu_memory_fraction: the KV cache gets 90 % of the memory "
    "left free (the activations' workspace, also taken from it, is not modelled); under load the first token "
    "reaches the client 4.5 steps after its prefill (fitted on NIM 1.8.0's published runs)";

// Whether decode attention splits a sequence's KV cache over thread blocks, from each engine's release notes and
// dispatch code. Engines not listed here are taken to split (the default DecodeSplit): no source says otherwise.
constexpr const char* kTrtllmDecodeSplit =
    "TensorRT-LLM release notes (docs/source/release-notes.md), 0.13.0 (2024-09-30), API changes: '[BREAKING "
    "CHANGE] Enabled multi_block_mode by default'; before it the masked multi-head attention and XQA kernels run one "
    "thread block per sequence and head unless the engine was built (0.5-0.11) or run (0.12) with multi_block_mode";
constexpr const char* kVllmDecodeSplit =
    "vLLM vllm/attention/ops/paged_attn.py (_PARTITION_SIZE = 512): paged attention v1 (one block per sequence and "
    "head) only where max_seq_len <= 8192 and (one partition or num_seqs x num_heads > 512), else v2, which splits "
    "the context into 512-token partitions and reduces them: split wherever the blocks would not fill the GPU";
constexpr const char* kSglangDecodeSplit =
    "SGLang: FlashInfer's BatchDecodeWithPagedKVCacheWrapper (docs.flashinfer.ai, flashinfer.decode: its float "
    "workspace buffer 'used to store intermediate attention results in split-k algorithm'); the Triton backend "
    "splits the KV into --triton-attention-num-kv-splits parts";

void setDecodeSplits(std::vector<EngineProfile>& engines)
{
    for (EngineProfile& e : engines) {
        if (e.id == QLatin1String("tensorrt-llm")) {
            e.decodeSplit = {QStringLiteral("0.13"), QString::fromUtf8(kTrtllmDecodeSplit)};
            e.customAllReduceSince = QStringLiteral("0.8");
            e.customOverPcieBefore = QStringLiteral("0.10");
        } else if (e.id == QLatin1String("vllm"))
            e.decodeSplit = {{}, QString::fromUtf8(kVllmDecodeSplit)};
        else if (e.id == QLatin1String("sglang"))
            e.decodeSplit = {{}, QString::fromUtf8(kSglangDecodeSplit)};
    }
}

// The measured defaults and the data-centre serving engines whose rows they were fitted on.
void addServingEngines(std::vector<EngineProfile>& engines)
{
    engines.push_back({kGenericEngineId,
                       QStringLiteral("generic"),
                       {},
                       {},
                       {},
                       QStringLiteral("the measured defaults: fitted on the fit part of tests/data/llm/validation.csv "
                                      "(vLLM 0.6.7 and 0.10.0, TensorRT-LLM 0.5-0.9, LMDeploy 0.1)"),
                       {},
                       CustomAllReduce::Never,
                       {},
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
    engines.push_back({QStringLiteral("vllm"),
                       QStringLiteral("vLLM"),
                       {},
                       QStringLiteral("0.6"),
                       QStringLiteral("0.10"),
                       QStringLiteral("the measured defaults, whose fit part holds 72 vLLM rows (ROCm vLLM 0.6.7 "
                                      "and 0.10.0 on MI300X, the FP8 KV-cache post on H100; held out: 0.7.3-0.10.0 on "
                                      "MI300X, B200), with the per-sequence time fitted on those rows alone"),
                       {on("sequence_seconds", kVllmSequenceSeconds, std::nullopt, kVllmSequence)},
                       CustomAllReduce::FabricOrTwoPcieGpus,
                       QString::fromUtf8(kVllmCustomAllReduce),
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
    engines.push_back({QStringLiteral("sglang"),
                       QStringLiteral("SGLang"),
                       {},
                       {},
                       {},
                       QStringLiteral("no static-batch figure of SGLang has been fitted: the measured defaults"),
                       {},
                       CustomAllReduce::FabricOrTwoPcieGpus,
                       QString::fromUtf8(kSglangCustomAllReduce),
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
    engines.push_back({QStringLiteral("tensorrt-llm"),
                       QStringLiteral("TensorRT-LLM"),
                       {QStringLiteral("trtllm")},
                       QStringLiteral("0.5"),
                       QStringLiteral("0.16"),
                       QStringLiteral("the measured defaults, whose fit part holds 107 TensorRT-LLM rows (0.5-0.9 "
                                      "on H200, H100, A100; held out: 0.5-0.9 on L40S and others, 0.16 on H100); no "
                                      "term differs"),
                       {},
                       CustomAllReduce::FabricOnly,
                       QString::fromUtf8(kTrtllmCustomAllReduce),
                       2048,
                       8192,
                       0.9,
                       kTrtllmFirstTokenLagSteps,
                       QString::fromUtf8(kTrtllmScheduler),
                       {},
                       {}});
}

// The engines people run on their own cards, whose terms differ from the measured defaults by their own figures.
void addLocalEngines(std::vector<EngineProfile>& engines)
{
    const MemoryFamily hbm = MemoryFamily::Hbm, gddr = MemoryFamily::Gddr;
    engines.push_back(
        {QStringLiteral("llama.cpp"),
         QStringLiteral("llama.cpp"),
         {QStringLiteral("llamacpp"), QStringLiteral("llama-cpp")},
         {},
         {},
         QStringLiteral("llama-bench tables in llama.cpp pull requests and discussions, builds of 2024-01 to "
                        "2025-09"),
         {on("layer_seconds", 9.5e-6, std::nullopt, kLlamaLayer), on("weight_bandwidth.fp16", 0.646, hbm, kLlamaA100),
          on("weight_bandwidth.bf16", 0.646, hbm, kLlamaA100), on("weight_bandwidth.int8", 0.646, hbm, kLlamaA100),
          on("weight_bandwidth.int4", 0.646, hbm, kLlamaA100), on("weight_bandwidth.fp16", 1.0, gddr, kLlama4090F16),
          on("weight_bandwidth.bf16", 1.0, gddr, kLlama4090F16), on("weight_bandwidth.int8", 0.850, gddr, kLlama4090Q8),
          on("weight_bandwidth.int4", 0.690, gddr, kLlama4090Q4),
          on("weight_bandwidth.int4", 0.825, MemoryFamily::Unified, kLlamaApple),
          on("sequence_seconds", 23e-6, std::nullopt, kLlamaBatch)},
         CustomAllReduce::Never,
         {},
         0,
         0,
         0,
         0,
         {},
         {},
         {}});
    engines.push_back(
        {QStringLiteral("mlc-llm"),
         QStringLiteral("MLC LLM"),
         {QStringLiteral("mlc")},
         {},
         {},
         QStringLiteral("the measured defaults, checked on one figure, not fitted: MLC's blog 'Scalable Language "
                        "Model Inference on Multiple NVIDIA and AMD GPUs' (2023-10), 4-bit Llama 2 70B on two "
                        "RTX 4090s (TP 2 over PCIe) at 34.5 tok/s; the defaults give 35.4 (+3 %)"),
         {},
         CustomAllReduce::Never,
         {},
         0,
         0,
         0,
         0,
         {},
         {},
         {}});
    engines.push_back({QStringLiteral("exllamav2"),
                       QStringLiteral("ExLlamaV2"),
                       {QStringLiteral("exl2")},
                       QStringLiteral("0.1"),
                       QStringLiteral("0.1"),
                       QStringLiteral("the project README's decode table (v0.1.0)"),
                       {on("weight_bandwidth.int4", 1.0, gddr, kExl2,
                           "the full share: the README's 4090 rate is above what the measured default's per-layer time "
                           "allows at any share (163.8 t/s)"),
                        on("layer_seconds", 22.5e-6, std::nullopt, kExl2,
                           "fitted on both README rates with the full int4 share (least squares on the log error: "
                           "4090 -6 %, 3090 Ti +6 %)")},
                       CustomAllReduce::Never,
                       {},
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
}

// Every built-in engine in catalog order: the serving engines above, the local ones, then LMDeploy and TGI.
std::vector<EngineProfile> makeEngines()
{
    std::vector<EngineProfile> engines;
    addServingEngines(engines);
    addLocalEngines(engines);
    engines.push_back({QStringLiteral("lmdeploy"),
                       QStringLiteral("LMDeploy"),
                       {QStringLiteral("lmdeploy-turbomind"), QStringLiteral("turbomind")},
                       QStringLiteral("0.1"),
                       QStringLiteral("0.1"),
                       QStringLiteral("the measured defaults, whose fit part holds 46 LMDeploy TurboMind rows "
                                      "(v0.1.0 on A100, w4a16 on RTX 4090); no term differs"),
                       {},
                       CustomAllReduce::Never,
                       {},
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
    engines.push_back({QStringLiteral("tgi"),
                       QStringLiteral("TGI"),
                       {QStringLiteral("text-generation-inference")},
                       {},
                       {},
                       QStringLiteral("no figure of Text Generation Inference has been fitted: the measured defaults"),
                       {},
                       CustomAllReduce::Never,
                       {},
                       0,
                       0,
                       0,
                       0,
                       {},
                       {},
                       {}});
    setDecodeSplits(engines);
    return engines;
}

// The first two numbers of a dotted version: what the profiles' ranges compare.
QVersionNumber minor(const QVersionNumber& v)
{
    return QVersionNumber(v.majorVersion(), v.minorVersion());
}

// Whether `version` (dotted digits; empty: the newest covered) comes before `since` (empty: nothing does).
bool isBefore(const QString& version, const QString& since)
{
    if (since.isEmpty() || version.isEmpty())
        return false;
    const QVersionNumber asked = QVersionNumber::fromString(version);
    return !asked.isNull() && minor(asked) < minor(QVersionNumber::fromString(since));
}

}  // namespace

MemoryFamily memoryFamily(const GpuSpec& gpu)
{
    if (gpu.memoryType.startsWith(QLatin1String("HBM"), Qt::CaseInsensitive))
        return MemoryFamily::Hbm;
    if (gpu.memoryType.startsWith(QLatin1String("GDDR"), Qt::CaseInsensitive))
        return MemoryFamily::Gddr;
    if (gpu.memoryType.startsWith(QLatin1String("LPDDR"), Qt::CaseInsensitive))
        return MemoryFamily::Unified;
    return MemoryFamily::Other;
}

AllReduceKernels EngineProfile::allReduceKernels(const LinkSpec& link, int gpus, const QString& version) const
{
    if (!link.peerToPeer || !link.insideBox || isBefore(version, customAllReduceSince))
        return AllReduceKernels::Nccl;
    switch (customAllReduce) {
        case CustomAllReduce::Never:
            return AllReduceKernels::Nccl;
        case CustomAllReduce::FabricOnly:
            return link.pcie && !isBefore(version, customOverPcieBefore) ? AllReduceKernels::Nccl
                                                                         : AllReduceKernels::Custom;
        case CustomAllReduce::FabricOrTwoPcieGpus:
            return !link.pcie || gpus <= 2 ? AllReduceKernels::Custom : AllReduceKernels::Nccl;
    }
    return AllReduceKernels::Nccl;
}

QString memoryFamilyName(MemoryFamily family)
{
    switch (family) {
        case MemoryFamily::Hbm:
            return QStringLiteral("HBM");
        case MemoryFamily::Gddr:
            return QStringLiteral("GDDR");
        case MemoryFamily::Unified:
            return QStringLiteral("unified");
        case MemoryFamily::Other:
            break;
    }
    return QStringLiteral("other");
}

bool EngineProfile::splitsDecodeAttention(const QString& version) const
{
    return !isBefore(version, decodeSplit.sinceVersion);
}

bool EngineProfile::isGeneric() const
{
    return id == kGenericEngineId;
}

const TermOverride* EngineProfile::overrideFor(EngineTerm wanted, MemoryFamily family) const
{
    const TermOverride* everyCard = nullptr;
    for (const TermOverride& o : overrides) {
        if (!(o.term == wanted))
            continue;
        if (o.family == family)
            return &o;
        if (!o.family)
            everyCard = &o;
    }
    return everyCard;
}

EngineTerms EngineProfile::termsFor(const GpuSpec& gpu) const
{
    EngineTerms terms = EngineTerms::measured();
    const MemoryFamily family = memoryFamily(gpu);
    for (const EngineTerm& t : allTerms())
        if (const TermOverride* o = overrideFor(t, family))
            setTermValue(terms, t, o->value);
    return terms;
}

const std::vector<EngineProfile>& builtinEngines()
{
    static const std::vector<EngineProfile> engines = makeEngines();
    return engines;
}

QString versionRange(const EngineProfile& engine)
{
    if (engine.newestVersion.isEmpty() || engine.oldestVersion == engine.newestVersion)
        return engine.newestVersion;
    return engine.oldestVersion + QLatin1Char('-') + engine.newestVersion;
}

QString versionNote(const EngineProfile& engine, const QString& version, const QString& number)
{
    if (engine.isGeneric())
        return QStringLiteral("the generic profile has no versions; %1 is ignored").arg(version);
    if (engine.newestVersion.isEmpty())
        return QStringLiteral("the %1 profile is not tied to versions (%2); %3 falls back to it as it is")
            .arg(engine.name, engine.coverage, version);
    const QVersionNumber asked = minor(QVersionNumber::fromString(number));
    const QVersionNumber oldest = minor(QVersionNumber::fromString(engine.oldestVersion));
    const QVersionNumber newest = minor(QVersionNumber::fromString(engine.newestVersion));
    if (asked >= oldest && asked <= newest)
        return QString();
    return QStringLiteral("the %1 profile covers %2 to %3; %4 falls back to %1 %5")
        .arg(engine.name, engine.oldestVersion, engine.newestVersion, version,
             asked < oldest ? engine.oldestVersion : engine.newestVersion);
}

}  // namespace ridgeline
