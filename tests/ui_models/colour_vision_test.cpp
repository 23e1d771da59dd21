// The charts' colours as people with the three common colour-vision deficiencies see them, and on a washed-out
// projector: kinds that share a marker, sessions and GPU roofs stay told apart, and every mark stands out from the
// plot's background.

#include "ui/plots/layout/colour_vision.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/roofline_plot.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace ridgeline::ui;

namespace {

// Told apart at a glance, whoever looks (CIE76 Delta E; about 2.3 is just noticeable side by side).
constexpr double kApart = 15.0;
// WCAG 2.1's non-text contrast for marks that must be seen.
constexpr double kMarkContrast = 3.0;

// Every kind the program draws, measured or imported.
const std::vector<QString> kKinds = {
    QStringLiteral("sgemm"),       QStringLiteral("dgemm"),       QStringLiteral("add"),
    QStringLiteral("decode"),      QStringLiteral("bf16-gemm"),   QStringLiteral("decode-fp32"),
    QStringLiteral("decode-bf16"), QStringLiteral("decode-int8"), QStringLiteral("fusion-unfused"),
    QStringLiteral("fusion"),      QStringLiteral("imported"),    QStringLiteral("training-step")};

void expectAllApart(const std::vector<std::pair<QString, QColor>>& colours, const char* what, ThemeKind theme)
{
    for (std::size_t i = 0; i < colours.size(); ++i)
        for (std::size_t j = i + 1; j < colours.size(); ++j)
            for (const ColourVision vision : kColourVisions) {
                const double d =
                    colourDifference(seenWith(colours[i].second, vision), seenWith(colours[j].second, vision));
                EXPECT_GE(d, kApart) << what << " in the " << themeKindName(theme).toStdString()
                                     << " theme: " << colours[i].first.toStdString() << " and "
                                     << colours[j].first.toStdString() << " are " << d << " apart with "
                                     << colourVisionName(vision);
            }
}

}  // namespace

TEST(ColourVision, TheSimulationKeepsGreysAndFoldsRedOntoGreenForTheRedGreenDeficiencies)
{
    for (const ColourVision vision : kColourVisions)
        for (const QColor grey : {QColor(0, 0, 0), QColor(0x80, 0x80, 0x80), QColor(255, 255, 255)})
            EXPECT_LT(colourDifference(seenWith(grey, vision), grey), 1.0) << colourVisionName(vision);
    const QColor red(0xd0, 0x30, 0x30), green(0x30, 0x90, 0x30);
    EXPECT_GT(colourDifference(red, green), 60.0);
    EXPECT_LT(colourDifference(seenWith(red, ColourVision::Deutan), seenWith(green, ColourVision::Deutan)),
              0.5 * colourDifference(red, green));
    EXPECT_LT(colourDifference(seenWith(red, ColourVision::Protan), seenWith(green, ColourVision::Protan)),
              0.5 * colourDifference(red, green));
    // Blue and yellow are what tritanopes confuse, not red and green.
    EXPECT_GT(colourDifference(seenWith(red, ColourVision::Tritan), seenWith(green, ColourVision::Tritan)), 40.0);
    // Pure red for a protanope, from the paper's matrix: dark, and no longer red (a* falls by more than half).
    const QColor seen = seenWith(QColor(255, 0, 0), ColourVision::Protan);
    EXPECT_LT(seen.lightness(), 110);
    EXPECT_NEAR(leastDifferenceSeenByAnyone(red, red), 0.0, 1e-9);
}

TEST(ColourVision, KindsThatShareAMarkerAreToldApartByEveryone)
{
    for (const ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        const ChartTheme theme = ChartTheme::make(kind);
        std::map<int, std::vector<std::pair<QString, QColor>>> byShape;
        for (const QString& k : kKinds)
            byShape[int(kernelMarkerShape(k))].emplace_back(k, theme.kernelColor(k));
        EXPECT_EQ(byShape[int(MarkerShape::Triangle)].size(), 4u) << "every precision's decode is a triangle";
        for (const auto& [shape, colours] : byShape)
            expectAllApart(colours, "kinds of one marker", kind);
    }
}

TEST(ColourVision, SessionsAndGpuRoofsAreToldApartByEveryone)
{
    for (const ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        const ChartTheme theme = ChartTheme::make(kind);
        std::vector<std::pair<QString, QColor>> sessions, gpus;
        for (int i = 0; i < 5; ++i)
            sessions.emplace_back(QStringLiteral("session %1").arg(i + 1), theme.sessionColor(i));
        for (int i = 0; i < 4; ++i)
            gpus.emplace_back(QStringLiteral("GPU roof %1").arg(i + 1), theme.extraRoofColor(i));
        expectAllApart(sessions, "sessions", kind);
        expectAllApart(gpus, "GPU roofs", kind);
    }
}

// A projector washes colours out: every mark keeps WCAG's 3:1 against the plot, every text colour 4.5:1.
TEST(ColourVision, EveryMarkAndTextStandsOutFromThePlot)
{
    for (const ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        const ChartTheme theme = ChartTheme::make(kind);
        const std::string name = themeKindName(kind).toStdString();
        for (const QString& k : kKinds)
            EXPECT_GE(contrastRatio(theme.kernelColor(k), theme.plotBackground), kMarkContrast)
                << k.toStdString() << " in " << name;
        for (int i = 0; i < 5; ++i)
            EXPECT_GE(contrastRatio(theme.sessionColor(i), theme.plotBackground), kMarkContrast) << i << name;
        for (int i = 0; i < 4; ++i)
            EXPECT_GE(contrastRatio(theme.extraRoofColor(i), theme.plotBackground), kMarkContrast) << i << name;
        for (const char* level : {"L1", "L2", "L3", "DRAM"})
            EXPECT_GE(contrastRatio(theme.bandwidthColor(QLatin1String(level)), theme.plotBackground), kMarkContrast)
                << level << " in " << name;
        EXPECT_GE(contrastRatio(theme.computeRoof, theme.plotBackground), kMarkContrast) << name;
        EXPECT_GE(contrastRatio(theme.text, theme.background), 4.5) << name;
        EXPECT_GE(contrastRatio(theme.mutedText, theme.background), 4.5) << name;
        EXPECT_GE(contrastRatio(theme.highlight, theme.plotBackground), kMarkContrast) << name;
    }
}
