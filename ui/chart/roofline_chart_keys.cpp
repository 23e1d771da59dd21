// The roofline chart's keys: zoom history, the navigator's zoom and pan, and walking the kernels. N and P (and Tab
// and Shift+Tab once a kernel is selected) select the next or previous kernel in view by intensity, then
// performance (ui/plots/roofline/kernel_order.h), exactly as a click on its dot does; Enter explains the selected
// kernel again, Escape clears the selection. Tab never keeps the focus: with no kernel selected, or past the last
// one, it moves on as everywhere else in the window. The accessible description names the selected kernel first.
#include "ui/chart/roofline_chart.h"
#include "ui/plots/roofline/kernel_order.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QTextDocumentFragment>

#include <algorithm>

namespace ridgeline::ui {

namespace {

bool isTab(const QKeyEvent& event)
{
    const bool plain = !(event.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
    return plain && (event.key() == Qt::Key_Tab || event.key() == Qt::Key_Backtab);
}

int tabStep(const QKeyEvent& event)
{
    return event.key() == Qt::Key_Backtab || (event.modifiers() & Qt::ShiftModifier) ? -1 : 1;
}

// The hover text in one line: "sgemm 2048 (n=2048); 180 GFLOP/s at 8 FLOP/byte; 78 % of attainable, ...".
QString plainText(QString html)
{
    html.replace(QStringLiteral("<br>"), QStringLiteral("; "));
    return QTextDocumentFragment::fromHtml(html).toPlainText().simplified();
}

}  // namespace

bool RooflineChart::stepSelection(int step)
{
    const std::optional<KernelRef> to = steppedKernel(currentView(), m_selected, step);
    if (!to)
        return false;
    setSelectedKernel(to->session, to->kernel);
    emit kernelClicked(to->session, to->kernel);
    return true;
}

bool RooflineChart::event(QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        showKeyFocus(true);
        if (isTab(*key) && m_selected.kernel >= 0 && stepSelection(tabStep(*key))) {
            key->accept();
            return true;
        }
    }
    return QChartView::event(event);  // Tab moves the focus on
}

// N and P go round: past the last kernel in view comes the first again.
bool RooflineChart::selectionKey(const QKeyEvent& event)
{
    if (event.modifiers() & ~Qt::KeyboardModifiers(Qt::KeypadModifier))
        return false;
    switch (event.key()) {
        case Qt::Key_N:
        case Qt::Key_P: {
            const int step = event.key() == Qt::Key_N ? 1 : -1;
            const RooflineView view = currentView();
            std::optional<KernelRef> to = steppedKernel(view, m_selected, step);
            if (!to)
                to = steppedKernel(view, {}, step);
            if (to) {
                setSelectedKernel(to->session, to->kernel);
                emit kernelClicked(to->session, to->kernel);
            }
            return true;
        }
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (m_selected.kernel < 0)
                return false;
            emit kernelClicked(m_selected.session, m_selected.kernel);
            return true;
        case Qt::Key_Escape:
            if (m_selected.kernel < 0)
                return false;
            setSelectedKernel(-1, -1);
            return true;
        default:
            return false;
    }
}

void RooflineChart::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Back) || event->matches(QKeySequence::Forward)) {
        event->matches(QKeySequence::Back) ? zoomBack() : zoomForward();
        event->accept();
        return;
    }
    if (selectionKey(*event)) {
        event->accept();
        return;
    }
    const PlotRange before = visibleRange();
    if (handled(m_navigator->key(*event), {})) {
        event->accept();
        leaveView(before);
    } else {
        QChartView::keyPressEvent(event);
    }
}

// The focus ring shows where the keys go, as a focus frame does on a field: after Tab brings the focus or a key is
// used here, not after a click on a dot (the ring of the selection says enough there).
void RooflineChart::showKeyFocus(bool show)
{
    if (show == m_keyFocus)
        return;
    m_keyFocus = show;
    viewport()->update();
}

void RooflineChart::focusInEvent(QFocusEvent* event)
{
    const Qt::FocusReason reason = event->reason();
    showKeyFocus(reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason);
    QChartView::focusInEvent(event);
}

void RooflineChart::focusOutEvent(QFocusEvent* event)
{
    if (event->reason() != Qt::ActiveWindowFocusReason && event->reason() != Qt::PopupFocusReason)
        showKeyFocus(false);
    QChartView::focusOutEvent(event);
}

// Painted on the viewport over the scene, never into the scene: an export renders the scene and has no ring.
void RooflineChart::paintEvent(QPaintEvent* event)
{
    QChartView::paintEvent(event);
    if (!showsKeyFocus())
        return;
    QPainter painter(viewport());
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(viewport()->rect()).adjusted(1.0, 1.0, -1.0, -1.0));
}

QStringList RooflineChart::selectionDescription() const
{
    const QString tooltip = kernelTooltip(m_selected.session, m_selected.kernel);
    if (tooltip.isEmpty())
        return {tr("N and P select the next and previous kernel")};
    const std::vector<KernelRef> order = kernelsInKeyOrder(currentView());
    const auto at = std::find(order.begin(), order.end(), m_selected);
    if (at == order.end())
        return {tr("Selected kernel, out of view: %1").arg(plainText(tooltip))};
    return {tr("Selected kernel %1 of %2 in view: %3")
                .arg(at - order.begin() + 1)
                .arg(order.size())
                .arg(plainText(tooltip))};
}

}  // namespace ridgeline::ui
