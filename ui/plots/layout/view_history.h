#pragma once
// The views a zoomable chart has shown, for Back and Forward as a browser has them: every zoom, pan or reset
// visits a new view; Back returns to the one before it, Forward undoes the Back; a new visit after a Back drops
// the views ahead of it. New data starts the history afresh.

#include "ui/plots/layout/log_scale.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace ridgeline::ui {

class ViewHistory {
public:
    // Enough to walk back through a session's exploration; older views fall off the far end.
    static constexpr std::size_t kMaxViews = 64;

    // `left` is the view the chart leaves for another: Back returns to it. The same view twice in a row is kept once.
    void leave(const PlotRange& left);
    // The view to show for Back from `current` (which Forward then returns to), or none at the start.
    std::optional<PlotRange> back(const PlotRange& current);
    std::optional<PlotRange> forward(const PlotRange& current);
    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void clear();

private:
    std::vector<PlotRange> m_back;     // oldest first
    std::vector<PlotRange> m_forward;  // the next Forward last
};

bool sameView(const PlotRange& a, const PlotRange& b);

}  // namespace ridgeline::ui
