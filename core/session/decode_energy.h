#pragma once
// The fp32 decode batches' energy in words, for the measurement report and the window's CPU batching chart alike:
// which batches have joules per token, and where none has, why (never silence).

#include "core/session/session.h"

#include <QString>

#include <vector>

namespace ridgeline {

// The fp32 decode batches ("decode") with a RAPL energy, in batch order.
std::vector<const KernelResult*> decodeBatchesWithEnergy(const Session& session);
std::vector<const KernelResult*> decodeBatchesWithEnergy(const Session&& session) = delete;

// Empty when some decode batch has an energy; else one line that says why none has: "energy per token: not
// recorded in this session" (a file from before), "energy per token: not measured: <the reader's reason>".
QString decodeEnergyMissing(const Session& session);

// One line for a chart: "energy per token (RAPL): 0.192 J at B = 1 ... 0.0180 J at B = 256", else "no energy per
// token: <the reader's reason>" or "no energy per token recorded in this session".
QString decodeEnergySummary(const Session& session);

}  // namespace ridgeline
