#pragma once
// The vector files Ridgeline writes (charts, the batching panel, slides), set up alike: 96 px per inch, so a
// picture of 1920x1080 px is a page of 20 x 11.25 in or an SVG view box of 1920x1080, titled and signed.

#include "core/result.h"

#include <QSize>
#include <QString>

#include <optional>

class QIODevice;
class QPdfWriter;
class QSvgGenerator;

namespace ridgeline::ui {

// The sizes an exported picture may have, 320x180 to 16384x16384 pixels; `what` starts the refusal ("Export size",
// "Slide size").
std::optional<Error> checkExportSize(QSize size, const QString& what);
// Pages exactly `pixels` in size, no margins.
void setUpPdf(QPdfWriter& writer, QSize pixels, const QString& title);
// Writing into `out`, its size and view box `pixels`.
void setUpSvg(QSvgGenerator& generator, QIODevice* out, QSize pixels, const QString& title);

}  // namespace ridgeline::ui
