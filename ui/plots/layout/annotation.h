#pragma once
// What the charts draw over (or just under) their series, as plain data: text boxes, lines and rings in the
// chart's own pixel coordinates. The layouts in ui/models produce them; ui/chart's overlay item paints them.

#include <QColor>
#include <QFont>
#include <QLineF>
#include <QPen>
#include <QPointF>
#include <QString>

namespace ridgeline::ui {

// What a text or line is, for the layout report (ui/chart/chart_layout.h): a label names one mark (its owner), a
// note explains the chart, a legend keys its lines.
enum class TextRole { Label, Note, Legend };
enum class LineRole { Mark, Leader, Path };

struct AnnotationText {
    QString text;
    QPointF origin;             // top-left of the text box before rotation, chart coordinates
    double angleDegrees = 0.0;  // rotation about `origin`
    QColor color;
    QFont font;
    QColor halo;         // drawn behind the text so it stays readable over lines; invalid = none
    bool boxed = false;  // a background-coloured box behind the text: for labels that sit on dashed lines
    QString owner{};     // the id of the marker or line it labels ("kernel:0:3", "roof:2"); empty: none
    TextRole role = TextRole::Label;
};

struct AnnotationLine {
    QLineF line;
    QPen pen;
    LineRole role = LineRole::Mark;
    QString id{};  // a path's id ("path:0:decode"), a leader's text's owner
};

struct AnnotationRing {
    QPointF center;
    double radius = 0.0;
    QPen pen;
};

}  // namespace ridgeline::ui
