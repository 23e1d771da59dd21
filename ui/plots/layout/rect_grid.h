#pragma once
// Many rectangles (the boxes of 10,000 kernel dots) bucketed in a grid of square cells, so that asking which of them
// a label's box meets looks at a few cells instead of every rectangle: the roof labels' placement tried each
// candidate box against each dot, most of a zoom step with 10,000 kernels.

#include <QRectF>

#include <vector>

namespace ridgeline::ui {

class RectGrid {
public:
    // Only rectangles that meet `bounds` are kept: a box outside it is never asked about.
    RectGrid(const std::vector<QRectF>& rects, const QRectF& bounds, double cell = 48.0);

    bool anyIntersects(const QRectF& box) const;
    int countIntersecting(const QRectF& box) const;

private:
    template <typename Visit>
    bool forEachIntersecting(const QRectF& box, Visit visit) const;  // stops when visit returns true
    int column(double x) const;
    int row(double y) const;

    QRectF m_bounds;
    double m_cell;
    int m_columns = 0;
    int m_rows = 0;
    std::vector<QRectF> m_rects;
    std::vector<std::vector<int>> m_cells;  // row-major: the rectangles meeting each cell
};

}  // namespace ridgeline::ui
