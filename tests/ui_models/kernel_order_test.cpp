// The order the keyboard walks the roofline's dots in, without a widget (ui/plots/roofline/kernel_order.h): in view
// only, by intensity then performance, hidden kinds and filtered kernels left out, and a step from a kernel out of
// view lands on its nearest neighbour in view.

#include "ui/plots/roofline/kernel_order.h"
#include "tests/ui_models/test_session.h"
#include "ui/plots/roofline/roofline_plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

struct Scene {
    std::vector<Session> sessions{fixtures::zen4Session()};
    std::vector<NamedRoof> extra;
    ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    RooflinePlot plot;

    explicit Scene(const QString& filter = {})
        : plot(buildRooflinePlot({&sessions, &extra, ChartOptions{}, QString(), filter}, theme))
    {
    }

    RooflineView view(PlotRange range) const
    {
        RooflineView v;
        v.plot = &plot;
        v.sessions = &sessions;
        v.extraRoofs = &extra;
        v.mapping = {QRectF(80, 50, 1100, 600), range};
        v.groupShown.assign(plot.groups.size(), true);
        return v;
    }
    RooflineView view() const { return view(plot.defaultRange); }

    // The session's kernels that pass `keep`, by intensity then performance: the expected walk.
    template <typename Keep>
    std::vector<KernelRef> byIntensity(Keep keep) const
    {
        std::vector<KernelRef> refs;
        const std::vector<KernelResult>& kernels = sessions[0].kernels;
        for (int k = 0; k < static_cast<int>(kernels.size()); ++k)
            if (keep(kernels[static_cast<std::size_t>(k)]))
                refs.push_back({0, k});
        std::sort(refs.begin(), refs.end(), [&](KernelRef a, KernelRef b) {
            const KernelResult& x = kernels[static_cast<std::size_t>(a.kernel)];
            const KernelResult& y = kernels[static_cast<std::size_t>(b.kernel)];
            return std::tuple(x.intensity, x.gflops, a.kernel) < std::tuple(y.intensity, y.gflops, b.kernel);
        });
        return refs;
    }
};

}  // namespace

TEST(KernelOrder, EveryKernelInViewByIntensityThenPerformance)
{
    const Scene scene;
    const std::vector<KernelRef> order = kernelsInKeyOrder(scene.view());
    EXPECT_EQ(order, scene.byIntensity([](const KernelResult&) { return true; }));
    ASSERT_GE(order.size(), 3u);
    // From no kernel, the first or the last; past either end, nothing.
    EXPECT_EQ(steppedKernel(scene.view(), {}, 1), order.front());
    EXPECT_EQ(steppedKernel(scene.view(), {}, -1), order.back());
    EXPECT_EQ(steppedKernel(scene.view(), order[1], 1), order[2]);
    EXPECT_EQ(steppedKernel(scene.view(), order[1], -1), order[0]);
    EXPECT_FALSE(steppedKernel(scene.view(), order.back(), 1).has_value());
    EXPECT_FALSE(steppedKernel(scene.view(), order.front(), -1).has_value());
}

TEST(KernelOrder, AStepFromAKernelOutOfViewLandsOnItsNeighbourInView)
{
    const Scene scene;
    PlotRange range = scene.plot.defaultRange;
    range.xMax = 50.0;  // the large sgemms are out of view
    const RooflineView view = scene.view(range);
    const std::vector<KernelRef> inView =
        scene.byIntensity([&](const KernelResult& k) { return k.intensity <= 50.0 && k.gflops >= range.yMin; });
    EXPECT_EQ(kernelsInKeyOrder(view), inView);
    const std::vector<KernelRef> all = scene.byIntensity([](const KernelResult&) { return true; });
    const KernelRef outOfView = all.back();
    ASSERT_TRUE(std::find(inView.begin(), inView.end(), outOfView) == inView.end());
    EXPECT_EQ(steppedKernel(view, outOfView, -1), inView.back());
    EXPECT_FALSE(steppedKernel(view, outOfView, 1).has_value());
}

TEST(KernelOrder, HiddenKindsAndFilteredKernelsAreNotWalked)
{
    const Scene filtered(QStringLiteral("decode"));
    EXPECT_EQ(kernelsInKeyOrder(filtered.view()),
              filtered.byIntensity([](const KernelResult& k) { return k.name.contains(QLatin1String("decode")); }));

    const Scene scene;
    RooflineView view = scene.view();
    for (std::size_t g = 0; g < scene.plot.groups.size(); ++g)
        if (scene.plot.groups[g].kind == QLatin1String("sgemm"))
            view.groupShown[g] = false;
    EXPECT_EQ(kernelsInKeyOrder(view),
              scene.byIntensity([](const KernelResult& k) { return k.kind != QLatin1String("sgemm"); }));
}
