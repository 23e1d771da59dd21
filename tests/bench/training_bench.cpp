// The training step's three ways at a full run's and a quick run's size, outside the run's time limits: what
// `ridgeline measure` prints under "training step", for a machine too busy to fit it into a run.
// Usage: ridgeline_training_bench [THREADS]
#include "core/measure/workloads/training_experiment.h"
#include "core/session/measure_report.h"

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
