#pragma once
// Mouse and keys of a zoomable chart view, click apart from drag. Qt Charts' own rubber band starts on every left
// press in the plot, so a click never reached a point. Here a left press that moves more than kDragDistance pixels
// before its release draws a rubber band and zooms to it; one that does not is a click, for the view to hit-test.
// The middle button pans, the wheel zooms about the cursor, + - and the arrows zoom and pan.

#include <QPoint>
#include <QRect>

QT_BEGIN_NAMESPACE
class QChartView;
class QKeyEvent;
class QMouseEvent;
class QRubberBand;
class QWheelEvent;
QT_END_NAMESPACE

namespace ridgeline::ui {

class ChartNavigator {
public:
    // A press and release this close together (px, either way) is a click.
    static constexpr int kDragDistance = 5;

    explicit ChartNavigator(QChartView* view);

    enum class Outcome {
        Ignored,  // not ours: let the view handle it
        Handled,  // a press, a drag step, a pan, a zoom
        Click,    // left press and release within kDragDistance, on the plot: position() says where
        Reset,    // right click: back to the default view
    };
    Outcome press(const QMouseEvent& event);
    Outcome move(const QMouseEvent& event);
    Outcome release(const QMouseEvent& event);
    Outcome wheel(const QWheelEvent& event);
    Outcome key(const QKeyEvent& event);

    bool busy() const { return m_pressed || m_panning; }  // a button is down: no hover
    QPoint clickPosition() const { return m_pressAt; }    // viewport pixels of the last click

private:
    bool onPlot(QPoint viewportPosition) const;
    QRect bandRect(QPoint to) const;

    QChartView* m_view;
    QRubberBand* m_band = nullptr;
    QPoint m_pressAt;
    bool m_pressed = false;
    bool m_dragging = false;
    bool m_panning = false;
    QPoint m_panFrom;
};

}  // namespace ridgeline::ui
