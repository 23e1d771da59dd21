#pragma once
// Where a step's time goes, as text: the five parts of a StepBreakdown in one order, each with its time
// and its share of the step. `ridgeline model` prints the line and the batching tab labels its bar with the same
// words and numbers, so the two can be held against each other.

#include "core/model/llm/llm_model.h"

#include <QString>

#include <array>

namespace ridgeline {

enum class BreakdownPart { Weights, Kv, Compute, Communication, Overhead };

inline constexpr std::array kBreakdownParts = {BreakdownPart::Weights, BreakdownPart::Kv, BreakdownPart::Compute,
                                               BreakdownPart::Communication, BreakdownPart::Overhead};

// "weights", "KV", "compute", "communication", "overhead".
QString breakdownPartName(BreakdownPart part);
// The key `ridgeline model --json` prints the part under, in "breakdown": "weights_s", "kv_s", ...
QString breakdownPartKey(BreakdownPart part);
double breakdownSeconds(const StepBreakdown& breakdown, BreakdownPart part);
// The part's time and share of the whole step: "4.12 ms (61 %)"; the share rounded to a whole percent.
QString breakdownShareText(const StepBreakdown& breakdown, BreakdownPart part);
// Every part that took time, in order: "weights 4.12 ms (61 %), KV 0.80 ms (12 %), ...".
QString breakdownText(const StepBreakdown& breakdown);

}  // namespace ridgeline
