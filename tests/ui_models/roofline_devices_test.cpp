// GPU kernels on their GPU's roofline (ui/plots/roofline/roofline_devices.h), without a widget: the roofs of
// the GPU an Nsight Compute profile ran on (one per memory level), its kernels' markers per level and their legend, the
// note that two machines share a chart, "of roof" and the explanation against the GPU, and labels that sit next to
// their own dot.

#include "ui/plots/roofline/roofline_devices.h"
#include "core/import/import_session.h"
#include "core/import/importer.h"
#include "core/import/kernel/import_device.h"
#include "core/model/catalog/user_catalog.h"
#include "tests/ui_models/test_session.h"
#include "ui/models/kernel_table_model.h"
#include "ui/plots/layout/label_layout.h"
#include "ui/plots/roofline/point_explanation.h"
#include "ui/plots/roofline/roofline_labels.h"

#include <QFontMetricsF>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// ncu_details.csv's three kernels (saxpy, dgemm_tile, cutlass), which the file does not say ran on an A100: the
// user says so (as --device or the window's question do).
std::vector<ImportResult> ncuOnGpu(const char* gpu)
{
    const Result<std::vector<ImportResult>> read =
        importFiles({QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/ncu_details.csv")});
    EXPECT_TRUE(read.ok());
    std::vector<ImportResult> imports = read.value();
    if (gpu)
        assignGpu(imports, findGpu(QString::fromLatin1(gpu)).value(), QStringLiteral("chosen on import"));
    return imports;
}

Session gpuOnly(const char* gpu = "a100-40gb-sxm")
{
    return sessionWithImports(std::nullopt, ncuOnGpu(gpu)).value();
}

Session cpuAndGpu(const char* gpu = "a100-40gb-sxm")
{
    return sessionWithImports(fixtures::zen4Session(), ncuOnGpu(gpu)).value();
}

struct Built {
    std::vector<Session> sessions;
    std::vector<NamedRoof> extra;
    ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    RooflinePlot plot;

    explicit Built(std::vector<Session> s)
        : sessions(std::move(s)),
          plot(buildRooflinePlot({&sessions, &extra, ChartOptions{}, QString(), QString()}, theme))
    {
    }

    RooflineView view(QRectF area) const
    {
        RooflineView v;
        v.plot = &plot;
        v.sessions = &sessions;
        v.extraRoofs = &extra;
        v.mapping = {area, plot.defaultRange};
        v.groupShown = std::vector<bool>(plot.groups.size(), true);
        return v;
    }
};

const KernelResult& kernelNamed(const Session& session, const char* name)
{
    const auto found = std::find_if(session.kernels.begin(), session.kernels.end(),
                                    [&](const KernelResult& k) { return k.name == QLatin1String(name); });
    EXPECT_NE(found, session.kernels.end()) << name;
    return *found;
}

QStringList deviceRoofs(const RooflinePlot& plot)
{
    QStringList roofs;
    for (const PlotRoof& roof : plot.roofs)
        if (roof.kind == RoofKind::DeviceCompute || roof.kind == RoofKind::DeviceBandwidth)
            roofs << QStringLiteral("%1 %2").arg(roof.name).arg(roof.value);
    return roofs;
}

}  // namespace

TEST(RooflineDevices, GpuKernelsBringTheirGpusRoofsOnePerMemoryLevel)
{
    const Built b({gpuOnly()});
    // The compute roofs its kernels are held to (dgemm fp64, saxpy fp32, cutlass "mixed": the best, bf16 tensor),
    // and DRAM (HBM2, datasheet), L2 and L1 (measured), in GFLOP/s and GB/s.
    EXPECT_EQ(
        deviceRoofs(b.plot),
        QStringList({QStringLiteral("A100 40GB SXM4 bf16 tensor 312000"), QStringLiteral("A100 40GB SXM4 fp32 19500"),
                     QStringLiteral("A100 40GB SXM4 fp64 9700"), QStringLiteral("A100 40GB SXM4 HBM2 1555"),
                     QStringLiteral("A100 40GB SXM4 L2 5400"), QStringLiteral("A100 40GB SXM4 L1/shared 19100")}));
    for (const PlotRoof& roof : b.plot.roofs) {
        EXPECT_TRUE(roof.kind == RoofKind::DeviceCompute || roof.kind == RoofKind::DeviceBandwidth)
            << roof.name.toStdString();  // the import has no machine of its own
        EXPECT_EQ(roof.device, QStringLiteral("a100-40gb-sxm"));
        if (roof.kind == RoofKind::DeviceBandwidth) {
            // Each level's roof rises to the highest compute roof drawn and stops there.
            EXPECT_NEAR(roof.vertices.back().y(), 312000.0, 1e-6) << roof.name.toStdString();
            EXPECT_NEAR(roof.vertices.back().x(), 312000.0 / roof.value, 1e-9) << roof.name.toStdString();
        }
    }
    // The range holds every roof's ridge and peak.
    EXPECT_LT(b.plot.defaultRange.yMin, 7.0);  // cutlass runs at 7 GFLOP/s
    EXPECT_GT(b.plot.defaultRange.yMax, 312000.0);
    EXPECT_GT(b.plot.defaultRange.xMax, 312000.0 / 1555.0);
    // One GPU and nothing else: no note, and the ridge marker is the A100's (best peak over HBM).
    EXPECT_TRUE(b.plot.notes.isEmpty()) << b.plot.notes.join(u'|').toStdString();
    ASSERT_TRUE(b.plot.ridge.has_value());
    EXPECT_NEAR(b.plot.ridge->intensity, 312000.0 / 1555.0, 1e-9);
}

TEST(RooflineDevices, EachLevelIsAMarkerShapeTheLegendNames)
{
    const Built b({gpuOnly()});
    QStringList legend;
    int primaryPoints = 0;
    for (const KernelGroup& group : b.plot.groups) {
        EXPECT_FALSE(group.level.isEmpty()) << "every kernel here ran on the GPU: no kind group";
        EXPECT_EQ(group.shape, levelMarkerShape(group.level));
        if (group.legendVisible)
            legend << group.name;
        if (group.primary)
            primaryPoints += static_cast<int>(group.points.size());
        // Every dot has its kernel's own colour.
        EXPECT_EQ(group.pointColors.size(), group.points.size());
    }
    EXPECT_EQ(primaryPoints, 3);  // one own point per kernel, at DRAM
    EXPECT_EQ(legend,
              QStringList({QStringLiteral("GPU kernels: bytes at DRAM/HBM"), QStringLiteral("GPU kernels: bytes at L2"),
                           QStringLiteral("GPU kernels: bytes at L1/shared")}));
    EXPECT_EQ(levelMarkerShape(QStringLiteral("DRAM")), MarkerShape::Circle);
    EXPECT_EQ(levelMarkerShape(QStringLiteral("L2")), MarkerShape::Rectangle);
    EXPECT_EQ(levelMarkerShape(QStringLiteral("L1")), MarkerShape::Triangle);
    // dgemm_tile's L2 marker sits at its FLOPs over its L2 bytes, at its own GFLOP/s.
    const KernelResult& dgemm = kernelNamed(b.sessions.front(), "dgemm_tile");
    bool found = false;
    for (const KernelGroup& group : b.plot.groups)
        for (std::size_t i = 0; i < group.points.size(); ++i)
            if (group.level == QLatin1String("L2") && !group.primary &&
                b.sessions.front().kernels[static_cast<std::size_t>(group.refs[i].kernel)].name == dgemm.name) {
                EXPECT_DOUBLE_EQ(group.points[i].x(), dgemm.levels[0].intensity);
                EXPECT_DOUBLE_EQ(group.points[i].y(), dgemm.gflops);
                found = true;
            }
    EXPECT_TRUE(found);
}

// Beside a session without GPU kernels (this CPU's, or an ERT file's roofs) the key names the levels alone; with GPU
// kernels from two sessions it says whose each level is.
TEST(RooflineDevices, TheKeyNamesTheSessionOnlyWhenTwoSessionsHaveGpuKernels)
{
    const auto levelNames = [](const Built& b) {
        QStringList names;
        for (const KernelGroup& group : b.plot.groups)
            if (group.legendVisible && !group.level.isEmpty())
                names << group.name;
        return names;
    };
    const Built beside({gpuOnly(), fixtures::zen4Session()});
    EXPECT_EQ(levelNames(beside),
              QStringList({QStringLiteral("GPU kernels: bytes at DRAM/HBM"), QStringLiteral("GPU kernels: bytes at L2"),
                           QStringLiteral("GPU kernels: bytes at L1/shared")}));
    const Built two({gpuOnly(), gpuOnly("h100-sxm")});
    const QStringList names = levelNames(two);
    EXPECT_GE(names.size(), 3) << names.join(u'|').toStdString();
    for (const QString& name : names)
        EXPECT_TRUE(name.endsWith(u')')) << name.toStdString();
}

TEST(RooflineDevices, MixingMachinesIsAllowedAndSaidOnTheChart)
{
    const Built b({cpuAndGpu()});
    // This CPU's six ceilings and the A100's roofs, each as itself.
    int own = 0;
    for (const PlotRoof& roof : b.plot.roofs)
        own += roof.kind == RoofKind::Compute || roof.kind == RoofKind::Bandwidth ? 1 : 0;
    EXPECT_EQ(own, 6);
    EXPECT_EQ(deviceRoofs(b.plot).size(), 6);
    ASSERT_EQ(b.plot.notes.size(), 1);
    EXPECT_EQ(b.plot.notes.front(),
              QStringLiteral("Machines mixed on one chart: %1 (measured) and A100 40GB SXM4 (catalog). Each kernel is "
                             "held to its own machine's roofs.")
                  .arg(sessionLabel(fixtures::zen4Session())));
    // Mixed, the GPU's roofs take one colour of their own and its levels differ by line style.
    QColor gpuColour;
    for (const PlotRoof& roof : b.plot.roofs) {
        if (roof.kind != RoofKind::DeviceBandwidth)
            continue;
        gpuColour = gpuColour.isValid() ? gpuColour : roof.pen.color();
        EXPECT_EQ(roof.pen.color(), gpuColour);
    }
    // The ridge marker stays this machine's.
    ASSERT_TRUE(b.plot.ridge.has_value());
    EXPECT_NEAR(b.plot.ridge->intensity, 230.0 / 40.0, 1e-9);
    // The note is on the chart, at the top, clear of every other text.
    const RooflineAnnotations a = annotateRoofline(b.view(QRectF(80, 40, 1400, 800)), b.theme);
    const auto note = std::find_if(a.texts.begin(), a.texts.end(), [](const AnnotationText& t) {
        return t.text.startsWith(QLatin1String("Machines mixed on one chart"));
    });
    ASSERT_NE(note, a.texts.end());
    EXPECT_LT(note->origin.y(), 80.0);
    const auto box = [](const AnnotationText& t) {
        const QFontMetricsF metrics(t.font);
        return QRectF(t.origin, QSizeF(metrics.horizontalAdvance(t.text) + 2.0, metrics.height()));
    };
    for (const AnnotationText& t : a.texts)
        if (&t != &*note && t.angleDegrees == 0.0) {
            EXPECT_FALSE(box(t).intersects(box(*note))) << t.text.toStdString() << " covers the note";
        }

    // Without the GPU, the kernels are not compared with anything, and the chart says so.
    const Built unknown({sessionWithImports(fixtures::zen4Session(), ncuOnGpu(nullptr)).value()});
    EXPECT_TRUE(deviceRoofs(unknown.plot).isEmpty());
    ASSERT_EQ(unknown.plot.notes.size(), 1);
    EXPECT_TRUE(unknown.plot.notes.front().startsWith(QStringLiteral("3 GPU kernels without a roof")))
        << unknown.plot.notes.front().toStdString();
}

// "Of roof" and "explain this point" of a GPU kernel use its GPU's roof (core/session/session_roof.h kernelRoof):
// saxpy's 97.5 GFLOP/s was "1046 %" of this CPU's roof, with the advice to measure again on a quiet machine.
TEST(RooflineDevices, OfRoofAndTheExplanationOfAGpuKernelUseItsGpu)
{
    const Session session = cpuAndGpu();
    const KernelResult& saxpy = kernelNamed(session, "saxpy_kernel");
    const PointExplanation e = explainKernel(session, saxpy);
    ASSERT_TRUE(e.valid);
    EXPECT_EQ(e.machine, QStringLiteral("NVIDIA A100 40GB SXM4"));
    EXPECT_EQ(e.memoryLevel, QStringLiteral("DRAM"));
    EXPECT_DOUBLE_EQ(e.roof.bandwidthGbps, 1555.0);
    EXPECT_DOUBLE_EQ(e.roof.peakGflops, 19500.0);  // its precision, fp32
    EXPECT_EQ(e.bound, Bound::Memory);
    EXPECT_NEAR(e.percentOfAttainable, 100.0 * saxpy.gflops / (saxpy.intensity * 1555.0), 1e-9);
    EXPECT_NEAR(e.percentOfAttainable, 37.6, 0.1);
    const QString html = explanationHtml(e);
    EXPECT_TRUE(html.contains(QStringLiteral("It ran on <b>NVIDIA A100 40GB SXM4</b>"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("quiet machine"))) << html.toStdString();

    // The mixed-precision CUTLASS kernel is held to the best peak, and told it is an upper bound.
    const PointExplanation cutlass = explainKernel(session, kernelNamed(session, "cutlass::Kernel"));
    EXPECT_TRUE(cutlass.precisionFallback);
    EXPECT_DOUBLE_EQ(cutlass.roof.peakGflops, 312000.0);
    EXPECT_TRUE(explanationHtml(cutlass).contains(QStringLiteral("an upper bound")))
        << explanationHtml(cutlass).toStdString();

    // Above the GPU's roof (a faster card than the one chosen): said about the catalog, not about a busy machine.
    KernelResult fast = saxpy;
    fast.gflops = 2.0 * saxpy.intensity * 1555.0;
    const QString above = explanationHtml(explainKernel(session, fast));
    EXPECT_TRUE(above.contains(QStringLiteral("Above its GPU's catalog roof"))) << above.toStdString();
    EXPECT_FALSE(above.contains(QStringLiteral("quiet machine")));

    // The table's "of roof" is the same number.
    KernelTableModel table;
    table.setSession(session);
    const int row = static_cast<int>(&saxpy - session.kernels.data());
    EXPECT_NEAR(table.index(row, KernelTableModel::PercentOfRoof).data(KernelTableModel::SortRole).toDouble(),
                e.percentOfAttainable, 1e-9);

    // Without a GPU: no roof at all, and why.
    const Session unknown = sessionWithImports(fixtures::zen4Session(), ncuOnGpu(nullptr)).value();
    const PointExplanation none = explainKernel(unknown, kernelNamed(unknown, "saxpy_kernel"));
    EXPECT_FALSE(none.valid);
    EXPECT_TRUE(explanationHtml(none).contains(QStringLiteral("it ran on a GPU its profile does not name")))
        << explanationHtml(none).toStdString();
}

// Labels sit next to their own dot: "dgemm_tile (DRAM)" was drawn over saxpy_kernel's point. Two kernels run at the
// same ~100 GFLOP/s, so their labels compete for the same rows, and dgemm's join line runs through saxpy's dot. Every
// label is drawn, covers no marker (no other kernel's dot, no level's marker), and is either beside its own dot (the
// nearest dot of all) or tied to it by a leader that starts at its edge and crosses no other marker.
TEST(RooflineDevices, LabelsSitNextToTheirOwnDotAndCoverNoOtherMarker)
{
    for (const bool mixed : {false, true}) {
        for (const QRectF area : {QRectF(80, 40, 1400, 800), QRectF(80, 40, 1760, 900), QRectF(60, 30, 900, 560)}) {
            if (mixed && area.width() < 1000)
                continue;  // thirty labels in 900 x 560: not a slide's size
            const Built b({mixed ? cpuAndGpu() : gpuOnly()});
            const RooflineView view = b.view(area);
            const RooflineAnnotations a = annotateRoofline(view, b.theme);
            const double radius = baseMarkerRadius(b.theme);
            std::vector<QRectF> dots;
            for (const KernelResult& k : b.sessions.front().kernels) {
                const QPointF at = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
                dots.emplace_back(at.x() - radius, at.y() - radius, 2 * radius, 2 * radius);
            }
            const std::vector<QRectF> markers = kernelMarkerBoxes(view, b.theme);
            const std::string where = (mixed ? "mixed, " : "") + std::to_string(int(area.width())) + "x" +
                                      std::to_string(int(area.height())) + ": ";
            for (const char* name : {"saxpy_kernel", "dgemm_tile", "cutlass::Kernel"}) {
                const auto text = std::find_if(a.texts.begin(), a.texts.end(), [&](const AnnotationText& t) {
                    return t.text.startsWith(QLatin1String(name));
                });
                ASSERT_NE(text, a.texts.end()) << where << name << " has no label";
                const QFontMetricsF metrics(text->font);
                const QRectF rect(text->origin, QSizeF(metrics.horizontalAdvance(text->text) + 2.0, metrics.height()));
                for (const QRectF& marker : markers)
                    EXPECT_FALSE(rect.intersects(marker.adjusted(1, 1, -1, -1)))
                        << where << text->text.toStdString() << " covers a marker at " << marker.center().x() << ','
                        << marker.center().y();
                const KernelResult& kernel = kernelNamed(b.sessions.front(), name);
                const QRectF own = dots[static_cast<std::size_t>(&kernel - b.sessions.front().kernels.data())];
                const auto distance = [&](const QRectF& box) {
                    const QPointF p = box.center();
                    const double dx = std::max({rect.left() - p.x(), 0.0, p.x() - rect.right()});
                    const double dy = std::max({rect.top() - p.y(), 0.0, p.y() - rect.bottom()});
                    return std::hypot(dx, dy);
                };
                const auto leader = std::find_if(a.over.begin(), a.over.end(), [&](const AnnotationLine& line) {
                    return QLineF(line.line.p1(), own.center()).length() <= radius + 2.0 &&
                           rect.adjusted(-2, -2, 2, 2).contains(line.line.p2());
                });
                if (leader == a.over.end()) {
                    EXPECT_LE(distance(own), radius + 12.0)
                        << where << text->text.toStdString() << " is far from its dot";
                    for (const QRectF& other : dots) {
                        if (other != own) {
                            EXPECT_LT(distance(own), distance(other))
                                << where << text->text.toStdString() << " is nearer another dot at "
                                << other.center().x();
                        }
                    }
                    continue;
                }
                for (const QRectF& marker : markers) {
                    if (!marker.intersects(own)) {
                        EXPECT_FALSE(segmentIntersectsRect(leader->line, marker.adjusted(1, 1, -1, -1)))
                            << where << text->text.toStdString() << "'s leader crosses a marker at "
                            << marker.center().x() << ',' << marker.center().y();
                    }
                }
            }
        }
    }
}
