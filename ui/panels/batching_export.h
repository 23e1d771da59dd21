#pragma once
// The batching tab's charts as a file, as the roofline's Export does for the roofline: a hidden panel with the
// same inputs, session and theme, laid out at exactly the export size without its control column (a picture
// shows the charts and the headline, not the sliders), drawn to PNG (with a device-pixel ratio), SVG or PDF. A
// CSV holds the throughput curve's numbers.

#include "core/model/llm/inference_request.h"
#include "core/result.h"
#include "core/session/session.h"
#include "ui/plots/layout/chart_theme.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace ridgeline::ui {

struct BatchingContent {
    InferenceRequest inputs;
    std::optional<Session> session;  // this CPU's measured batching curve, when a session is open
    ThemeKind theme = ThemeKind::Light;
};

QImage renderBatchingImage(const BatchingContent& content, QSize size, double devicePixelRatio = 1.0);
// By the path's suffix: png, svg, pdf or csv; anything else is refused. Written through core/save_file.h.
std::optional<Error> exportBatching(const BatchingContent& content, const QString& path, QSize size,
                                    double devicePixelRatio = 1.0);

}  // namespace ridgeline::ui
