#pragma once
// How much of the CPU time a measurement asked for it got. On a shared machine other processes (or the
// hypervisor) take cores away: a repetition that lost its core reads slow, and when every repetition of a step
// did, even its best one is wrong and relations between figures (L1 above L2, a ceiling under its peak, two
// clock chains agreeing) may not hold. The session then says so, step by step, instead of showing them as facts.

#include "core/session/session.h"

#include <chrono>
#include <optional>
#include <vector>

namespace ridgeline {

// A step that keeps its threads busy and got less than this share of their time was disturbed.
inline constexpr double kDisturbedShare = 0.85;
// The finding's subject, for the table, the window and the tests.
inline const QString kLoadFindingSubject = QStringLiteral("machine load");

// CPU seconds the calling thread has used.
double threadCpuSeconds();

// From construction on: the share of the wall time the calling thread ran. The measuring steps run on it (it
// is runParallel's thread 0), and it waits at each repetition's barrier for the others, so a core taken from
// any of them shows here; threads of the process that do not measure (idle BLAS workers) do not.
class CpuShareTimer {
public:
    CpuShareTimer();
    // 0 .. 1; 1 for a step too short to judge.
    double share() const;

private:
    std::chrono::steady_clock::time_point m_wallStart;
    double m_cpuStart;
};

// Every judged step's share; the finding names the disturbed ones.
class LoadRecord {
public:
    void add(const QString& stage, double share);
    int judged() const { return static_cast<int>(m_steps.size()); }
    // A "doubtful" finding about the machine's load when any judged step got less than kDisturbedShare.
    std::optional<Finding> finding() const;

private:
    struct Step {
        QString stage;
        double share;
    };
    std::vector<Step> m_steps;
};

}  // namespace ridgeline
