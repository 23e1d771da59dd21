#pragma once
// What `ridgeline model` adds for serving and cost: one configuration's time to first token, inter-token and
// end-to-end latency under continuous batching, and its cost and energy per token, as JSON keys and table rows.

#include "app/cli/serving_options.h"
#include "core/model/serving/serving_latency.h"
#include "core/model/serving/token_cost.h"

#include <QJsonObject>
#include <QTextStream>

namespace ridgeline::cli {

// The scheduler as JSON ("scheduling": its terms, the engine, "scheduler_source": where each term came from, and the
// citations) and as one line.
QJsonObject schedulingJson(const SchedulerChoice& choice);
QString schedulingText(const SchedulerChoice& choice);

// serving_ttft_s, serving_itl_s, serving_e2e_latency_s, serving_slot_wait_s, serving_running, serving_queued,
// serving_arrival_rate (null for a closed loop) and scheduling.
void addServingLatencyJson(QJsonObject& o, const ServingLatency& latency, const ServingOptions& options);
void printServingLatency(QTextStream& out, const ServingLatency& latency, const ServingOptions& options);

// gpu_hour_price, price_source ("given", "catalog" for the user's, "example" for the bundled catalog's, or null) and
// price_example_of (an example's provider and day, else null).
void addPriceJson(QJsonObject& o, const CostInputs& inputs);
// cost_per_million_input_tokens, cost_per_million_output_tokens, joules_per_output_token (null when there is no
// price, no prompt or no power), addPriceJson's keys, gpu_power_w and power_source ("catalog", "given" or null).
void addCostJson(QJsonObject& o, const TokenCost& cost, const CostInputs& inputs, const GpuPower& power);
void printCost(QTextStream& out, const TokenCost& cost, const CostInputs& inputs, const GpuPower& power);

}  // namespace ridgeline::cli
