#pragma once
// What serving engines reach and what they spend beyond the datasheet roofline: the share of bandwidth
// GEMMs reach per weight format, the share decode attention reaches per KV-cache format, the share of the dense
// tensor peak per compute precision (and of it for grouped expert GEMMs), how much of a kernel's smaller time hides
// under its larger, and fixed times per layer, per forward pass, per collective, per decoded sequence and per
// prefill, and the time per GiB a per-query-head decode attention kernel reads again from the cache.
// EngineTerms::priors() are the sourced starting values; EngineTerms::measured() replaces the ones the validation set
// moves by their fit (core/model/llm/calibration, on the fit part of tests/data/llm/validation.csv).

#include "core/model/number_format.h"

#include <QString>
#include <QStringView>

#include <array>
#include <optional>
#include <vector>

namespace ridgeline {

// The plain roofline's two shares, one for every bandwidth and one for every compute ceiling (the model without engine
// terms, and the baseline the validation compares against). Efficiency::ideal() is the "ideal datasheet".
inline constexpr double kDefaultBandwidthEfficiency = 0.75;
inline constexpr double kDefaultComputeEfficiency = 0.6;

struct Efficiency {
    double bandwidth = kDefaultBandwidthEfficiency;  // share of datasheet bandwidth reached
    double compute = kDefaultComputeEfficiency;      // share of dense peak reached
    static Efficiency ideal() { return {1.0, 1.0}; }
};

using PerFormat = std::array<double, kAllNumberFormats.size()>;  // indexed by formatIndex()

// What the bandwidth shares are shares of: the datasheet figure (the plain roofline, the "ideal datasheet"), or what
// the card sustains in STREAM (GpuSpec::sustainedBandwidthTbs), which separates the memory system from the engine.
enum class BandwidthBasis { Datasheet, Sustained };

struct EngineTerms {
    PerFormat weightBandwidth{};   // by weight storage format: share of datasheet bandwidth streaming weights
    PerFormat kvBandwidth{};       // by KV storage format: share of datasheet bandwidth decode attention reaches
    PerFormat compute{};           // by tensor precision: share of the dense peak GEMMs and attention reach
    double layerSeconds = 0;       // per layer per forward pass: launches, norms, rotary, activations, syncs
    double stepSeconds = 0;        // per forward pass: scheduling, sampling, host round trip
    double collectiveSeconds = 0;  // per tensor-parallel collective: its start-up (launch, NCCL's base latency),
                                   // the one place it is counted; the link's hops and bytes are links.h's
    double sequenceSeconds = 0;    // per decoded sequence per layer: paged attention's per-sequence work, sampling
    double prefillSeconds = 0;     // per prefill pass on top of the step time: request set-up, first-token sampling
    double expertShare = 1;        // routed-expert (grouped) GEMMs compute at this share of the dense GEMMs' rate
    double overlap = 1;            // share of the smaller of a kernel's memory and compute times hidden under the
                                   // larger: 1 is the pure roofline, max(m, c); 0 adds them
    double headReadSeconds = 0;    // per GiB a per-query-head decode attention kernel reads (query heads per KV head
                                   // x KV bytes) from the cache; 0: it costs nothing beyond the KV stream
    BandwidthBasis bandwidthBasis = BandwidthBasis::Datasheet;

    // The plain roofline: one bandwidth share, one compute share, no fixed times (the default: the model
    // without engine terms). Implicit, so that code choosing an Efficiency (the "ideal datasheet" switch) keeps
    // working. The measured terms are asked for by name: EngineTerms::measured().
    EngineTerms(const Efficiency& plain = Efficiency{});  // NOLINT(google-explicit-constructor)

    static EngineTerms priors();    // the sourced starting values (engine_terms.cpp), before any fit
    static EngineTerms measured();  // the priors with the terms fitted on the validation set
    static EngineTerms ideal() { return EngineTerms(Efficiency::ideal()); }

    double weightShare(NumberFormat format) const { return weightBandwidth[formatIndex(format)]; }
    double kvShare(NumberFormat format) const { return kvBandwidth[formatIndex(format)]; }
    double computeShare(NumberFormat precision) const { return compute[formatIndex(precision)]; }
    bool isIdeal() const;
    bool operator==(const EngineTerms&) const = default;
};

// One adjustable term, for fitting and for naming on the command line and in files.
enum class TermKind {
    WeightBandwidth,
    KvBandwidth,
    Compute,
    LayerSeconds,
    StepSeconds,
    CollectiveSeconds,
    SequenceSeconds,
    PrefillSeconds,
    ExpertShare,
    Overlap,
    HeadReadSeconds
};

struct EngineTerm {
    TermKind kind = TermKind::LayerSeconds;
    NumberFormat format = NumberFormat::Bf16;  // for the per-format kinds; ignored by the fixed times
    bool operator==(const EngineTerm& other) const
    {
        return kind == other.kind && (!perFormat() || format == other.format);
    }
    bool perFormat() const
    {
        return kind == TermKind::WeightBandwidth || kind == TermKind::KvBandwidth || kind == TermKind::Compute;
    }
    // A share lies in (0, 1]; the rest are times >= 0 seconds.
    bool isShare() const { return perFormat() || kind == TermKind::ExpertShare || kind == TermKind::Overlap; }
};

double termValue(const EngineTerms& terms, EngineTerm term);
void setTermValue(EngineTerms& terms, EngineTerm term, double value);

// "weight_bandwidth.fp8", "kv_bandwidth.bf16", "compute.fp8", "layer_seconds", "step_seconds",
// "collective_seconds", "sequence_seconds", "prefill_seconds", "expert_share", "overlap", "head_read_seconds": the
// names JSON output, session files and the CLI use.
QString termName(EngineTerm term);
std::optional<EngineTerm> parseTermName(QStringView name);

// Every term there is (the per-format ones only for formats that can hold weights or KV, or compute).
std::vector<EngineTerm> allTerms();

// Whether the validation fit sets the term (else measured() keeps its prior), and where its value comes from.
bool isFittedTerm(EngineTerm term);
QString termSource(EngineTerm term);

// Shares in (0, 1], times finite and in [0, 1 s]: the first term that is not, or nothing.
std::optional<QString> checkTerms(const EngineTerms& terms);

}  // namespace ridgeline
