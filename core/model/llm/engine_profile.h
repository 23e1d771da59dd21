#pragma once
// Serving engines as inputs of the LLM model: each engine is a profile of the engine terms (engine_terms.h), the
// measured defaults ("generic") with the terms that published measurements of that engine show to differ replaced,
// each replacement with its source. A term can differ by the GPU's memory family: a kernel that keeps too few bytes
// in flight streams a GDDR card at full speed and an HBM card at a fraction of its bandwidth. Plain data: the
// command line, the batching tab and sessions choose one by name (engine_catalog.h) and ask it for the terms of their
// GPU.

#include "core/model/catalog/gpu_spec.h"
#include "core/model/catalog/links.h"
#include "core/model/llm/engine_terms.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ridgeline {

// What a card's memory is, for the terms that differ by it (GpuSpec::memoryType).
enum class MemoryFamily { Hbm, Gddr, Unified, Other };
MemoryFamily memoryFamily(const GpuSpec& gpu);
QString memoryFamilyName(MemoryFamily family);  // "HBM", "GDDR", "unified", "other"

// One term an engine sets to its own value, on every card or on one memory family.
struct TermOverride {
    EngineTerm term;
    double value = 0;
    std::optional<MemoryFamily> family;  // empty: every card
    QString source;                      // the published figure it comes from, and how
};

// Where an engine runs its own one-shot and two-shot all-reduce kernels (links.h) instead of NCCL alone: nowhere,
// over NVLink and Infinity Fabric only, or also over PCIe between two GPUs. Always only where the GPUs reach each
// other peer-to-peer.
enum class CustomAllReduce { Never, FabricOnly, FabricOrTwoPcieGpus };

// Whether the engine's decode attention splits one sequence's KV cache over several thread blocks (split-K over the
// KV length: TensorRT-LLM's multi-block mode, vLLM's paged attention v2 and FlashAttention's num_splits, FlashInfer's
// split-KV) by default. Without it a decode step runs batch x heads blocks, each walking its sequence's whole
// context alone: at a small batch the GPU's SMs are not filled and the KV cache is read at a fraction of the
// bandwidth (LlmModel: EngineTerms::kvShare x min(1, blocks / SMs)).
struct DecodeSplit {
    // The first version that splits by default; empty: every version covered does (or does when the GPU is not
    // filled, which is what matters here). A version asked for below it walks each context in one block.
    QString sinceVersion;
    QString source;  // the engine's release notes or dispatch code it comes from
};

struct EngineProfile {
    QString id;           // "llama.cpp", as --engine takes it
    QString name;         // "llama.cpp"
    QStringList aliases;  // other spellings --engine and the validation set use ("lmdeploy-turbomind")
    // The versions whose published figures made the profile, oldest and newest (dotted numbers, "0.6" or
    // "0.10.0"); both empty when the sources state none.
    QString oldestVersion;
    QString newestVersion;
    QString coverage;  // what the profile rests on, one clause
    std::vector<TermOverride> overrides;
    CustomAllReduce customAllReduce = CustomAllReduce::Never;
    QString customAllReduceSource;  // the engine's own dispatch rule it comes from
    // The engine's scheduler limits where they differ from vLLM's, which the serving model assumes otherwise
    // (serving_latency.h): requests decoding together at most and tokens through one step at most; 0: vLLM's.
    std::int64_t maxRunning = 0;
    std::int64_t tokenBudget = 0;
    double kvMemoryShare = 0;  // of the memory beside the weights, what the KV cache gets; 0: all of it
    // Under load (a closed loop of several requests), steps between a request's prefill and its first token
    // reaching the client: the server's path, fitted on published runs; 0: none.
    double firstTokenLagSteps = 0;
    QString schedulerSource;  // where the limits come from
    DecodeSplit decodeSplit;
    // The first version that runs the custom all-reduce kernels by default (dotted, as decodeSplit.sinceVersion);
    // empty: every version covered does. A version below it all-reduces with NCCL alone.
    QString customAllReduceSince;
    // The first version whose custom kernels are gated on NVLink as customAllReduce says; a version below it (and
    // from customAllReduceSince) runs them over any peer-to-peer link, PCIe included. Empty: every version is gated.
    QString customOverPcieBefore{};

    // Whether `version` (dotted digits as selectEngine takes them, without "v"; empty: the newest the profile
    // covers) splits decode attention over the KV length.
    bool splitsDecodeAttention(const QString& version) const;

    bool isGeneric() const;
    // The measured defaults with this engine's terms for the card's memory family.
    EngineTerms termsFor(const GpuSpec& gpu) const;
    // The override that sets `term` on `family`, if any (a family-specific one before one for every card).
    const TermOverride* overrideFor(EngineTerm term, MemoryFamily family) const;
    // The kernels this engine all-reduces with over `link` between `gpus` GPUs of a node, at `version` (dotted digits;
    // empty: the newest the profile covers).
    AllReduceKernels allReduceKernels(const LinkSpec& link, int gpus, const QString& version = {}) const;
};

// The built-in engines: generic first, then vLLM, SGLang, TensorRT-LLM, llama.cpp, MLC LLM, ExLlamaV2, LMDeploy, TGI.
// Choosing one by name, among them and the user's own: core/model/llm/engine_catalog.h.
const std::vector<EngineProfile>& builtinEngines();
inline const QString kGenericEngineId = QStringLiteral("generic");
// "0.6-0.10", "0.1" when both ends are one version, empty when the sources state none.
QString versionRange(const EngineProfile& engine);
// What `version` (as given; `number` without its "v" or "b") falls back to when the profile does not cover it, in
// one clause; empty when it does.
QString versionNote(const EngineProfile& engine, const QString& version, const QString& number);

}  // namespace ridgeline
