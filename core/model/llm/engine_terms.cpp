#include "core/model/llm/engine_terms.h"

#include "core/model/units.h"

#include <array>
#include <cmath>
#include <optional>
#include <utility>

namespace ridgeline {

namespace {

constexpr double kMaxFixedSeconds = 1.0;

// Fitted by core/model/llm/calibration on the fit part of tests/data/llm/validation.csv, prior weight 0.1.
constexpr std::array kFittedTerms = {
    std::pair{"weight_bandwidth.fp8", 0.8249},  std::pair{"weight_bandwidth.bf16", 1.000},
    std::pair{"kv_bandwidth.fp8", 1.000},       std::pair{"compute.fp8", 0.5273},
    std::pair{"weight_bandwidth.fp16", 0.9644}, std::pair{"kv_bandwidth.fp16", 1.000},
    std::pair{"compute.fp16", 0.7658},          std::pair{"weight_bandwidth.int4", 1.000},
    std::pair{"compute.bf16", 0.7307},          std::pair{"kv_bandwidth.bf16", 1.000},
    std::pair{"layer_seconds", 5.340e-05},      std::pair{"step_seconds", 9.852e-10},
    std::pair{"sequence_seconds", 3.403e-07},   std::pair{"overlap", 0.05512},
    std::pair{"collective_seconds", 6.016e-06}, std::pair{"prefill_seconds", 1.520e-08},
    std::pair{"expert_share", 0.5258},          std::pair{"head_read_seconds", 0.0001881},
};

PerFormat filled(double value)
{
    PerFormat shares;
    shares.fill(value);
    return shares;
}

void set(PerFormat& shares, NumberFormat format, double value)
{
    shares[formatIndex(format)] = value;
}

const char* kindWord(TermKind kind)
{
    switch (kind) {
        case TermKind::WeightBandwidth:
            return "weight_bandwidth";
        case TermKind::KvBandwidth:
            return "kv_bandwidth";
        case TermKind::Compute:
            return "compute";
        case TermKind::LayerSeconds:
            return "layer_seconds";
        case TermKind::StepSeconds:
            return "step_seconds";
        case TermKind::CollectiveSeconds:
            return "collective_seconds";
        case TermKind::SequenceSeconds:
            return "sequence_seconds";
        case TermKind::PrefillSeconds:
            return "prefill_seconds";
        case TermKind::ExpertShare:
            return "expert_share";
        case TermKind::Overlap:
            return "overlap";
        case TermKind::HeadReadSeconds:
            return "head_read_seconds";
    }
    return "";
}

constexpr std::array kAllKinds = {TermKind::WeightBandwidth, TermKind::KvBandwidth,    TermKind::Compute,
                                  TermKind::LayerSeconds,    TermKind::StepSeconds,    TermKind::CollectiveSeconds,
                                  TermKind::SequenceSeconds, TermKind::PrefillSeconds, TermKind::ExpertShare,
                                  TermKind::Overlap,         TermKind::HeadReadSeconds};

}  // namespace

EngineTerms::EngineTerms(const Efficiency& plain)
    : weightBandwidth(filled(plain.bandwidth)), kvBandwidth(filled(plain.bandwidth)), compute(filled(plain.compute))
{
}

EngineTerms EngineTerms::priors()
{
    // What the sources say before any fit (termSource() names them); the fit starts here and is pulled back here
    // by its prior, so that a term the validation set hardly sees keeps a sourced value.
    EngineTerms t{Efficiency{}};
    // Bandwidth shares are of what the card sustains in STREAM (measured where published, GpuSpec).
    t.bandwidthBasis = BandwidthBasis::Sustained;
    // Decode GEMVs stream weights about as fast as STREAM does; int4 and fp4 kernels dequantise on the way.
    t.weightBandwidth = filled(0.95);
    set(t.weightBandwidth, NumberFormat::Int4, 0.8);
    set(t.weightBandwidth, NumberFormat::Fp4, 0.85);
    set(t.weightBandwidth, NumberFormat::Mxfp4, 0.85);
    // vLLM's FP8 KV-cache post: decode attention on an H100 reads bf16 KV at 3.00 TB/s and fp8 KV at 2.77 TB/s,
    // against the 2.97 TB/s STREAM triad of the same card.
    t.kvBandwidth = filled(1.0);
    set(t.kvBandwidth, NumberFormat::Fp8, 0.93);
    set(t.kvBandwidth, NumberFormat::Int8, 0.8);
    set(t.kvBandwidth, NumberFormat::Int4, 0.7);
    set(t.kvBandwidth, NumberFormat::Fp4, 0.8);
    set(t.kvBandwidth, NumberFormat::Mxfp4, 0.8);
    // vLLM PRs #17126 (H100) and #20071 (B200), GEMMs at M = 256: bf16 47-55 %, fp8 35-48 % of the dense peak.
    t.compute = filled(0.55);
    set(t.compute, NumberFormat::Fp8, 0.45);
    set(t.compute, NumberFormat::Int8, 0.45);
    set(t.compute, NumberFormat::Fp4, 0.35);
    set(t.compute, NumberFormat::Mxfp4, 0.35);
    t.layerSeconds = 50e-6;  // batch-1 decode: 25-75 us per layer beyond the weight stream at TP 1
    t.stepSeconds = 0.0;
    t.collectiveSeconds = 10e-6;  // TP 8 batch-1 steps: 80-125 us per layer, two all-reduces
    t.sequenceSeconds = 1e-6;     // static batch sweeps: about 1 us per sequence per layer
    t.prefillSeconds = 0.0;
    t.expertShare = 1.0;
    t.overlap = 1.0;  // the roofline's own assumption
    // NVIDIA A100 architecture whitepaper: the L2 cache reads 5,120 bytes per clock, 7.2 TB/s at 1,410 MHz.
    t.headReadSeconds = kBytesPerGiB / 7.22e12;
    return t;
}

EngineTerms EngineTerms::measured()
{
    // The priors with the terms the validation set moves replaced by their fit on its fit part (test
    // LlmValidation.DefaultsAreTheFitOnTheFitPart prints this table when the fit changes). Built once: every
    // slider step asks for it, and parsing the table's names each time cost more than the model it feeds.
    static const EngineTerms fitted = [] {
        EngineTerms t = priors();
        for (const auto& [name, value] : kFittedTerms)
            if (const std::optional<EngineTerm> term = parseTermName(QString::fromLatin1(name)))
                setTermValue(t, *term, value);
        return t;
    }();
    return fitted;
}

bool EngineTerms::isIdeal() const
{
    return *this == ideal();
}

double termValue(const EngineTerms& terms, EngineTerm term)
{
    switch (term.kind) {
        case TermKind::WeightBandwidth:
            return terms.weightShare(term.format);
        case TermKind::KvBandwidth:
            return terms.kvShare(term.format);
        case TermKind::Compute:
            return terms.computeShare(term.format);
        case TermKind::LayerSeconds:
            return terms.layerSeconds;
        case TermKind::StepSeconds:
            return terms.stepSeconds;
        case TermKind::CollectiveSeconds:
            return terms.collectiveSeconds;
        case TermKind::SequenceSeconds:
            return terms.sequenceSeconds;
        case TermKind::PrefillSeconds:
            return terms.prefillSeconds;
        case TermKind::ExpertShare:
            return terms.expertShare;
        case TermKind::Overlap:
            return terms.overlap;
        case TermKind::HeadReadSeconds:
            return terms.headReadSeconds;
    }
    return 0.0;
}

void setTermValue(EngineTerms& terms, EngineTerm term, double value)
{
    switch (term.kind) {
        case TermKind::WeightBandwidth:
            set(terms.weightBandwidth, term.format, value);
            return;
        case TermKind::KvBandwidth:
            set(terms.kvBandwidth, term.format, value);
            return;
        case TermKind::Compute:
            set(terms.compute, term.format, value);
            return;
        case TermKind::LayerSeconds:
            terms.layerSeconds = value;
            return;
        case TermKind::StepSeconds:
            terms.stepSeconds = value;
            return;
        case TermKind::CollectiveSeconds:
            terms.collectiveSeconds = value;
            return;
        case TermKind::SequenceSeconds:
            terms.sequenceSeconds = value;
            return;
        case TermKind::PrefillSeconds:
            terms.prefillSeconds = value;
            return;
        case TermKind::ExpertShare:
            terms.expertShare = value;
            return;
        case TermKind::Overlap:
            terms.overlap = value;
            return;
        case TermKind::HeadReadSeconds:
            terms.headReadSeconds = value;
            return;
    }
}

QString termName(EngineTerm term)
{
    const QString kind = QLatin1String(kindWord(term.kind));
    return term.perFormat() ? kind + QLatin1Char('.') + numberFormatName(term.format) : kind;
}

std::optional<EngineTerm> parseTermName(QStringView name)
{
    for (const EngineTerm& term : allTerms())
        if (name.compare(termName(term), Qt::CaseInsensitive) == 0)
            return term;
    return std::nullopt;
}

std::vector<EngineTerm> allTerms()
{
    std::vector<EngineTerm> terms;
    for (TermKind kind : kAllKinds) {
        const EngineTerm probe{kind, NumberFormat::Bf16};
        if (!probe.perFormat()) {
            terms.push_back(probe);
            continue;
        }
        for (NumberFormat format : kAllNumberFormats) {
            const bool storage = kind != TermKind::Compute;
            if (storage ? !isStorageFormat(format) : format == NumberFormat::Mxfp4 || format == NumberFormat::Int4)
                continue;  // tf32 stores nothing; mxfp4 and int4 multiply in another precision
            terms.push_back(EngineTerm{kind, format});
        }
    }
    return terms;
}

namespace {

// Where a term's prior comes from, one clause.
QString priorSource(EngineTerm term)
{
    switch (term.kind) {
        case TermKind::WeightBandwidth:
            return term.format == NumberFormat::Int4 || term.format == NumberFormat::Fp4 ||
                           term.format == NumberFormat::Mxfp4
                       ? QStringLiteral("below the 8- and 16-bit share: the kernels dequantise block scales")
                       : QStringLiteral("decode GEMVs stream weights about as fast as STREAM does");
        case TermKind::KvBandwidth:
            return QStringLiteral(
                "vLLM's FP8 KV-cache post: H100 decode attention reads bf16 KV at 3.00 TB/s and fp8 "
                "KV at 2.77 TB/s, against the card's 2.97 TB/s STREAM triad");
        case TermKind::Compute:
            return QStringLiteral(
                "GEMM benchmarks in vLLM PRs #17126 (H100) and #20071 (B200): 47-55 % (bf16) and "
                "35-48 % (fp8) of the dense peak at M = 256");
        case TermKind::LayerSeconds:
            return QStringLiteral(
                "batch-1 decode steps spend 25-75 us per layer beyond the weight stream (vLLM, "
                "LMDeploy, TensorRT-LLM)");
        case TermKind::StepSeconds:
            return QStringLiteral("none: 0");
        case TermKind::CollectiveSeconds:
            return QStringLiteral("TP 8 batch-1 steps spend 80-125 us per layer, two all-reduces among them");
        case TermKind::SequenceSeconds:
            return QStringLiteral(
                "static batch sweeps (ROCm vLLM, TensorRT-LLM) grow by about 1 us per sequence per "
                "layer beyond the roofline");
        case TermKind::PrefillSeconds:
            return QStringLiteral("none: 0");
        case TermKind::ExpertShare:
            return QStringLiteral("none: 1, as dense GEMMs");
        case TermKind::Overlap:
            return QStringLiteral("the roofline's own assumption, 1: the smaller time hides under the larger");
        case TermKind::HeadReadSeconds:
            return QStringLiteral(
                "NVIDIA's A100 architecture whitepaper: L2 reads of 5,120 bytes per clock, 7.2 TB/s at 1,410 MHz "
                "(149 us per GiB)");
    }
    return QString();
}

}  // namespace

bool isFittedTerm(EngineTerm term)
{
    for (const auto& [name, value] : kFittedTerms)
        if (parseTermName(QString::fromLatin1(name)) == term)
            return true;
    return false;
}

QString termSource(EngineTerm term)
{
    if (isFittedTerm(term))
        return QStringLiteral("fitted on the fit part of tests/data/llm/validation.csv (prior %1: %2)")
            .arg(termValue(EngineTerms::priors(), term))
            .arg(priorSource(term));
    return QStringLiteral("prior, not moved by the validation set: %1").arg(priorSource(term));
}

std::optional<QString> checkTerms(const EngineTerms& terms)
{
    for (const EngineTerm& term : allTerms()) {
        const double v = termValue(terms, term);
        const bool overlap = term.kind == TermKind::Overlap;  // 0 is allowed: the times add
        const bool ok = term.isShare() ? std::isfinite(v) && (overlap ? v >= 0.0 : v > 0.0) && v <= 1.0
                                       : std::isfinite(v) && v >= 0.0 && v <= kMaxFixedSeconds;
        if (!ok)
            return QStringLiteral("%1 must be %2, got %3")
                .arg(termName(term), term.isShare() ? (overlap ? QStringLiteral("a share in [0, 1]")
                                                               : QStringLiteral("a share in (0, 1]"))
                                                    : QStringLiteral("between 0 and 1 s"))
                .arg(v);
    }
    return std::nullopt;
}

}  // namespace ridgeline
