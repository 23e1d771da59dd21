// The training step's three ways at a full run's and a quick run's size, outside the run's time limits, and on x86-64
// the bf16 mixed-precision step beside them: what `ridgeline measure` prints under "training step", for a machine too
// busy to fit it into a run.
// Usage: ridgeline_training_bench [THREADS]
#include "core/measure/workloads/training_experiment.h"
#include "core/session/measure_report.h"
#if defined(__x86_64__)
#include "core/measure/lowp/training_bf16.h"
#endif

#include <cblas.h>

#include <QTextStream>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    using namespace ridgeline;
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    if (threads < 1) {
        std::fprintf(stderr, "THREADS must be a whole number of at least 1\n");
        return 2;
    }
    QTextStream out(stdout);
    for (const bool quick : {false, true}) {
        MeasureControl control(quick, {});
        const auto measured = measureTraining(trainingShape(quick), kTrainingMicroBatches, threads, control);
        if (!measured) {
            std::fprintf(stderr, "cancelled\n");
            return 1;
        }
        Session session;
        session.quick = quick;
        session.training = measured->summary;
        session.kernels = measured->kernels;
#if defined(__x86_64__)
        // Where the CPU has no bf16 unit oneDNN emulates one: the figures then say nothing of this machine.
        const Result<Bf16TrainingMeasurement> bf16 = measureTrainingBf16(trainingShape(quick), threads, control);
        if (bf16.ok()) {
            session.training.bf16Seconds = bf16.value().kernel.seconds;
            session.training.bf16Fp32Seconds = bf16.value().fp32Seconds;
            session.training.bf16Flops = bf16.value().kernel.flops;
            session.training.bf16PeakBytes = bf16.value().peakBytes;
            session.training.bf16GradientDifference = bf16.value().gradientDifference;
            session.training.bf16Products = bf16.value().products;
            session.kernels.push_back(bf16.value().kernel);
        } else {
            out << "bf16 mixed precision not run: " << bf16.error().message << '\n';
        }
#endif
        out << "OpenBLAS core: " << openblas_get_corename() << '\n';
        const QString report = measureReportText(session);
        // The training section only: the rest of the report is empty for this session.
        out << (quick ? "quick" : "full") << " run's size, " << threads << " threads\n"
            << report.section(QStringLiteral("training step:"), 1)
                   .prepend(QStringLiteral("training step:"))
                   .section(QStringLiteral("wall time"), 0, 0);
        out.flush();
    }
    return 0;
}
