#pragma once
// One card's memory as a bar: weights, KV cache and free space against the capacity, every part with its
// size in GiB (weights also in GB, as vendors and the source text write them). When the batch does not
// fit, the bar runs past the capacity line in hatched red and says so, with the largest batch that fits.
// Painted by hand rather than with Qt Charts: it is a labelled bar, not a plot.

#include "ui/plots/batching/batching_chart_data.h"
#include "ui/plots/layout/chart_theme.h"

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
class QRectF;
QT_END_NAMESPACE

namespace ridgeline::ui {

class MemoryBar : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const MemoryBarData& data);
    void showMessage(const QString& message);

    bool hasData() const { return m_hasData; }
    bool fits() const { return m_hasData && m_data.fits; }
    const MemoryBarData& data() const { return m_data; }
    QString titleText() const { return m_titles.front(); }
    // The title as painted at the bar's width: the longest of its forms that fits beside the status; none when even
    // "Memory per GPU" does not fit (never elided).
    QString drawnTitle() const;
    QString statusText() const { return m_status; }
    // Title, status, capacity and legend texts: everything the bar writes, for tests.
    QStringList texts() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct LegendEntry {
        QColor color;
        bool hatched = false;
        QString text;
    };
    void rebuildTexts();
    double paintTitle(QPainter& p, double y) const;
    double paintBar(QPainter& p, const QRectF& bar) const;
    void paintLegend(QPainter& p, double y) const;
    // Each legend entry's x in pixels and its row (0, 1, ...) as y, at this width.
    std::vector<QPointF> legendOrigins(double width) const;
    // As many legend rows as this width needs (at least two), relaying out only when that number changes.
    void fitLegendRows();
    double titleRoom() const;
    QColor weightsColor() const;
    QColor kvColor() const;
    QColor overColor() const;
    QColor fitColor() const;

    ChartTheme m_theme;
    MemoryBarData m_data;
    bool m_hasData = false;
    QString m_message;
    QStringList m_titles;  // the title, longest first: the GPU's full name, its short name, the count, none
    QString m_status;
    QString m_capacityLabel;
    std::vector<LegendEntry> m_legend;
    int m_legendRows = 2;
};

}  // namespace ridgeline::ui
