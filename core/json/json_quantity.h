#pragma once
// The quantities of other programs' results (serving benchmarks, llama-bench): each with its unit and a bound past
// which a value is a corrupt or hostile file, not a benchmark. NaN, Infinity and negative values are refused here;
// the reader of such files (strict_reader.h, Located mode) reads NaN as "no value" before it gets here.

#include "core/result.h"

#include <QString>

namespace ridgeline {

enum class Quantity {
    Seconds,
    Milliseconds,  // read in ms, returned in seconds
    Nanoseconds,   // read in ns, returned in seconds
    TokensPerSecond,
    RequestsPerSecond,
    Tokens,  // a count or a mean of tokens (fractions allowed)
    Ratio,   // a plain non-negative number (random_range_ratio, accept length)
};

// A finite number within the quantity's bound, converted to the base unit; or why not ("is negative").
Result<double> checkQuantity(double value, Quantity quantity);
QString quantityName(Quantity quantity);  // "milliseconds", "tokens per second", ...

}  // namespace ridgeline
