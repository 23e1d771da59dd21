#pragma once
// What one low-precision loop takes and gives back, whichever unit runs it: the vector loops (lowp_kernels.h) and
// the AMX tile loops (amx.h) share it, so neither header needs the other.

namespace ridgeline {

struct LowpInputs {
    double a = 1.0;
    double b = 1.0;
};

struct LowpRun {
    double operations = 0.0;  // multiply-adds counted as two
    double seconds = 0.0;     // wall time of the loop alone
    int lanes = 0;            // accumulator lanes (chains x lanes per register, or tiles x 256)
    double firstLane = 0.0;   // final value of the first lane of the first chain
    double laneSum = 0.0;     // sum of the final values of every lane
};

}  // namespace ridgeline
