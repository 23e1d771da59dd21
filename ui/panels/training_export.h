#pragma once
// The Training tab as a file, as Export does for the roofline and the batching charts: a hidden panel with the same
// request and theme, laid out at exactly the export size without its control column (a picture shows the step, not
// the sliders), drawn to PNG (with a device-pixel ratio), SVG or PDF. A CSV holds the step's numbers.

#include "core/result.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/training/training_view.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace ridgeline::ui {

struct TrainingContent {
    TrainingRequest request;
    ThemeKind theme = ThemeKind::Light;
};

QImage renderTrainingImage(const TrainingContent& content, QSize size, double devicePixelRatio = 1.0);
// By the path's suffix: png, svg, pdf or csv; anything else is refused. Written through core/save_file.h.
std::optional<Error> exportTraining(const TrainingContent& content, const QString& path, QSize size,
                                    double devicePixelRatio = 1.0);
// One row per part of the memory bar (bytes per GPU) and of the step's time (seconds), then tokens/s and MFU.
Result<QByteArray> trainingCsv(const TrainingRequest& request);

}  // namespace ridgeline::ui
