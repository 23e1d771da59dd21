#include "ui/plots/layout/legend_flow.h"

#include <algorithm>

namespace ridgeline::ui {

namespace {

using Rows = std::vector<std::pair<std::size_t, std::size_t>>;  // [first, last) of each row

// As many entries on each row as fit, in order.
Rows fillRows(const std::vector<double>& widths, double gap, double width)
{
    Rows rows;
    std::size_t first = 0;
    double used = 0.0;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        const double w = std::min(widths[i], width);
        const double wider = used + (i > first ? gap : 0.0) + w;
        if (i > first && wider > width) {
            rows.emplace_back(first, i);
            first = i;
            used = w;
        } else {
            used = wider;
        }
    }
    rows.emplace_back(first, widths.size());
    return rows;
}

}  // namespace

LegendFlow flowLegend(const std::vector<double>& widths, double rowHeight, double gap, QPointF topLeft, double width)
{
    LegendFlow out;
    if (widths.empty() || width <= 0.0)
        return out;
    // The fewest rows, then as even as they go: the narrowest width that still needs no more rows (13 entries
    // over 2 on a second row read as an afterthought).
    Rows rows = fillRows(widths, gap, width);
    double low = 0.0;
    double high = width;
    for (int step = 0; step < 24 && rows.size() > 1; ++step) {
        const double middle = (low + high) / 2.0;
        (fillRows(widths, gap, middle).size() > rows.size() ? low : high) = middle;
    }
    if (rows.size() > 1)
        rows = fillRows(widths, gap, high);
    out.entries.reserve(widths.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        double used = 0.0;
        for (std::size_t i = rows[r].first; i < rows[r].second; ++i)
            used += std::min(widths[i], width) + (i > rows[r].first ? gap : 0.0);
        double x = topLeft.x() + (width - used) / 2.0;
        const double y = topLeft.y() + static_cast<double>(r) * rowHeight;
        for (std::size_t i = rows[r].first; i < rows[r].second; ++i) {
            const double w = std::min(widths[i], width);
            out.entries.emplace_back(x, y, w, rowHeight);
            x += w + gap;
        }
    }
    out.height = static_cast<double>(rows.size()) * rowHeight;
    return out;
}

std::vector<std::size_t> oneRowOf(const std::vector<double>& widths, const std::vector<bool>& first, double gap,
                                  double width, double foldWidth)
{
    std::vector<std::size_t> all(widths.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    double total = 0.0;
    for (std::size_t i = 0; i < widths.size(); ++i)
        total += widths[i] + (i > 0 ? gap : 0.0);
    if (total <= width)
        return all;
    std::vector<std::size_t> byPriority;
    for (const bool wanted : {true, false})
        for (std::size_t i = 0; i < widths.size(); ++i)
            if ((i < first.size() && first[i]) == wanted)
                byPriority.push_back(i);
    std::vector<std::size_t> shown;
    double used = foldWidth;
    for (const std::size_t i : byPriority) {
        if (used + gap + widths[i] > width)
            continue;  // a narrower entry further on may still fit
        used += gap + widths[i];
        shown.push_back(i);
    }
    std::sort(shown.begin(), shown.end());
    return shown;
}

}  // namespace ridgeline::ui
