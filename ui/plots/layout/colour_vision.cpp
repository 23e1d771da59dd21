#include "ui/plots/layout/colour_vision.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

using Matrix = std::array<std::array<double, 3>, 3>;
using Vector = std::array<double, 3>;

// Machado et al. 2009, Table 1, severity 1.0 (linear RGB in, linear RGB out).
constexpr Matrix kProtan = {
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeutan = {
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kTritan = {
    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};

double toLinear(double channel)
{
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

double toGamma(double linear)
{
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

Vector linearOf(const QColor& color)
{
    return {toLinear(color.redF()), toLinear(color.greenF()), toLinear(color.blueF())};
}

Vector lab(const QColor& color)
{
    const Vector l = linearOf(color);
    // sRGB's D65 primaries to XYZ, then CIELAB with the D65 white.
    const double x = (0.4124 * l[0] + 0.3576 * l[1] + 0.1805 * l[2]) / 0.95047;
    const double y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
    const double z = (0.0193 * l[0] + 0.1192 * l[1] + 0.9505 * l[2]) / 1.08883;
    const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

}  // namespace

const char* colourVisionName(ColourVision vision)
{
    switch (vision) {
        case ColourVision::Typical:
            return "typical";
        case ColourVision::Protan:
            return "protanopia";
        case ColourVision::Deutan:
            return "deuteranopia";
        case ColourVision::Tritan:
            return "tritanopia";
    }
    return "typical";
}

QColor seenWith(const QColor& color, ColourVision vision)
{
    const Matrix* m = vision == ColourVision::Protan   ? &kProtan
                      : vision == ColourVision::Deutan ? &kDeutan
                      : vision == ColourVision::Tritan ? &kTritan
                                                       : nullptr;
    if (!m)
        return color;
    const Vector l = linearOf(color);
    Vector out{};
    for (std::size_t i = 0; i < 3; ++i)
        out[i] = std::clamp((*m)[i][0] * l[0] + (*m)[i][1] * l[1] + (*m)[i][2] * l[2], 0.0, 1.0);
    return QColor::fromRgbF(float(toGamma(out[0])), float(toGamma(out[1])), float(toGamma(out[2])), color.alphaF());
}

double colourDifference(const QColor& a, const QColor& b)
{
    const Vector la = lab(a), lb = lab(b);
    return std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

double leastDifferenceSeenByAnyone(const QColor& a, const QColor& b)
{
    double least = colourDifference(a, b);
    for (const ColourVision vision : kColourVisions)
        least = std::min(least, colourDifference(seenWith(a, vision), seenWith(b, vision)));
    return least;
}

}  // namespace ridgeline::ui
