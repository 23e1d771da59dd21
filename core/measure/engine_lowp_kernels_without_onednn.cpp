// The low-precision kernels where Ridgeline links no oneDNN (ARM64): the bf16 matrix product, decode by weight
// precision and the training step in bf16 mixed precision are not run, and the session says so; the low-precision
// ceilings are measured all the same (lowp_ceilings.h). engine_lowp_kernels.cpp is the oneDNN side.
#include "core/measure/engine_run.h"

#include <set>

namespace ridgeline::engine_detail {

int Run::lowpKernelSteps(const ExperimentSizes& /*sizes*/) const
{
    return 0;
}

void Run::planLowpReserves(const ExperimentSizes& /*sizes*/, const KernelBudgets& /*budgets*/) {}

bool Run::measureLowpKernels(const ExperimentSizes& /*sizes*/)
{
    std::set<QString> precisions;
    for (LowpUnit unit : m_lowp.units)
        precisions.insert(lowpUnitInfo(unit).precision);
    if (precisions.empty())  // never silently, as on x86-64
        m_session.skipped.push_back(
            {QStringLiteral("decode by weight precision"),
             QStringLiteral("not run: this CPU has no bf16 or int8 unit to compare fp32 weights with")});
    const QString reason = QStringLiteral(
        "runs through oneDNN, which this build does not link (Ridgeline links oneDNN on x86-64 only); the %1 "
        "ceilings are measured without it");
    if (precisions.count(QStringLiteral("bf16")) > 0)
        m_session.skipped.push_back({QStringLiteral("bf16 gemm"), reason.arg(QStringLiteral("bf16"))});
    for (const QString& precision : {QStringLiteral("bf16"), QStringLiteral("int8")})
        if (precisions.count(precision) > 0)
            m_session.skipped.push_back(
                {QStringLiteral("decode with %1 weights").arg(precision), reason.arg(precision)});
    return true;
}

bool Run::measureTrainingBf16(const MlpShape& /*shape*/, double /*seconds*/, double /*left*/)
{
    m_session.skipped.push_back(
        {QStringLiteral("training step, bf16 mixed precision"),
         QStringLiteral("not run: its bf16 products run through oneDNN, which this build does not link (Ridgeline "
                        "links oneDNN on x86-64 only)")});
    return true;
}

}  // namespace ridgeline::engine_detail
