#pragma once
// Two sessions side by side, for `ridgeline compare` and the window's before/after view: per ceiling and per
// kernel the change, each side's spread, and whether the change moved beyond both a threshold and the noise.
//
// Figures compared (higher is better for all): a compute ceiling's GFLOP/s and a bandwidth ceiling's GB/s
// (the best repetition, as the session stores them), a kernel's GFLOP/s at its median time. The noise of one
// side is its spread as Session::kNoisySpread measures it, (max - min) / median over the repetitions; a
// row's noise is the larger of its two sides'. A row is a regression (or an improvement) only when the change
// is at least the threshold AND larger than that noise; otherwise it is unchanged or within noise.

#include "core/session/session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace ridgeline {

inline constexpr double kDefaultCompareThresholdPercent = 5.0;

enum class ComparisonSection { Compute, Bandwidth, Kernel };
enum class ComparisonVerdict { Unchanged, WithinNoise, Improvement, Regression, OnlyInBaseline, OnlyInNew };

struct ComparedSide {
    QString name;  // the ceiling's or kernel's name in this session
    double value = 0.0;
    Spread spread;  // same unit as value; all zero when the file recorded no spread
    std::optional<double> noisePercent() const;
};

struct ComparisonRow {
    ComparisonSection section = ComparisonSection::Compute;
    QString key;   // what is matched: "fp32 avx512 all threads", "DRAM read", "sgemm 4096"
    QString unit;  // "GFLOP/s" or "GB/s"
    std::optional<ComparedSide> baseline;
    std::optional<ComparedSide> candidate;
    double changePercent = 0.0;          // (new - baseline) / baseline x 100; 0 when a side is missing
    std::optional<double> noisePercent;  // nullopt: neither side recorded a spread (the threshold alone decides)
    ComparisonVerdict verdict = ComparisonVerdict::Unchanged;
};

struct SessionComparison {
    double thresholdPercent = kDefaultCompareThresholdPercent;
    std::vector<ComparisonRow> rows;  // compute, bandwidth, kernels; each in the baseline's order, new-only last
    QStringList notes;  // what a reader must know: different machines, a quick or cancelled run, noisy ceilings
    int count(ComparisonVerdict verdict) const;
    bool hasRegression() const { return count(ComparisonVerdict::Regression) > 0; }
};

// One ceiling's or kernel's figure, under the key that finds its counterpart in the other session.
struct ComparedEntry {
    QString key;
    ComparedSide side;
};

// All a comparison reads of one session: its figures and what the notes say about its run. Taken as soon as a
// session is loaded, it lets the caller drop the session's kernels, so that two sessions of a million kernels are
// never held whole at once (a figure is about a fifth of a kernel's memory).
struct ComparedSession {
    std::vector<ComparedEntry> compute;
    std::vector<ComparedEntry> bandwidth;
    std::vector<ComparedEntry> kernels;
    QString cpuModel;
    int cores = 0;
    QString openblasCore;
    bool quick = false;
    bool complete = true;
    QStringList noisyMeasurements;
};
ComparedSession comparedSession(const Session& session);

// thresholdPercent must be finite and >= 0 (the caller checks what the user typed).
SessionComparison compareSessions(const ComparedSession& baseline, const ComparedSession& candidate,
                                  double thresholdPercent);
SessionComparison compareSessions(const Session& baseline, const Session& candidate, double thresholdPercent);

// "regression", "improvement", "within noise", "unchanged", "only in baseline", "only in new".
QString verdictName(ComparisonVerdict verdict);
// "compute", "bandwidth", "kernel".
QString sectionName(ComparisonSection section);

// The comparison as JSON (`ridgeline compare --json`); the schema is described in the README.
QJsonObject comparisonToJson(const SessionComparison& comparison);
// The same document as text, with `extra`'s members added, handed to `write` a row at a time: a comparison of
// half a million kernels is never one JSON document in memory. The rows come last.
void writeComparisonJson(const SessionComparison& comparison, const QJsonObject& extra,
                         const std::function<void(const QByteArray&)>& write);

}  // namespace ridgeline
