#pragma once
// What a finished measurement should not be trusted for, gathered into one message that offers a rerun:
// kernels above their roofs, fp32 no faster than fp64 at one vector width, repetitions that spread widely, and a
// busy machine (steps that lost their CPU, or a high load average when the run started). The rules live where
// the measurement makes them (core/measure/compute/peaks.h crossCheckSession, core/measure/run/load.h); this only sorts
// their findings for people.

#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ridgeline::ui {

// A one-minute load average at or above this share of the CPUs means other work competed with the run.
inline constexpr double kBusyLoadPerCpu = 0.5;

enum class RunWarningKind { AboveRoof, PrecisionRatio, LevelsOutOfOrder, WideSpread, BusyMachine };

struct RunWarning {
    RunWarningKind kind;
    QString text;  // one sentence with the figures, naming what it is about
};

struct RunContext {
    std::optional<double> loadAverageAtStart;  // /proc/loadavg when the run started; nullopt: unknown
    int cpus = 0;                              // CPUs the load is compared with (0: the session's)
};

// Every warning about `session`, in the order above; empty when nothing speaks against the run.
std::vector<RunWarning> runWarnings(const Session& session, const RunContext& context = {});

// The one message: a title-like first line and one bullet per kind (at most three examples of each, then "and
// N more"), ending with the advice. Plain text with "• " bullets.
QString runWarningsMessage(const std::vector<RunWarning>& warnings);

}  // namespace ridgeline::ui
