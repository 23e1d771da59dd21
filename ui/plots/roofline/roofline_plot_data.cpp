#include "ui/plots/roofline/roofline_plot_data.h"

namespace ridgeline::ui {

double RooflinePlot::markerSize(KernelRef ref, double fallback) const
{
    if (ref.session < 0 || ref.session >= static_cast<int>(markerSizes.size()))
        return fallback;
    const std::vector<double>& sizes = markerSizes[static_cast<std::size_t>(ref.session)];
    return ref.kernel >= 0 && ref.kernel < static_cast<int>(sizes.size()) ? sizes[static_cast<std::size_t>(ref.kernel)]
                                                                          : fallback;
}

bool RooflinePlot::beforeKernel(KernelRef ref) const
{
    if (ref.session < 0 || ref.session >= static_cast<int>(isBefore.size()))
        return false;
    const std::vector<bool>& before = isBefore[static_cast<std::size_t>(ref.session)];
    return ref.kernel >= 0 && ref.kernel < static_cast<int>(before.size()) &&
           before[static_cast<std::size_t>(ref.kernel)];
}

}  // namespace ridgeline::ui
