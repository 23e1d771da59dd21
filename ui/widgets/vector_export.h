#pragma once
// The vector files Ridgeline writes (charts, the batching panel, slides), set up alike: 96 px per inch, so a
// picture of 1920x1080 px is a page of 20 x 11.25 in or an SVG view box of 1920x1080, titled and signed.

#include <QSize>
#include <QString>

class QIODevice;
class QPdfWriter;
class QSvgGenerator;

namespace ridgeline::ui {

// Pages exactly `pixels` in size, no margins.
void setUpPdf(QPdfWriter& writer, QSize pixels, const QString& title);
// Writing into `out`, its size and view box `pixels`.
void setUpSvg(QSvgGenerator& generator, QIODevice* out, QSize pixels, const QString& title);

}  // namespace ridgeline::ui
