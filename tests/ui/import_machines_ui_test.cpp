// Kernels that likwid recorded on other CPUs, dropped on the window over a measured session: each CPU's kernels
// come as an overlay of its own (the roofs of the table of known CPUs, or none), never on the open session's roofs;
// kernels of the open session's CPU join it; the summary ends each file with where it went.

#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/session_list_model.h"

#include <QDialog>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QUrl>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QString importFixture(const char* name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/") + QLatin1String(name);
}

void closeDialogs(QWidget& window)
{
    for (QDialog* dialog : window.findChildren<QDialog*>())
        dialog->close();
}

QStringList roofsOfSession(const RooflinePlot& plot, int session)
{
    QStringList roofs;
    for (const PlotRoof& roof : plot.roofs)
        if (roof.session == session && (roof.kind == RoofKind::Compute || roof.kind == RoofKind::Bandwidth))
            roofs << QStringLiteral("%1 %2").arg(roof.name).arg(roof.value);
    return roofs;
}

}  // namespace

TEST(UiImportMachines, LikwidKernelsOfOtherCpusComeAsOverlaysOfTheirOwnMachine)
{
    MainWindow window;
    const Session zen4 = fixtures::zen4Session();  // measured on an EPYC 9R14
    window.setSession(zen4);
    fixtures::layoutNow(window, QSize(1600, 1000));
    const int measuredRoofs = static_cast<int>(roofsOfSession(window.chart()->plot(), 0).size());
    QSignalSpy finished(&window, &MainWindow::importFinished);
    fixtures::dropFiles(window,
                        {importFixture("likwid_epyc7763_mem_dp.csv"), importFixture("likwid_unknown_cpu_ascii.txt")});
    ASSERT_EQ(finished.count(), 1);
    const QStringList summary = finished.front().at(0).toStringList();
    EXPECT_TRUE(summary.contains(
        QStringLiteral(
            "  into     a session of its own CPU, \"AMD EPYC 7763 64-Core Processor\", with the roofs of AMD EPYC 7763 "
            "from the table of known CPUs (one socket at base clock), not \"") +
        zen4.title + QStringLiteral("\"'s")))
        << summary.join(u'\n').toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("  into     a session of its own CPU, \"Intel(R) Xeon(R) Gold 6338 CPU "
                                                "@ 2.00GHz\", without roofs: no roofs "
                                                "known for Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz, not \"") +
                                 zen4.title + QStringLiteral("\"'s")))
        << summary.join(u'\n').toStdString();
    EXPECT_EQ(summary.filter(QStringLiteral("  into     ")).size(), 2);
    QDialog* dialog = window.findChild<QDialog*>(QStringLiteral("ImportSummaryDialog"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("import_other_cpus_summary.png")));
    closeDialogs(window);

    // The measured session is as it was; each CPU is an overlay beside it.
    const std::vector<OpenSession>& open = window.sessionModel()->sessions();
    ASSERT_EQ(open.size(), 3u);
    EXPECT_EQ(open[0].session.kernels.size(), zen4.kernels.size());
    EXPECT_EQ(open[1].session.machine.cpuModel, QStringLiteral("AMD EPYC 7763 64-Core Processor"));
    EXPECT_EQ(open[1].session.kernels.size(), 2u);
    EXPECT_EQ(open[2].session.kernels.size(), 1u);
    EXPECT_TRUE(open[2].session.computeCeilings.empty());
    EXPECT_TRUE(open[2].session.bandwidthCeilings.empty());

    // On the chart: the EPYC 7763's datasheet roofs as its overlay's, the 9R14's measured ones unchanged, and no roof
    // at all for the CPU the table lacks; every kernel is drawn.
    fixtures::layoutNow(window, QSize(1600, 1000));
    const RooflinePlot& plot = window.chart()->plot();
    EXPECT_EQ(static_cast<int>(roofsOfSession(plot, 0).size()), measuredRoofs);
    EXPECT_EQ(roofsOfSession(plot, 1),
              QStringList({QStringLiteral("fp64 peak, one socket at base 2.45 GHz (datasheet) 2508.8"),
                           QStringLiteral("fp32 peak, one socket at base 2.45 GHz (datasheet) 5017.6"),
                           QStringLiteral("DRAM datasheet 204.8")}));
    EXPECT_TRUE(roofsOfSession(plot, 2).isEmpty());
    EXPECT_EQ(window.chart()->kernelPointCount(), static_cast<int>(zen4.kernels.size()) + 3);
    const QString labels = window.chart()->visibleLabels().join(u' ');  // a long note wraps over lines
    EXPECT_TRUE(
        labels.contains(QStringLiteral("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz: 1 kernel without a roof, no "
                                       "roofs known for that machine")))
        << labels.toStdString();
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("import_other_cpus_1600x1000.png")));

    // A likwid run on the open session's own CPU joins it.
    fixtures::dropFiles(window, {importFixture("likwid_mem_sp_single.csv")});
    ASSERT_EQ(finished.count(), 2);
    EXPECT_TRUE(finished.back().at(0).toStringList().back().startsWith(
        QStringLiteral("  into     the session imported into, \"")))
        << finished.back().at(0).toStringList().join(u'\n').toStdString();
    closeDialogs(window);
    EXPECT_EQ(window.sessionModel()->sessions().size(), 3u);
    EXPECT_EQ(window.sessionModel()->sessions().front().session.kernels.size(), zen4.kernels.size() + 1);
}
