#pragma once
// The roofline chart's plot data, without widgets: what to draw (the options a user sets).

#include "ui/models/chart_theme.h"

namespace ridgeline::ui {

struct ChartOptions {
    ThemeKind theme = ThemeKind::Light;
    bool shadeRegions = false;   // memory-bound (left of the ridge) vs compute-bound
    bool isoEfficiency = false;  // 50 % and 80 % of the primary roof
    bool kernelLabels = true;
    bool errorBars = true;
    bool ridgeMarker = true;  // dotted line and label at the primary roof's ridge
    // Imported kernels: dot area in proportion to the kernel's share of its import's total time (issue 6).
    bool sizeByTimeShare = false;
};

}  // namespace ridgeline::ui
