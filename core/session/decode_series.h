#pragma once
// The decode experiment of a session by weight precision: the measured steps of each precision
// ("decode-fp32", "decode-bf16", "decode-int8": one library and one matrix size, only the weights' type
// differs; the OpenBLAS "decode" series is the batching experiment of its own) and the roofline's prediction for
// them, on the roof of that precision (session_roof.h: its best compute ceiling over DRAM). Lower-precision
// weights move fewer bytes, so batch 1 runs faster, and a faster unit (AMX) moves the knee, the batch where the
// step turns compute-bound.

#include "core/session/session.h"
#include "core/session/session_roof.h"

#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

// One step's cost as a function of the batch B, read off the measured kernels (every kernel counts its
// operands once): flops(B) = flopsPerVector B, bytes(B) = fixedBytes (the weights) + bytesPerVector B.
struct DecodeCounts {
    double flopsPerVector = 0.0;  // FLOPs (int8: operations) per token vector
    double fixedBytes = 0.0;      // the weights, read once per step whatever the batch
    double bytesPerVector = 0.0;  // a vector in and its result out
    double intensity(double batch) const;
};

struct DecodeSeries {
    QString kind;                               // "decode-fp32", "decode-bf16", "decode-int8"
    QString precision;                          // the weights': "fp32", "bf16", "int8"
    std::vector<const KernelResult*> measured;  // ascending batch; pointers into the session
    std::optional<DecodeCounts> counts;         // nullopt when the kernels' counts do not follow the form above
    std::optional<SessionRoof> roof;            // the precision's roof; nullopt without its ceilings
    // Where the predicted step turns compute-bound: intensity(B) = the roof's ridge. nullopt when the counts
    // or roof are missing, or when no batch reaches the ridge (the vector's own traffic outgrows its work).
    std::optional<double> kneeBatch;

    const KernelResult* at(int batch) const;
    // The roofline's tokens/s at `batch`: batch / max(flops / peak, bytes / bandwidth); 0 without a prediction.
    double predictedTokensPerSecond(double batch) const;
};

// The kind of the decode series with `precision` weights: "decode-fp32", "decode-bf16" ...
QString decodeKind(const QString& precision);
// Whether kernels of `kind` are steps of a decode sweep: the OpenBLAS "decode" series or one of decodeKind's.
bool isDecodeKind(const QString& kind);

// Every decode series the session measured, fp32 first, then the low precisions in the order above.
std::vector<DecodeSeries> decodeSeriesByPrecision(const Session& session);
// The series point into the session: a temporary one would leave them dangling.
std::vector<DecodeSeries> decodeSeriesByPrecision(const Session&& session) = delete;

}  // namespace ridgeline
