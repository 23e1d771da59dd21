#include "ui/plots/layout/chart_theme.h"

#include <array>
#include <cmath>

namespace ridgeline::ui {

QFont pixelFont(int pixelSize, bool bold)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(pixelSize);
    f.setBold(bold);
    return f;
}

bool parseThemeKind(const QString& text, ThemeKind* kind)
{
    const QString lower = text.trimmed().toLower();
    if (lower == QLatin1String("light")) {
        *kind = ThemeKind::Light;
        return true;
    }
    if (lower == QLatin1String("dark")) {
        *kind = ThemeKind::Dark;
        return true;
    }
    return false;
}

QString themeKindName(ThemeKind kind)
{
    return kind == ThemeKind::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

ChartTheme ChartTheme::make(ThemeKind kind)
{
    ChartTheme t;
    t.kind = kind;
    if (kind == ThemeKind::Light) {
        t.background = QColor(0xff, 0xff, 0xff);
        t.plotBackground = QColor(0xff, 0xff, 0xff);
        t.text = QColor(0x1a, 0x1a, 0x1a);
        t.mutedText = QColor(0x55, 0x55, 0x55);
        t.grid = QColor(0xd0, 0xd0, 0xd0);
        t.minorGrid = QColor(0xee, 0xee, 0xee);
        t.computeRoof = QColor(0x20, 0x20, 0x20);
        t.memoryRegion = QColor(0x3b, 0x75, 0xc4, 28);
        t.computeRegion = QColor(0xe0, 0x7b, 0x20, 28);
        t.isoEfficiency = QColor(0x80, 0x80, 0x80);
        t.highlight = QColor(0xd0, 0x10, 0x50);
        t.regression = QColor(0xb0, 0x1e, 0x16);
        t.improvement = QColor(0x12, 0x6e, 0x36);
    } else {
        t.background = QColor(0x1c, 0x1e, 0x22);
        t.plotBackground = QColor(0x1c, 0x1e, 0x22);
        t.text = QColor(0xee, 0xee, 0xee);
        t.mutedText = QColor(0xaa, 0xaa, 0xaa);
        t.grid = QColor(0x48, 0x4c, 0x54);
        t.minorGrid = QColor(0x2c, 0x2f, 0x35);
        t.computeRoof = QColor(0xf2, 0xf2, 0xf2);
        t.memoryRegion = QColor(0x5a, 0x9b, 0xf0, 36);
        t.computeRegion = QColor(0xf0, 0x9a, 0x40, 36);
        t.isoEfficiency = QColor(0x90, 0x90, 0x90);
        t.highlight = QColor(0xff, 0x5c, 0x8a);
        t.regression = QColor(0xff, 0x80, 0x74);
        t.improvement = QColor(0x5f, 0xd6, 0x8a);
    }
    t.titleFont = pixelFont(22, true);
    t.axisTitleFont = pixelFont(19);
    t.axisLabelFont = pixelFont(17);
    t.ceilingLabelFont = pixelFont(17);
    t.kernelLabelFont = pixelFont(16);
    t.legendFont = pixelFont(17);
    return t;
}

QColor ChartTheme::bandwidthColor(const QString& level) const
{
    // One hue, lighter for the faster (closer) levels: DRAM is the roof most kernels hit. Even L1, the lightest,
    // keeps contrast 3 on white, so a projector that washes colours out still shows it.
    const bool light = kind == ThemeKind::Light;
    if (level == QLatin1String("L1"))
        return light ? QColor(0x5b, 0x95, 0xd6) : QColor(0xb4, 0xd4, 0xf7);
    if (level == QLatin1String("L2"))
        return light ? QColor(0x3a, 0x7b, 0xd5) : QColor(0x8e, 0xbd, 0xf2);
    if (level == QLatin1String("L3"))
        return light ? QColor(0x2c, 0x62, 0xb0) : QColor(0x6c, 0xa6, 0xee);
    // Dark: light enough to stand out from the background (contrast 5.2, above the 3 lines need), the most
    // saturated of the four so it still reads as the deepest level.
    return light ? QColor(0x10, 0x3f, 0x8a) : QColor(0x4a, 0x90, 0xf2);
}

QColor ChartTheme::kernelColor(const QString& kindName) const
{
    // Okabe-Ito: distinguishable with the common colour-vision deficiencies, and away from the roof blues.
    const bool light = kind == ThemeKind::Light;
    if (kindName == QLatin1String("sgemm"))
        return QColor(0xd5, 0x5e, 0x00);
    if (kindName == QLatin1String("dgemm"))
        return QColor(0xcc, 0x79, 0xa7);
    if (kindName == QLatin1String("add"))
        return QColor(0x00, 0x9e, 0x73);
    if (kindName == QLatin1String("decode"))
        return light ? QColor(0xc6, 0x88, 0x00) : QColor(0xf0, 0xc4, 0x42);
    // The low precisions: the bf16 matrix product blue beside sgemm's vermillion; decode by weights with
    // fp32 a darker amber (light) or brick red (dark) beside OpenBLAS's decode, bf16 cyan, int8 violet. The four
    // decode kinds share the triangle, so colour alone tells them apart: at least 15 Delta E in every colour
    // vision (colour_vision.h), which the earlier purple int8 missed beside cyan for deuteranopes (5.0).
    if (kindName == QLatin1String("bf16-gemm"))
        return light ? QColor(0x00, 0x72, 0xb2) : QColor(0x56, 0xb4, 0xe9);
    if (kindName == QLatin1String("decode-fp32"))
        return light ? QColor(0x9a, 0x62, 0x00) : QColor(0xcc, 0x55, 0x44);
    if (kindName == QLatin1String("decode-bf16"))
        return light ? QColor(0x00, 0x70, 0x7a) : QColor(0x4f, 0xd1, 0xdc);
    if (kindName == QLatin1String("decode-int8"))
        return light ? QColor(0x66, 0x00, 0xbb) : QColor(0x99, 0x66, 0xff);
    // Fusion: the unfused chain in grey (before), the fused kernel in purple (after).
    if (kindName == QLatin1String("fusion-unfused"))
        return light ? QColor(0x80, 0x80, 0x80) : QColor(0xa8, 0xa8, 0xa8);
    if (kindName.startsWith(QLatin1String("fusion")))
        return light ? QColor(0x7b, 0x32, 0x94) : QColor(0xc2, 0x8b, 0xe0);
    // The training step measured here (a forward, backward and update of an MLP): sienna / light green, apart from
    // the other round markers in every colour vision.
    if (kindName == QLatin1String("training-step"))
        return light ? QColor(0xa0, 0x52, 0x2d) : QColor(0x98, 0xdf, 0x8a);
    // Kernels from a profiler: ink, so they read as the user's own data over any roof colour.
    if (kindName == QLatin1String("imported"))
        return light ? QColor(0x22, 0x22, 0x22) : QColor(0xf0, 0xf0, 0xf0);
    return light ? QColor(0x66, 0x66, 0x66) : QColor(0xbb, 0xbb, 0xbb);
}

QColor ChartTheme::sessionColor(int index) const
{
    const bool light = kind == ThemeKind::Light;
    // Told apart by everyone (at least 15 Delta E in every colour vision, colour_vision.h) and seen on either
    // background (contrast 3 or more).
    static const std::array<QColor, 5> kLight = {QColor(0x10, 0x3f, 0x8a), QColor(0xc0, 0x39, 0x2b),
                                                 QColor(0x1e, 0x8a, 0x4c), QColor(0x8a, 0x2b, 0xe2),
                                                 QColor(0xb9, 0x77, 0x0e)};
    static const std::array<QColor, 5> kDark = {QColor(0x5a, 0x9b, 0xf0), QColor(0xff, 0x6b, 0x5b),
                                                QColor(0x4c, 0xd1, 0x85), QColor(0x8c, 0x6c, 0xff),
                                                QColor(0xf5, 0xb0, 0x41)};
    const std::size_t i = static_cast<std::size_t>(index < 0 ? 0 : index) % kLight.size();
    return light ? kLight[i] : kDark[i];
}

QColor ChartTheme::extraRoofColor(int index) const
{
    const bool light = kind == ThemeKind::Light;
    // As the session colours: told apart in every colour vision, seen on either background.
    static const std::array<QColor, 4> kLight = {QColor(0x2e, 0x7d, 0x32), QColor(0xad, 0x14, 0x57),
                                                 QColor(0x45, 0x27, 0xa0), QColor(0xef, 0x6c, 0x00)};
    static const std::array<QColor, 4> kDark = {QColor(0x81, 0xc7, 0x84), QColor(0xf0, 0x62, 0x92),
                                                QColor(0x4d, 0xd0, 0xe1), QColor(0xff, 0xb7, 0x4d)};
    const std::size_t i = static_cast<std::size_t>(index < 0 ? 0 : index) % kLight.size();
    return light ? kLight[i] : kDark[i];
}

QPalette windowPalette(ThemeKind kind)
{
    const ChartTheme t = ChartTheme::make(kind);
    QPalette p;
    const bool dark = kind == ThemeKind::Dark;
    const QColor window = dark ? QColor(0x26, 0x29, 0x2e) : QColor(0xef, 0xef, 0xef);
    const QColor base = t.background;
    const QColor alternate = dark ? QColor(0x23, 0x26, 0x2b) : QColor(0xf7, 0xf7, 0xf7);
    const QColor button = dark ? QColor(0x33, 0x37, 0x3e) : QColor(0xe6, 0xe6, 0xe6);
    const QColor disabled = dark ? QColor(0x80, 0x80, 0x80) : QColor(0x9a, 0x9a, 0x9a);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, t.text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, t.text);
    p.setColor(QPalette::PlaceholderText, t.mutedText);
    p.setColor(QPalette::Text, t.text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, t.text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x5c, 0x5c));
    p.setColor(QPalette::Light, button.lighter(150));
    p.setColor(QPalette::Midlight, button.lighter(120));
    p.setColor(QPalette::Mid, button.darker(130));
    p.setColor(QPalette::Dark, button.darker(170));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    p.setColor(QPalette::Highlight, dark ? QColor(0x2d, 0x5f, 0xa8) : QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, t.bandwidthColor(QStringLiteral("L2")));
    p.setColor(QPalette::LinkVisited, t.bandwidthColor(QStringLiteral("L3")));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& color, const QColor& background)
{
    constexpr double kText = 4.5;
    const bool darkBackground = background.lightnessF() < 0.5;
    QColor c = color;
    for (int step = 0; step < 20 && contrastRatio(c, background) < kText; ++step)
        c = darkBackground ? c.lighter(110) : c.darker(110);
    return c;
}

QColor ChartTheme::rowTint(const QColor& color) const
{
    QColor tint = color;
    tint.setAlpha(kind == ThemeKind::Light ? 34 : 52);
    return tint;
}

QPalette themedPalette(const ChartTheme& theme, QPalette p)
{
    const bool dark = theme.kind == ThemeKind::Dark;
    const QColor base = dark ? QColor(0x2a, 0x2d, 0x33) : QColor(0xff, 0xff, 0xff);
    const QColor button = dark ? QColor(0x33, 0x37, 0x3e) : QColor(0xf0, 0xf0, 0xf0);
    p.setColor(QPalette::Window, theme.background);
    p.setColor(QPalette::WindowText, theme.text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, button);
    p.setColor(QPalette::Text, theme.text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, theme.text);
    p.setColor(QPalette::Highlight, theme.sessionColor(0));
    p.setColor(QPalette::HighlightedText, dark ? QColor(0x10, 0x10, 0x10) : QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, theme.text);
    p.setColor(QPalette::Disabled, QPalette::Text, theme.mutedText);
    p.setColor(QPalette::Disabled, QPalette::WindowText, theme.mutedText);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, theme.mutedText);
    p.setColor(QPalette::Mid, theme.grid);
    return p;
}

}  // namespace ridgeline::ui
