#include "core/session/mixed_precision.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

const KernelResult* sgemmBeside(const Session& session, const KernelResult& bf16)
{
    const auto found = std::find_if(session.kernels.begin(), session.kernels.end(), [&](const KernelResult& k) {
        return k.kind == QLatin1String("sgemm") && k.size == bf16.size && k.threads == bf16.threads &&
               std::isfinite(k.gflops) && k.gflops > 0.0;
    });
    return found == session.kernels.end() ? nullptr : &*found;
}

std::vector<MixedPrecisionPair> mixedPrecisionPairs(const Session& session)
{
    std::vector<MixedPrecisionPair> pairs;
    for (const KernelResult& k : session.kernels) {
        if (k.kind != QLatin1String("bf16-gemm") || !std::isfinite(k.gflops) || !(k.gflops > 0.0))
            continue;
        if (const KernelResult* sgemm = sgemmBeside(session, k))
            pairs.push_back({&k, sgemm});
    }
    return pairs;
}

}  // namespace ridgeline
