// What is under the mouse on the roofline, without a widget: the dot or roof nearest a pixel, the inverse mapping and
// the readout's words (ui/plots/roofline/roofline_hit_test.h).

#include "ui/plots/roofline/roofline_hit_test.h"
#include "tests/ui_models/test_session.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

struct Scene {
    std::vector<Session> sessions{fixtures::zen4Session()};
    std::vector<NamedRoof> extra;
    ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    RooflinePlot plot = buildRooflinePlot({&sessions, &extra, ChartOptions{}, QString(), QString()}, theme);

    RooflineView view() const
    {
        RooflineView v;
        v.plot = &plot;
        v.sessions = &sessions;
        v.extraRoofs = &extra;
        v.mapping = {QRectF(80, 50, 1100, 600), plot.defaultRange};
        v.groupShown.assign(plot.groups.size(), true);
        return v;
    }
};

}  // namespace

TEST(RooflineHitTest, TheInverseMappingUndoesTheMapping)
{
    const Scene scene;
    const PlotMapping m = scene.view().mapping;
    for (const QPointF value : {QPointF(0.1, 3.0), QPointF(5.75, 230.0), QPointF(683.0, 175.0)}) {
        const QPointF back = m.toValue(m.toPixel(value));
        EXPECT_NEAR(back.x() / value.x(), 1.0, 1e-9);
        EXPECT_NEAR(back.y() / value.y(), 1.0, 1e-9);
    }
}

TEST(RooflineHitTest, ADotIsHitWithinItsRadiusPlusTheSlackAndNotBeyond)
{
    const Scene scene;
    const RooflineView view = scene.view();
    const KernelResult& k = scene.sessions[0].kernels[2];  // sgemm 2048
    const QPointF centre = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
    const double reach = std::max(baseMarkerRadius(scene.theme), scene.theme.markerSize / 2.0) + kHitSlack;
    const std::optional<KernelHit> on = kernelHitAt(view, scene.theme, centre + QPointF(reach - 1.0, 0.0));
    ASSERT_TRUE(on.has_value());
    EXPECT_EQ(on->ref, (KernelRef{0, 2}));
    EXPECT_FALSE(kernelHitAt(view, scene.theme, centre + QPointF(0.0, reach + 1.0)).has_value());
    // A hidden kind is not hit.
    RooflineView hidden = view;
    for (std::size_t g = 0; g < scene.plot.groups.size(); ++g)
        hidden.groupShown[g] = scene.plot.groups[g].kind != QLatin1String("sgemm");
    const std::optional<KernelHit> under = kernelHitAt(hidden, scene.theme, centre);
    EXPECT_TRUE(!under || under->ref.kernel != 2);
}

TEST(RooflineHitTest, TheNearestRoofLineIsFoundInPixels)
{
    const Scene scene;
    const RooflineView view = scene.view();
    const QPointF onDram = view.mapping.toPixel(QPointF(0.2, 8.0));  // DRAM 40 GB/s x 0.2 FLOP/byte
    const std::optional<std::size_t> roof = roofHitAt(view, onDram + QPointF(0.0, 3.0));
    ASSERT_TRUE(roof.has_value());
    EXPECT_EQ(scene.plot.roofs[*roof].name, QStringLiteral("DRAM"));
    EXPECT_FALSE(roofHitAt(view, view.mapping.toPixel(QPointF(0.2, 12.0))).has_value());
    EXPECT_FALSE(roofHitAt(view, onDram, kHitSlack, RoofKind::Compute).has_value());
}

TEST(RooflineHitTest, TheReadoutNamesTheBindingCeilingWithUnits)
{
    const Scene scene;
    const RooflineView view = scene.view();
    const std::optional<PointerReadout> left = pointerReadout(view, view.mapping.toPixel(QPointF(0.5, 3.0)));
    ASSERT_TRUE(left.has_value());
    EXPECT_NEAR(left->roofGflops, 20.0, 0.01);  // 40 GB/s x 0.5 FLOP/byte
    EXPECT_EQ(left->where, QStringLiteral("0.50 FLOP/byte, 3.0 GFLOP/s"));
    EXPECT_EQ(left->roof, QStringLiteral("roof here 20 GFLOP/s (DRAM 40 GB/s)"));
    const std::optional<PointerReadout> right = pointerReadout(view, view.mapping.toPixel(QPointF(100.0, 3.0)));
    ASSERT_TRUE(right.has_value());
    EXPECT_EQ(right->roof, QStringLiteral("roof here 230 GFLOP/s (fp32 avx512 x2 230 GFLOP/s)"));
    EXPECT_FALSE(pointerReadout(view, QPointF(10.0, 10.0)).has_value());  // off the plot
}

TEST(RooflineHitTest, TheReadoutSitsAboveThePlotBesideTheTitleOrInsideAwayFromTheCursor)
{
    const Scene scene;
    const RooflineView view = scene.view();
    const PointerReadout readout = *pointerReadout(view, view.mapping.toPixel(QPointF(0.5, 3.0)));
    const QRectF plot = view.mapping.plot;
    const std::vector<AnnotationText> above =
        placeReadout(readout, plot, QRectF(500, 0, 200, 30), plot.center(), scene.theme);
    ASSERT_EQ(above.size(), 2u);
    for (const AnnotationText& t : above)
        EXPECT_LT(t.origin.y(), plot.top());
    // A title as wide as the chart: inside the plot, in the top corner away from a cursor on the left.
    const QPointF cursorLeft = plot.topLeft() + QPointF(50.0, 50.0);
    const std::vector<AnnotationText> inside =
        placeReadout(readout, plot, QRectF(0, 0, 1300, 40), cursorLeft, scene.theme);
    ASSERT_EQ(inside.size(), 2u);
    EXPECT_GT(inside.front().origin.y(), plot.top());
    EXPECT_GT(inside.front().origin.x(), plot.center().x());
    EXPECT_TRUE(inside.front().boxed);
}
