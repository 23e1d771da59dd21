#pragma once
// The operators of one forward pass (a decode step, a prefill, a serving step) as the LLM model prices them: each
// GEMM group, attention over the KV cache, the tensor-parallel all-reduces and the engine's fixed times, with the
// FLOPs, bytes and seconds the model already computed for it. Their seconds add up to the step's seconds, so the
// list shows where the step goes and which operator binds. A GEMM group the model prices as one roofline (the
// attention projections: QKV and output together; the LM head with the embedding gather) is one operator.

#include <QString>

#include <vector>

namespace ridgeline {

struct EngineTerms;

// What an operator's time waits on: the memory stream or the tensor cores (a kernel), the link (an all-reduce) or
// nothing the roofline sees (a fixed engine time).
enum class OperatorBound { Memory, Compute, Link, Fixed };

// "memory", "compute", "link", "fixed".
QString operatorBoundName(OperatorBound bound);

struct StepOperator {
    QString name;      // in plain words: "MLP", "attention over the KV cache", "all-reduce", ...
    double flops = 0;  // per GPU
    double bytes = 0;  // per GPU: memory read and written; an all-reduce: the activations it reduces
    double seconds = 0;
    OperatorBound bound = OperatorBound::Fixed;
    // A kernel's effective ridge, FLOP/byte: the peak of the precision it multiplies in over the bandwidth of the
    // format it reads, both at the engine's shares; 0 for what is not a kernel.
    double ridge = 0;
    double intensity() const { return bytes > 0 && flops > 0 ? flops / bytes : 0.0; }
};

using StepOperators = std::vector<StepOperator>;

// The engine's fixed times of a pass of `layers` layers (`wholePass`: the target model, which pays the per-pass
// time), with `collectivesPerLayer` tensor-parallel all-reduces a layer (0 without tensor parallelism), decoding
// `sequences` sequences: one operator for each that takes time. Returns their sum, the pass's overhead seconds.
double addEngineTimes(StepOperators& into, const EngineTerms& terms, double layers, bool wholePass,
                      int collectivesPerLayer, double sequences);
// Appends `from` scaled by `times` (a pass run several times in the step), each name prefixed with `prefix`.
void appendOperators(StepOperators& into, const StepOperators& from, double times, const QString& prefix);
double operatorsSeconds(const StepOperators& operators);
// The operator with the largest time, or nullptr for an empty list.
const StepOperator* bindingOperator(const StepOperators& operators);

}  // namespace ridgeline
