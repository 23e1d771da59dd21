// The measurement runner: progress arrives, partial results are coalesced, cancel stops the worker.

#include "ui/runner/measure_runner.h"
#include "tests/ui_models/test_session.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(UiMeasureRunner, CancelMakesTheProgressCallbackReturnFalseAndReportsCancelled)
{
    std::atomic<bool> sawFalse{false};
    MeasureRunner runner([&sawFalse](const MeasureOptions&, const ProgressCallback& progress,
                                     const PartialResultCallback&) -> Result<Session> {
        for (int i = 0;; ++i) {
            if (!progress({i % 10, 10, QStringLiteral("spinning")})) {
                sawFalse = true;
                return makeError(Error::Code::Cancelled, QStringLiteral("cancelled"));
            }
            std::this_thread::yield();
        }
    });
    QSignalSpy progress(&runner, &MeasureRunner::progressChanged);
    QSignalSpy cancelled(&runner, &MeasureRunner::cancelled);
    QSignalSpy finished(&runner, &MeasureRunner::finished);
    ASSERT_TRUE(runner.start({}));
    EXPECT_FALSE(runner.start({}));  // one run at a time
    ASSERT_TRUE(progress.wait());
    runner.cancel();
    ASSERT_TRUE(cancelled.wait());
    EXPECT_TRUE(sawFalse.load());
    EXPECT_EQ(finished.count(), 0);
    EXPECT_FALSE(runner.isRunning());
}

TEST(UiMeasureRunner, ManyPartialResultsArriveCoalescedAndTheLastRunWins)
{
    MeasureRunner runner([](const MeasureOptions&, const ProgressCallback& progress,
                            const PartialResultCallback& partial) -> Result<Session> {
        Session s = fixtures::zen4Session();
        for (int i = 0; i < 2000; ++i) {
            s.wallSeconds = i;
            partial(s);
            progress({i, 2000, QStringLiteral("partial")});
        }
        return s;
    });
    QSignalSpy partials(&runner, &MeasureRunner::partialResult);
    QSignalSpy finished(&runner, &MeasureRunner::finished);
    ASSERT_TRUE(runner.start({}));
    ASSERT_TRUE(finished.wait());
    EXPECT_LT(partials.count(), 2000);  // coalesced, not one repaint per callback
    EXPECT_EQ(finished.first().first().value<Session>().kernels.size(), 16u);
}

TEST(UiMeasureRunner, AnEngineErrorIsReportedAsFailed)
{
    MeasureRunner runner(
        [](const MeasureOptions&, const ProgressCallback&, const PartialResultCallback&) -> Result<Session> {
            return makeError(Error::Code::Io, QStringLiteral("no sysfs"));
        });
    QSignalSpy failed(&runner, &MeasureRunner::failed);
    ASSERT_TRUE(runner.start({}));
    ASSERT_TRUE(failed.wait());
    EXPECT_EQ(failed.first().first().toString(), QStringLiteral("no sysfs"));
}

TEST(UiMeasureRunner, DestroyingARunningRunnerCancelsAndWaits)
{
    std::atomic<bool> stopped{false};
    {
        MeasureRunner runner([&stopped](const MeasureOptions&, const ProgressCallback& progress,
                                        const PartialResultCallback&) -> Result<Session> {
            while (progress({0, 1, QString()}))
                std::this_thread::yield();
            stopped = true;
            return makeError(Error::Code::Cancelled, QStringLiteral("cancelled"));
        });
        QSignalSpy spy(&runner, &MeasureRunner::progressChanged);
        ASSERT_TRUE(runner.start({}));
        ASSERT_TRUE(spy.wait());  // the engine is running
    }
    EXPECT_TRUE(stopped.load());
}
