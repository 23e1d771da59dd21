#include "ui/plots/layout/view_history.h"

#include <cmath>

namespace ridgeline::ui {

// Views a hair apart (a rounding of the axes' own arithmetic) are the same view.
bool sameView(const PlotRange& a, const PlotRange& b)
{
    const auto near = [](double x, double y) { return std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y)); };
    return near(a.xMin, b.xMin) && near(a.xMax, b.xMax) && near(a.yMin, b.yMin) && near(a.yMax, b.yMax);
}

void ViewHistory::leave(const PlotRange& left)
{
    if (!left.valid())
        return;
    m_forward.clear();
    if (!m_back.empty() && sameView(m_back.back(), left))
        return;
    m_back.push_back(left);
    if (m_back.size() > kMaxViews)
        m_back.erase(m_back.begin());
}

std::optional<PlotRange> ViewHistory::back(const PlotRange& current)
{
    if (m_back.empty())
        return std::nullopt;
    const PlotRange to = m_back.back();
    m_back.pop_back();
    m_forward.push_back(current);
    return to;
}

std::optional<PlotRange> ViewHistory::forward(const PlotRange& current)
{
    if (m_forward.empty())
        return std::nullopt;
    const PlotRange to = m_forward.back();
    m_forward.pop_back();
    m_back.push_back(current);
    return to;
}

void ViewHistory::clear()
{
    m_back.clear();
    m_forward.clear();
}

}  // namespace ridgeline::ui
