#include "ui/chart/chart_navigator.h"

#include <QChart>
#include <QChartView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

namespace ridgeline::ui {

namespace {

// A band thinner than this is a slip, not a zoom: zooming to it would show a sliver of one decade.
constexpr int kMinimumBand = 8;

}  // namespace

ChartNavigator::ChartNavigator(QChartView* view) : m_view(view)
{
    m_view->setRubberBand(QChartView::NoRubberBand);  // ours: Qt's takes every press
    m_band = new QRubberBand(QRubberBand::Rectangle, m_view->viewport());
    m_band->hide();
}

bool ChartNavigator::onPlot(QPoint viewportPosition) const
{
    const QPointF inChart = m_view->chart()->mapFromScene(m_view->mapToScene(viewportPosition));
    return m_view->chart()->plotArea().contains(inChart);
}

// The band from the press to `to`, held inside the plot area (viewport pixels).
QRect ChartNavigator::bandRect(QPoint to) const
{
    const QRectF plot = m_view->chart()->plotArea();
    const QRect plotInViewport =
        m_view->mapFromScene(m_view->chart()->mapToScene(plot)).boundingRect().adjusted(0, 0, -1, -1);
    return QRect(m_pressAt, to).normalized().intersected(plotInViewport);
}

ChartNavigator::Outcome ChartNavigator::press(const QMouseEvent& event)
{
    const QPoint at = event.position().toPoint();
    if (event.button() == Qt::MiddleButton) {
        m_panning = true;
        m_panFrom = at;
        m_view->setCursor(Qt::ClosedHandCursor);
        return Outcome::Handled;
    }
    if (event.button() == Qt::RightButton)
        return Outcome::Handled;  // the release resets
    if (event.button() != Qt::LeftButton || !onPlot(at))
        return Outcome::Ignored;
    m_pressed = true;
    m_dragging = false;
    m_pressAt = at;
    return Outcome::Handled;
}

ChartNavigator::Outcome ChartNavigator::move(const QMouseEvent& event)
{
    const QPoint at = event.position().toPoint();
    if (m_panning) {
        const QPoint delta = at - m_panFrom;
        m_panFrom = at;
        m_view->chart()->scroll(-delta.x(), delta.y());
        return Outcome::Handled;
    }
    if (!m_pressed)
        return Outcome::Ignored;
    if (!m_dragging && (at - m_pressAt).manhattanLength() <= kDragDistance)
        return Outcome::Handled;  // still a click, so far
    m_dragging = true;
    m_band->setGeometry(bandRect(at));
    m_band->show();
    return Outcome::Handled;
}

ChartNavigator::Outcome ChartNavigator::release(const QMouseEvent& event)
{
    const QPoint at = event.position().toPoint();
    if (event.button() == Qt::MiddleButton && m_panning) {
        m_panning = false;
        m_view->unsetCursor();
        return Outcome::Handled;
    }
    if (event.button() == Qt::RightButton)
        return Outcome::Reset;  // undoes every zoom at once; zooming out a step at a time is rarely wanted
    if (event.button() != Qt::LeftButton || !m_pressed)
        return Outcome::Ignored;
    m_pressed = false;
    m_band->hide();
    if (!m_dragging && (at - m_pressAt).manhattanLength() <= kDragDistance)
        return Outcome::Click;
    m_dragging = false;
    const QRect band = bandRect(at);
    if (band.width() < kMinimumBand || band.height() < kMinimumBand)
        return Outcome::Handled;
    m_view->chart()->zoomIn(m_view->chart()->mapFromScene(m_view->mapToScene(band)).boundingRect());
    return Outcome::Handled;
}

ChartNavigator::Outcome ChartNavigator::wheel(const QWheelEvent& event)
{
    const QPointF pos = m_view->chart()->mapFromScene(m_view->mapToScene(event.position().toPoint()));
    const QRectF plot = m_view->chart()->plotArea();
    if (!plot.contains(pos) || event.angleDelta().y() == 0)
        return Outcome::Ignored;
    // Zoom about the cursor: the data point under it stays put.
    const double f = event.angleDelta().y() > 0 ? 1.0 / 1.25 : 1.25;
    m_view->chart()->zoomIn(QRectF(pos.x() - (pos.x() - plot.left()) * f, pos.y() - (pos.y() - plot.top()) * f,
                                   plot.width() * f, plot.height() * f));
    return Outcome::Handled;
}

ChartNavigator::Outcome ChartNavigator::key(const QKeyEvent& event)
{
    QChart* chart = m_view->chart();
    switch (event.key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            chart->zoom(1.25);
            return Outcome::Handled;
        case Qt::Key_Minus:
            chart->zoom(0.8);
            return Outcome::Handled;
        case Qt::Key_Left:
            chart->scroll(-30, 0);
            return Outcome::Handled;
        case Qt::Key_Right:
            chart->scroll(30, 0);
            return Outcome::Handled;
        case Qt::Key_Up:
            chart->scroll(0, 30);
            return Outcome::Handled;
        case Qt::Key_Down:
            chart->scroll(0, -30);
            return Outcome::Handled;
        case Qt::Key_Home:
        case Qt::Key_0:
            return Outcome::Reset;
        default:
            return Outcome::Ignored;
    }
}

}  // namespace ridgeline::ui
