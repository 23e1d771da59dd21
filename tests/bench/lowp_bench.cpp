// The CPU's low-precision units measured: every ceiling against its theoretical peak, the bf16
// matmul (oneDNN, and OpenBLAS sbgemm where the library has it) beside fp32 sgemm of the same n, and the decode
// step with fp32, bf16 and int8 weights. Google Benchmark rows, then a summary of medians with the ratios, all
// from one run (this machine is shared and noisy: compare figures within a run, not across runs).
//
//   ridgeline_lowp_bench                     everything
//   ridgeline_lowp_bench --benchmark_filter=ceiling     one group (ceiling, matmul, decode)
//   ridgeline_lowp_bench --fastest           the summary quotes each product's fastest iteration, not the
//                                            median: on a machine busy with other work, the closest to idle
#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/lowp/onednn_matmul.h"
#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"
#include "core/measure/workloads/gemm.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <tuple>
#include <vector>

using namespace ridgeline;

namespace {

const int kAllThreads = static_cast<int>(allowedCpus().size());
bool g_fastest = false;  // --fastest

// The summary's time of one product: the median of the iterations, or with --fastest the fastest.
double typicalSeconds(const std::vector<double>& seconds)
{
    return g_fastest ? *std::min_element(seconds.begin(), seconds.end()) : median(seconds);
}
constexpr int kDecodeDim = 4096;

// What the summary prints, keyed by row.
std::map<std::pair<int, int>, LowpCeiling> g_ceilings;              // (unit, threads)
std::map<std::tuple<QString, int, int>, double> g_matmulGflops;     // (library, n, threads)
std::map<QString, QString> g_matmulImplementation;                  // library -> oneDNN kernel
std::map<std::pair<QString, int>, double> g_decodeTokensPerSecond;  // (weights, batch)
std::map<std::pair<QString, int>, double> g_decodeGflops;

// OpenBLAS's idle workers spin for about 0.1 s after a call (THREAD_TIMEOUT, 2^28 cycles) and oneDNN's OpenMP
// workers briefly too; on two cores a spinning worker of one library halves the other. Switching libraries,
// the run waits until they sleep.
void letIdleWorkersSleep()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

// Runs the benchmark loop, timing each iteration: the summary quotes the median, which one descheduled
// iteration on this shared machine does not move (Google Benchmark's own columns are means).
template <typename Once>
std::vector<double> timeEachIteration(benchmark::State& state, Once once)
{
    std::vector<double> seconds;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        once();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return seconds;
}

std::vector<float> pattern(std::size_t count, double scale)
{
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = static_cast<float>(scale * static_cast<double>((i * 7919) % 1000) / 1000.0 - scale / 2.0);
    return values;
}

void ceiling(benchmark::State& state, LowpUnit unit, int threads)
{
    MeasureControl control(false, {});
    LowpCeiling last;
    for (auto _ : state) {
        const Result<LowpCeiling> measured = measureLowpCeiling(unit, threads, control);
        if (!measured) {
            state.SkipWithError(measured.error().message.toStdString().c_str());
            return;
        }
        last = measured.value();
    }
    const ComputeCeiling& c = last.ceiling;
    state.counters["Gop/s"] = c.gflops;
    state.counters["theoretical"] = c.theoreticalGflops;
    state.counters["of_peak_%"] = c.theoreticalGflops > 0 ? 100.0 * c.gflops / c.theoreticalGflops : 0.0;
    state.counters["GHz"] = c.clockGhz;
    g_ceilings[{static_cast<int>(unit), threads}] = last;
}

// One square product per iteration on `threads` threads.
void matmul(benchmark::State& state, const QString& library, int n, int threads)
{
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    const std::vector<float> a = pattern(elements, 1.0), b = pattern(elements, 0.5);
    std::vector<float> c(elements);
    std::unique_ptr<OneDnnMatmul> product;
    std::vector<std::uint16_t> a16, b16;
    if (library == QLatin1String("sgemm")) {
        openblas_set_num_threads(threads);
    } else if (library == QLatin1String("sbgemm")) {
        if (!openBlasHasSbgemm()) {
            state.SkipWithError("this OpenBLAS has no cblas_sbgemm (Debian's 0.3.21 is built without bf16)");
            return;
        }
        openblas_set_num_threads(threads);
        a16.resize(elements);
        b16.resize(elements);
        for (std::size_t i = 0; i < elements; ++i) {
            a16[i] = bf16FromFloat(a[i]);
            b16[i] = bf16FromFloat(b[i]);
        }
    } else {
        const MatmulType type = library == QLatin1String("onednn-bf16") ? MatmulType::Bf16 : MatmulType::Fp32;
        auto made = OneDnnMatmul::create(type, {n, n, n}, a.data(), b.data(), threads);
        if (!made) {
            state.SkipWithError(made.error().message.toStdString().c_str());
            return;
        }
        product = std::move(made.value());
        g_matmulImplementation[library] = product->implementation();
    }
    auto once = [&] {
        if (product)
            product->run();
        else if (library == QLatin1String("sgemm"))
            gemmFp32(a.data(), b.data(), c.data(), n, 0);
        else
            openBlasSbgemm(a16.data(), b16.data(), c.data(), n);
    };
    letIdleWorkersSleep();
    once();  // warm-up: caches, page faults, the primitive's first run
    const std::vector<double> seconds = timeEachIteration(state, once);
    const double flops = 2.0 * n * static_cast<double>(n) * n;
    state.counters["GFLOP/s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["median_GFLOP/s"] = flops / median(seconds) / 1e9;
    g_matmulGflops[{library, n, threads}] = flops / typicalSeconds(seconds) / 1e9;
}

// One decode step: a batch of activation vectors times a dim x dim weight matrix.
void decode(benchmark::State& state, const QString& weights, int batch)
{
    const auto dim = static_cast<std::size_t>(kDecodeDim);
    const std::vector<float> w = pattern(dim * dim, 0.1), x = pattern(dim * static_cast<std::size_t>(batch), 1.0);
    std::vector<float> y(dim * static_cast<std::size_t>(batch));
    std::unique_ptr<OneDnnMatmul> product;
    if (weights == QLatin1String("fp32 (OpenBLAS)")) {
        openblas_set_num_threads(kAllThreads);
    } else {
        const MatmulType type = weights == QLatin1String("bf16")   ? MatmulType::Bf16
                                : weights == QLatin1String("int8") ? MatmulType::Int8
                                                                   : MatmulType::Fp32;
        // activations (batch x dim) x weights (dim x dim): the weights are oneDNN's "weights", packed once.
        auto made = OneDnnMatmul::create(type, {batch, kDecodeDim, kDecodeDim}, x.data(), w.data(), kAllThreads);
        if (!made) {
            state.SkipWithError(made.error().message.toStdString().c_str());
            return;
        }
        product = std::move(made.value());
    }
    auto once = [&] {
        if (product)
            product->run();
        else
            matrixTimesBatchFp32(w.data(), x.data(), y.data(), kDecodeDim, kDecodeDim, batch);
    };
    letIdleWorkersSleep();
    once();
    const std::vector<double> seconds = timeEachIteration(state, once);
    state.counters["median_tokens/s"] = batch / median(seconds);
    const double step = typicalSeconds(seconds);
    g_decodeTokensPerSecond[{weights, batch}] = batch / step;
    g_decodeGflops[{weights, batch}] = 2.0 * kDecodeDim * static_cast<double>(kDecodeDim) * batch / step / 1e9;
}

QString units(const LowpUnitInfo& info)
{
    return info.integer ? QStringLiteral("GOPS") : QStringLiteral("GFLOP/s");
}

void printCeilings()
{
    if (g_ceilings.empty())
        return;
    std::printf("\n== Low-precision ceilings on %s (oneDNN %s: %s)\n", qPrintable(hostMachine().cpuModel),
                qPrintable(oneDnnVersion()), qPrintable(oneDnnCpuIsa()));
    std::printf("%-12s %7s %12s %12s %7s %7s  %s\n", "unit", "threads", "measured", "theoretical", "of peak", "GHz",
                "rate per core and cycle");
    for (const auto& [key, measured] : g_ceilings) {
        const LowpUnitInfo& info = lowpUnitInfo(measured.unit);
        const ComputeCeiling& c = measured.ceiling;
        const std::optional<LowpRate> rate = documentedLowpRate(measured.unit, hostMachine());
        std::printf("%-12s %7d %8.0f %-7s%8.0f %7.0f%% %7.2f  %s\n", qPrintable(info.label), c.threads, c.gflops,
                    qPrintable(units(info)), c.theoreticalGflops,
                    c.theoreticalGflops > 0 ? 100.0 * c.gflops / c.theoreticalGflops : 0.0, c.clockGhz,
                    qPrintable(QStringLiteral("%1 measured, %2 documented")
                                   .arg(c.flopsPerCycle, 0, 'f', 0)
                                   .arg(rate ? QString::number(rate->instructionsPerCycle.max * info.opsPerInstruction)
                                             : QStringLiteral("nothing"))));
        for (const Finding& finding : measured.findings)
            std::printf("%21s %s: %s\n", "", qPrintable(finding.kind), qPrintable(finding.message));
    }
}

void printMatmuls()
{
    if (g_matmulGflops.empty())
        return;
    for (int threads : {1, kAllThreads}) {
        std::printf("\n== Matrix products, %d thread(s), GFLOP/s of the %s iteration (bf16 kernel: %s)\n", threads,
                    g_fastest ? "fastest" : "median",
                    qPrintable(g_matmulImplementation[QStringLiteral("onednn-bf16")]));
        std::printf("%6s %12s %12s %12s %12s %10s %14s\n", "n", "sgemm", "oneDNN fp32", "oneDNN bf16", "sbgemm",
                    "bf16/sgemm", "bf16 / AMX roof");
        const auto amx = g_ceilings.find({static_cast<int>(LowpUnit::AmxBf16), threads});
        for (int n : {512, 1024, 2048, 4096}) {
            const double sgemm = g_matmulGflops[{QStringLiteral("sgemm"), n, threads}];
            const double bf16 = g_matmulGflops[{QStringLiteral("onednn-bf16"), n, threads}];
            const double sbgemm = g_matmulGflops[{QStringLiteral("sbgemm"), n, threads}];
            std::printf(
                "%6d %12.0f %12.0f %12.0f %12s %9.1fx %13.0f%%\n", n, sgemm,
                g_matmulGflops[{QStringLiteral("onednn-fp32"), n, threads}], bf16,
                sbgemm > 0 ? qPrintable(QString::number(sbgemm, 'f', 0)) : "n/a", sgemm > 0 ? bf16 / sgemm : 0.0,
                amx != g_ceilings.end() && amx->second.ceiling.gflops > 0 ? 100.0 * bf16 / amx->second.ceiling.gflops
                                                                          : 0.0);
        }
        if (kAllThreads == 1)
            break;
    }
}

void printDecode()
{
    if (g_decodeTokensPerSecond.empty())
        return;
    std::printf("\n== Decode, %d x %d weights, %d threads: tokens/s by weight precision (%s iteration)\n", kDecodeDim,
                kDecodeDim, kAllThreads, g_fastest ? "fastest" : "median");
    const QStringList weights = {QStringLiteral("fp32 (OpenBLAS)"), QStringLiteral("fp32"), QStringLiteral("bf16"),
                                 QStringLiteral("int8")};
    std::printf("%6s", "batch");
    for (const QString& w : weights)
        std::printf(" %16s", qPrintable(w));
    std::printf("\n");
    for (int batch = 1; batch <= 256; batch *= 2) {
        std::printf("%6d", batch);
        for (const QString& w : weights)
            std::printf(" %16.0f", g_decodeTokensPerSecond[{w, batch}]);
        std::printf("\n");
    }
    // The measured knee: where the bandwidth line through batch 1 (GFLOP/s grows with the batch) meets the
    // plateau (the best GFLOP/s of any batch).
    std::printf("%6s", "knee");
    for (const QString& w : weights) {
        const double atOne = g_decodeGflops[{w, 1}];
        double best = 0.0;
        for (int batch = 1; batch <= 256; batch *= 2)
            best = std::max(best, g_decodeGflops[{w, batch}]);
        std::printf(" %16.1f", atOne > 0 ? best / atOne : 0.0);
    }
    std::printf("\n%6s", "B=1 x");
    const double fp32AtOne = g_decodeTokensPerSecond[{QStringLiteral("fp32"), 1}];
    for (const QString& w : weights)
        std::printf(" %16.2f", fp32AtOne > 0 ? g_decodeTokensPerSecond[{w, 1}] / fp32AtOne : 0.0);
    std::printf("   (tokens/s at batch 1 over oneDNN fp32)\n");
}

}  // namespace

int main(int argc, char** argv)
{
    for (const LowpUnitInfo& info : lowpUnits()) {
        const UnitAvailability availability = lowpAvailability(info.unit);
        if (!availability.available()) {
            std::printf("%s: %s\n", qPrintable(info.label), qPrintable(availability.reason));
            continue;
        }
        for (int threads : {1, kAllThreads}) {
            const std::string name = "ceiling/" + info.label.toStdString() + "/threads:" + std::to_string(threads);
            benchmark::RegisterBenchmark(name.c_str(), ceiling, info.unit, threads)
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
            if (kAllThreads == 1)
                break;
        }
    }
    for (int threads : {1, kAllThreads}) {
        for (const char* library : {"sgemm", "onednn-fp32", "onednn-bf16", "sbgemm"})
            for (int n : {512, 1024, 2048, 4096}) {
                const std::string name = std::string("matmul/") + library + "/n:" + std::to_string(n) +
                                         "/threads:" + std::to_string(threads);
                benchmark::RegisterBenchmark(name.c_str(), matmul, QString::fromLatin1(library), n, threads)
                    ->Unit(benchmark::kMillisecond)
                    ->MinTime(n >= 2048 ? 1.0 : 0.3);
            }
        if (kAllThreads == 1)
            break;
    }
    for (const char* weights : {"fp32 (OpenBLAS)", "fp32", "bf16", "int8"})
        for (int batch = 1; batch <= 256; batch *= 2) {
            const std::string name = std::string("decode/") + weights + "/batch:" + std::to_string(batch);
            benchmark::RegisterBenchmark(name.c_str(), decode, QString::fromLatin1(weights), batch)
                ->Unit(benchmark::kMicrosecond)
                ->MinTime(0.2);
        }
    const auto fastest = std::find(argv + 1, argv + argc, std::string("--fastest"));
    if (fastest != argv + argc) {
        g_fastest = true;
        std::rotate(fastest, fastest + 1, argv + argc);
        --argc;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    printCeilings();
    printMatmuls();
    printDecode();
    benchmark::Shutdown();
    return 0;
}
