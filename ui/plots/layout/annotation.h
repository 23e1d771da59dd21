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

struct AnnotationText {
    QString text;
    QPointF origin;             // top-left of the text box before rotation, chart coordinates
    double angleDegrees = 0.0;  // rotation about `origin`
    QColor color;
    QFont font;
    QColor halo;         // drawn behind the text so it stays readable over lines; invalid = none
    bool boxed = false;  // a background-coloured box behind the text: for labels that sit on dashed lines
};

struct AnnotationLine {
    QLineF line;
    QPen pen;
};

struct AnnotationRing {
    QPointF center;
    double radius = 0.0;
    QPen pen;
};

}  // namespace ridgeline::ui
