#pragma once
// The Training tab's hierarchy view: the nodes and their GPUs as the step uses them, the interconnect inside a node
// and the network between nodes, and each collective of the step as a bar coloured by the link it crosses, as long
// as its time against the step's. Where things go comes from layoutHierarchy (ui/plots/training/training_geometry.h).

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/training/training_view.h"

#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ridgeline::ui {

struct HierarchyGeometry;

class TrainingHierarchy : public QWidget {
    Q_OBJECT
public:
    explicit TrainingHierarchy(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const HierarchyData& data);
    const HierarchyData& data() const { return m_data; }
    // The title, the two links and one line per collective, as painted (for tests).
    QStringList texts() const;
    // The colour a collective's bar is painted in, by its row.
    QColor rowColor(int row) const;
    // Whether the width cuts a line short (a link's legend, a collective's words or numbers end in an ellipsis).
    bool isCut() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF area() const;
    double lineHeight() const;
    void paintMachine(QPainter& p, const HierarchyGeometry& g) const;
    void paintRows(QPainter& p, const HierarchyGeometry& g) const;

    ChartTheme m_theme;
    HierarchyData m_data;
    int m_height = 0;
};

}  // namespace ridgeline::ui
