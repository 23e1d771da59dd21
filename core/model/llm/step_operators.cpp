#include "core/model/llm/step_operators.h"

#include "core/model/llm/engine_terms.h"

namespace ridgeline {

QString operatorBoundName(OperatorBound bound)
{
    switch (bound) {
        case OperatorBound::Memory:
            return QStringLiteral("memory");
        case OperatorBound::Compute:
            return QStringLiteral("compute");
        case OperatorBound::Link:
            return QStringLiteral("link");
        case OperatorBound::Fixed:
            break;
    }
    return QStringLiteral("fixed");
}

double addEngineTimes(StepOperators& into, const EngineTerms& terms, double layers, bool wholePass,
                      int collectivesPerLayer, double sequences)
{
    double total = 0;
    auto add = [&](const QString& name, double seconds) {
        total += seconds;
        if (seconds > 0)
            into.push_back(StepOperator{name, 0, 0, seconds, OperatorBound::Fixed, 0});
    };
    add(QStringLiteral("per-layer engine time"), layers * terms.layerSeconds);
    add(QStringLiteral("scheduling and sampling"), wholePass ? terms.stepSeconds : 0.0);
    add(QStringLiteral("collective launches"), collectivesPerLayer * layers * terms.collectiveSeconds);
    add(QStringLiteral("per-sequence engine time"), sequences * layers * terms.sequenceSeconds);
    return total;
}

void appendOperators(StepOperators& into, const StepOperators& from, double times, const QString& prefix)
{
    for (StepOperator op : from) {
        op.name = prefix + op.name;
        op.flops *= times;
        op.bytes *= times;
        op.seconds *= times;
        into.push_back(op);
    }
}

double operatorsSeconds(const StepOperators& operators)
{
    double sum = 0;
    for (const StepOperator& op : operators)
        sum += op.seconds;
    return sum;
}

const StepOperator* bindingOperator(const StepOperators& operators)
{
    const StepOperator* largest = nullptr;
    for (const StepOperator& op : operators)
        if (!largest || op.seconds > largest->seconds)
            largest = &op;
    return largest;
}

}  // namespace ridgeline
