#include "ui/plots/layout/rect_grid.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

RectGrid::RectGrid(const std::vector<QRectF>& rects, const QRectF& bounds, double cell)
    : m_bounds(bounds.normalized()), m_cell(cell > 0.0 ? cell : 48.0)
{
    if (m_bounds.isEmpty() || !std::isfinite(m_bounds.width()) || !std::isfinite(m_bounds.height()))
        return;
    // A few thousand cells at most, whatever the bounds: the cell grows on a huge plot.
    m_cell = std::max(m_cell, std::sqrt(m_bounds.width() * m_bounds.height() / 4096.0));
    m_columns = static_cast<int>(std::ceil(m_bounds.width() / m_cell));
    m_rows = static_cast<int>(std::ceil(m_bounds.height() / m_cell));
    m_cells.resize(static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows));
    for (const QRectF& rect : rects) {
        if (!rect.intersects(m_bounds))
            continue;
        const int index = static_cast<int>(m_rects.size());
        m_rects.push_back(rect);
        for (int r = row(rect.top()); r <= row(rect.bottom()); ++r)
            for (int c = column(rect.left()); c <= column(rect.right()); ++c)
                m_cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(m_columns) + static_cast<std::size_t>(c)]
                    .push_back(index);
    }
}

int RectGrid::column(double x) const
{
    return std::clamp(static_cast<int>(std::floor((x - m_bounds.left()) / m_cell)), 0, m_columns - 1);
}

int RectGrid::row(double y) const
{
    return std::clamp(static_cast<int>(std::floor((y - m_bounds.top()) / m_cell)), 0, m_rows - 1);
}

template <typename Visit>
bool RectGrid::forEachIntersecting(const QRectF& box, Visit visit) const
{
    if (m_rects.empty() || !box.intersects(m_bounds))
        return false;
    const int c0 = column(box.left()), c1 = column(box.right());
    const int r0 = row(box.top()), r1 = row(box.bottom());
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c)
            for (const int i : m_cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(m_columns) +
                                       static_cast<std::size_t>(c)]) {
                const QRectF& rect = m_rects[static_cast<std::size_t>(i)];
                // A rectangle in several of the box's cells is counted in the first of them only.
                if (std::max(column(rect.left()), c0) != c || std::max(row(rect.top()), r0) != r)
                    continue;
                if (rect.intersects(box) && visit())
                    return true;
            }
    return false;
}

bool RectGrid::anyIntersects(const QRectF& box) const
{
    return forEachIntersecting(box, [] { return true; });
}

int RectGrid::countIntersecting(const QRectF& box) const
{
    int count = 0;
    forEachIntersecting(box, [&] {
        ++count;
        return false;
    });
    return count;
}

}  // namespace ridgeline::ui
