#include "core/model/engine_terms.h"

#include <cmath>

namespace ridgeline {

namespace {

constexpr double kMaxFixedSeconds = 1.0;

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
    }
    return "";
}

constexpr std::array kAllKinds = {TermKind::WeightBandwidth, TermKind::KvBandwidth, TermKind::Compute,
                                  TermKind::LayerSeconds,    TermKind::StepSeconds, TermKind::CollectiveSeconds};

}  // namespace

EngineTerms::EngineTerms(const Efficiency& plain)
    : weightBandwidth(filled(plain.bandwidth)), kvBandwidth(filled(plain.bandwidth)), compute(filled(plain.compute))
{
}

EngineTerms EngineTerms::measured()
{
    // Fitted on the fit part of tests/data/llm/validation.csv (test LlmValidation.DefaultsAreTheFit); the formats
    // the validation set does not exercise keep the priors named in termSource().
    EngineTerms t{Efficiency{}};
    t.weightBandwidth = filled(0.85);
    set(t.weightBandwidth, NumberFormat::Int4, 0.6);
    set(t.weightBandwidth, NumberFormat::Fp4, 0.75);
    set(t.weightBandwidth, NumberFormat::Mxfp4, 0.75);
    t.kvBandwidth = filled(0.9);
    set(t.kvBandwidth, NumberFormat::Fp8, 0.82);
    set(t.kvBandwidth, NumberFormat::Int8, 0.7);
    set(t.kvBandwidth, NumberFormat::Int4, 0.6);
    set(t.kvBandwidth, NumberFormat::Fp4, 0.7);
    set(t.kvBandwidth, NumberFormat::Mxfp4, 0.7);
    t.compute = filled(0.6);
    set(t.compute, NumberFormat::Fp8, 0.45);
    set(t.compute, NumberFormat::Int8, 0.45);
    set(t.compute, NumberFormat::Fp4, 0.35);
    set(t.compute, NumberFormat::Mxfp4, 0.35);
    t.layerSeconds = 50e-6;
    t.stepSeconds = 0.0;
    t.collectiveSeconds = 0.0;
    return t;
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

QString termSource(EngineTerm term)
{
    // Kept short: the full account, with the figures, is in tests/data/README.md ("LLM validation set").
    const QString fitted = QStringLiteral("fitted on the fit part of tests/data/llm/validation.csv");
    switch (term.kind) {
        case TermKind::WeightBandwidth:
            switch (term.format) {
                case NumberFormat::Int4:
                    return QStringLiteral(
                        "prior: LMDeploy AWQ w4a16 on an RTX 4090, 206 tok/s for Llama 2 7B at "
                        "batch 1 (InternLM/lmdeploy docs/en/quantization/w4a16.md)");
                case NumberFormat::Fp4:
                case NumberFormat::Mxfp4:
                    return QStringLiteral(
                        "prior: the fp8 share less the block-scale reads; no clean FP4 decode "
                        "measurement in the validation set");
                default:
                    return fitted;
            }
        case TermKind::KvBandwidth:
            switch (term.format) {
                case NumberFormat::Bf16:
                case NumberFormat::Fp16:
                case NumberFormat::Fp8:
                    return fitted + QStringLiteral(
                                        "; vLLM's FP8 KV-cache post measures 89.5 % (bf16) and 82.5 % "
                                        "(fp8) on H100");
                default:
                    return QStringLiteral("prior: below fp8 (dequantising kernels); not in the validation set");
            }
        case TermKind::Compute:
            switch (term.format) {
                case NumberFormat::Bf16:
                case NumberFormat::Fp16:
                case NumberFormat::Fp8:
                    return fitted + QStringLiteral(
                                        "; GEMM benchmarks in vLLM PRs #17126 and #20071 reach 47-55 % "
                                        "(bf16) and 35-48 % (fp8) of dense peak at M = 256");
                case NumberFormat::Fp4:
                    return QStringLiteral("prior: below fp8, as fp8 is below bf16 (vLLM PR #20071 on B200)");
                default:
                    return QStringLiteral("prior: as the nearest fitted precision");
            }
        case TermKind::LayerSeconds:
            return fitted + QStringLiteral(
                                "; batch-1 decode steps spend 25-75 us per layer beyond the weight "
                                "stream (vLLM, LMDeploy, ROCm vLLM, TensorRT-LLM)");
        case TermKind::StepSeconds:
            return fitted;
        case TermKind::CollectiveSeconds:
            return fitted + QStringLiteral("; tensor-parallel batch-1 steps spend 80-125 us per layer at TP 8");
    }
    return fitted;
}

std::optional<QString> checkTerms(const EngineTerms& terms)
{
    for (const EngineTerm& term : allTerms()) {
        const double v = termValue(terms, term);
        if (term.isShare() ? !(std::isfinite(v) && v > 0.0 && v <= 1.0)
                           : !(std::isfinite(v) && v >= 0.0 && v <= kMaxFixedSeconds))
            return QStringLiteral("%1 must be %2, got %3")
                .arg(termName(term),
                     term.isShare() ? QStringLiteral("a share in (0, 1]") : QStringLiteral("between 0 and 1 s"))
                .arg(v);
    }
    return std::nullopt;
}

}  // namespace ridgeline
