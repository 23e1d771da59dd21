// GEMM as users call it: the engine's cancellable sgemm/dgemm against one plain cblas call of the
// same size, in the same process, interleaved round by round so that both see the same machine.
//
//   ridgeline_gemm_bench [rounds]     (default 3 rounds; sizes 512, 1024, 2048, 4096)
//
// Prints per precision and size: the plain call's median GFLOP/s, the engine's (measureGemm, as a full
// measurement runs it), their ratio, and the longest single OpenBLAS call of the engine's cut (cancel waits
// for one call at most). The target is a ratio of at least 0.95 at every size.

#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/parallel.h"
#include "core/measure/workloads/gemm.h"
#include "core/measure/workloads/kernels.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace ridgeline;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename T>
double plainCallSeconds(const T* a, const T* b, T* c, int n)
{
    const auto start = Clock::now();
    if constexpr (sizeof(T) == 4)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    else
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    return std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename T>
void compare(Precision precision, int n, int threads, int rounds)
{
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    AlignedBuffer<T> a(elements), b(elements), c(elements);
    for (std::size_t i = 0; i < elements; ++i) {
        a[i] = static_cast<T>((i * 7919) % 1000) / T(1000) - T(0.5);
        b[i] = a[i];
        c[i] = T(0);
    }
    openblas_set_num_threads(threads);
    const double flops = 2.0 * n * static_cast<double>(n) * n;
    plainCallSeconds(a.data(), b.data(), c.data(), n);  // warm-up
    std::vector<double> plain, engine;
    double longestCall = 0.0;
    for (int round = 0; round < rounds; ++round) {
        std::vector<double> seconds;
        const double minSeconds = 0.3;
        double spent = 0.0;
        while (seconds.size() < 3 || spent < minSeconds) {
            seconds.push_back(plainCallSeconds(a.data(), b.data(), c.data(), n));
            spent += seconds.back();
        }
        plain.push_back(flops / median(seconds) / 1e9);

        MeasureControl control(false, [](const MeasureProgress&) { return true; });
        const auto kernel = measureGemm(precision, n, threads, plain.back(), control);
        engine.push_back(kernel ? kernel->gflops : 0.0);
        // The cut the engine chose, timed call by call.
        const int parts = gemmParts(n, engine.back(), kMaxSecondsPerBlasCall);
        auto lastCall = Clock::now();
        auto timeCall = [&] {
            const auto now = Clock::now();
            longestCall = std::max(longestCall, std::chrono::duration<double>(now - lastCall).count());
            lastCall = now;
            return true;
        };
        if constexpr (sizeof(T) == 4)
            gemmFp32(a.data(), b.data(), c.data(), n, parts, timeCall);
        else
            gemmFp64(a.data(), b.data(), c.data(), n, parts, timeCall);
        timeCall();
    }
    const double p = median(plain);
    const double e = median(engine);
    std::printf("%-5s %5d  plain %8.1f GFLOP/s  ridgeline %8.1f GFLOP/s  ratio %.3f  (%d calls, longest %.0f ms)\n",
                precision == Precision::Fp32 ? "sgemm" : "dgemm", n, p, e, e / p,
                gemmParts(n, e, kMaxSecondsPerBlasCall), 1e3 * longestCall);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const int threads = static_cast<int>(allowedCpus().size());
    std::printf("OpenBLAS %s, kernel %s, %d threads, %d rounds (median of rounds)\n", openblas_get_config(),
                openblas_get_corename(), threads, rounds);
    for (int n : {512, 1024, 2048, 4096})
        compare<float>(Precision::Fp32, n, threads, rounds);
    for (int n : {512, 1024, 2048, 4096})
        compare<double>(Precision::Fp64, n, threads, rounds);
    return 0;
}
