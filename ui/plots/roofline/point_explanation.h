#pragma once
// "Explain this point": which ceiling binds a kernel, how close it gets, and what would move it.
// QtCore only, so the CLI could print the same text. (Candidate for core/model once it settles.)

#include "core/model/roofline.h"
#include "core/session/session.h"

#include <QString>

namespace ridgeline::ui {

struct PointExplanation {
    QString kernelName;
    double intensity = 0.0;  // FLOP/byte
    double gflops = 0.0;     // measured
    QString computeCeiling;  // the compute ceiling that applies (same precision, best)
    QString memoryLevel;     // level whose capacity holds the kernel's bytes ("L2", "DRAM")
    Roof roof;               // that compute ceiling with that level's bandwidth
    Bound bound = Bound::Memory;
    QString bindingCeiling;               // "DRAM 40 GB/s" or "fp32 avx512 x2 (230 GFLOP/s)"
    double attainableGflops = 0.0;        // the roof above this kernel
    double percentOfAttainable = 0.0;     // 100 x measured / attainable
    double headroomGflops = 0.0;          // attainable - measured (never negative)
    double ridgeIntensity = 0.0;          // FLOP/byte where this roof turns flat
    double intensityFactorToRidge = 0.0;  // ridge / intensity: how much more reuse compute-bound needs
    bool valid = false;                   // false when the session has no ceilings to compare with
    // A GPU kernel is held to its GPU's catalog roof (core/session/session_roof.h kernelRoof).
    QString machine;                 // the GPU's catalog name; empty for a kernel of the session's own machine
    bool gpuKernel = false;          // ran on a GPU
    QString noRoof;                  // why a GPU kernel has no roof (its GPU is not in the catalog), when !valid
    bool precisionFallback = false;  // the machine has no peak of the kernel's precision: its best one is the roof
    QString precision;               // the kernel's precision, for that sentence
};

// Working-set heuristic: the kernel's bytes (each operand moved once) against total cache capacity.
QString memoryLevelFor(const Session& session, double bytes);

PointExplanation explainKernel(const Session& session, const KernelResult& kernel);

// A few short paragraphs of rich text for the panel and the tooltip.
QString explanationHtml(const PointExplanation& explanation);
QString kernelTooltipHtml(const Session& session, const KernelResult& kernel);

}  // namespace ridgeline::ui
