#pragma once
// Shared state of one measurement run: progress reporting, cancellation and the time budget per step.
// The measuring pieces include this, never engine.h.

#include <QString>

#include <functional>

namespace ridgeline {

struct MeasureProgress {
    int done = 0;   // steps finished
    int total = 0;  // steps in this run (may shrink once, when the bandwidth sweep finds DRAM early)
    QString stage;  // what is being measured now, e.g. "sgemm 4096"
};

// Called often (between repetitions); return false to cancel. Called on the measuring thread.
using ProgressCallback = std::function<bool(const MeasureProgress&)>;

class MeasureControl {
public:
    MeasureControl(bool quick, ProgressCallback progress) : m_quick(quick), m_progress(std::move(progress)) {}

    bool quick() const { return m_quick; }
    // Seconds one timed repetition should last, and how many repetitions to keep.
    double repSeconds() const { return m_quick ? 0.005 : 0.020; }
    int reps() const { return m_quick ? 3 : 5; }

    void setTotal(int total) { m_state.total = total; }
    int done() const { return m_state.done; }
    int total() const { return m_state.total; }
    void beginStep(const QString& stage)
    {
        m_state.stage = stage;
        keepGoing();
    }
    void endStep() { ++m_state.done; }

    // Reports progress; false once the user has asked to stop. Cheap enough to call between repetitions.
    bool keepGoing()
    {
        if (!m_cancelled && m_progress && !m_progress(m_state))
            m_cancelled = true;
        return !m_cancelled;
    }
    bool cancelled() const { return m_cancelled; }

private:
    bool m_quick = false;
    ProgressCallback m_progress;
    MeasureProgress m_state;
    bool m_cancelled = false;
};

}  // namespace ridgeline
