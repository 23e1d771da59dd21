#pragma once
// Cost and energy per token: a price per GPU-hour and a power per GPU over the tokens each GPU makes. Qt Core only.
//
// The rule (the same in the CLI, the README and the tests):
// - Output: every GPU-second is charged to the output tokens, price / 3600 / (output tokens/s per GPU) x 1e6 per
//   million, as serving benchmarks quote cost per million tokens (the GPU's cost over what it generates).
// - Input: the prefill's share of the GPU time (prefillTimeShare, core/model/serving/serving_latency.h) over the input
//   tokens, price / 3600 x share / (input tokens/s per GPU) x 1e6. It is the part of the output's cost that the
//   prompts cause, to compare with a per-input-token price list, not a sum to add to it.
// - Energy: the GPU's power over its output tokens/s, joules per output token; the power is the one given or the
//   card's board power from the catalog (GpuSpec::tdpWatts), a ceiling: a decode-bound GPU draws less.
// The price per GPU-hour is the first of: the one given (--gpu-hour-price, the frontier's price field), the one saved
// with the GPU in the user's own catalog (GpuSpec::gpuHourPrice), the bundled catalog's example for the card
// (GpuSpec::examplePrice: one provider's page on one day); with none of them there is no cost. Wherever a price is
// shown its source is said with it (priceText).

#include "core/model/llm/llm_model.h"

#include <QString>

#include <optional>

namespace ridgeline {

// Where gpuHourPrice came from, in the order the first wins.
enum class PriceSource { Given, UserCatalog, Example };

struct CostInputs {
    std::optional<double> gpuHourPrice;   // USD per GPU-hour
    std::optional<double> gpuPowerWatts;  // empty: the card's board power
    PriceSource priceSource = PriceSource::Given;
    QString exampleOf{};  // an example price's provider and day: "Lambda 2026-09-20"
};

// `inputs` with the price the rule above gives for `gpu`: the one given stays, else the user's catalog's, else the
// bundled example, else none. The one place that rule is written.
CostInputs withCatalogPrice(CostInputs inputs, const GpuSpec& gpu);
// Where the price came from: "given", "your catalog", "example price, Lambda 2026-09-20"; "" without a price.
QString priceSourceText(const CostInputs& inputs);
// "$2.50 per GPU-hour" (given), "$2.50 per GPU-hour, your catalog", "$3.99 per GPU-hour, example price, Lambda
// 2026-09-20"; "" without a price.
QString priceText(const CostInputs& inputs);
// The source as --json writes it: "given", "catalog" (the user's), "example"; "" without a price.
QString priceSourceKey(const CostInputs& inputs);

// What is wrong with a price per GPU-hour, or nothing: a number of US dollars above 0, at most kMaxGpuHourPrice.
std::optional<QString> checkGpuHourPrice(double usd);
// What is wrong with the price or the power, or nothing: the price as checkGpuHourPrice, the power, when given, a
// finite number above 0.
std::optional<QString> checkCostInputs(const CostInputs& inputs);

struct GpuPower {
    double watts = 0;  // 0: unknown (a custom GPU with no power given)
    bool fromCatalog = false;
};
GpuPower gpuPower(const CostInputs& inputs, const GpuSpec& gpu);
QString powerText(const GpuPower& power);  // "board power 700 W, catalog", "450 W, given", "unknown"

// Tokens per second per GPU and the prefill's share of its time.
struct TokenRates {
    double outputPerSecondPerGpu = 0;
    double inputPerSecondPerGpu = 0;  // 0: no prompt, no input cost
    double prefillShare = 0;
};

struct TokenCost {
    std::optional<double> perMillionInput;  // USD
    std::optional<double> perMillionOutput;
    std::optional<double> joulesPerOutputToken;
};
TokenCost tokenCost(const TokenRates& rates, const std::optional<double>& gpuHourPrice, const GpuPower& power);

// One configuration's rates: under continuous batching when the report has a serving estimate (a prompt and two
// output tokens or more), else the decode step alone (no input).
TokenRates reportRates(const LlmModel& model, const InferenceReport& report);

}  // namespace ridgeline
