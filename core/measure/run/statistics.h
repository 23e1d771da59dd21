#pragma once
// Median and spread of repeated measurements.

#include "core/session/session.h"

#include <vector>

namespace ridgeline {

double median(std::vector<double> values);

// Spread of a rate derived from times: rate = work / seconds, so the fastest run gives the max rate.
Spread rateSpread(const std::vector<double>& seconds, double work);
Spread spreadOf(const std::vector<double>& values);

// Relative spread (max - min) / median, for flagging noisy measurements.
double relativeSpread(const Spread& spread);

}  // namespace ridgeline
