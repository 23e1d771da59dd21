#pragma once
// How a colour looks to the three common colour-vision deficiencies, and how far apart two colours look: what the
// charts' palettes are checked against, so that kinds, sessions and GPUs stay told apart for about one man in
// twelve, and on a washed-out projector.

#include <QColor>

#include <array>

namespace ridgeline::ui {

enum class ColourVision { Typical, Protan, Deutan, Tritan };

inline constexpr std::array<ColourVision, 4> kColourVisions = {ColourVision::Typical, ColourVision::Protan,
                                                               ColourVision::Deutan, ColourVision::Tritan};

const char* colourVisionName(ColourVision vision);

// `color` as seen with the deficiency at full severity: Machado, Oliveira and Fernandes, "A Physiologically-based
// Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009 (their severity-1.0 matrices, applied in
// linear sRGB). Typical vision returns the colour itself.
QColor seenWith(const QColor& color, ColourVision vision);

// The CIE 1976 colour difference (Delta E*ab) of two sRGB colours in CIELAB under D65: about 2.3 is just noticeable
// side by side; two marks told apart at a glance on a chart need well over 10.
double colourDifference(const QColor& a, const QColor& b);

// The smallest difference of the two colours over typical vision and the three deficiencies.
double leastDifferenceSeenByAnyone(const QColor& a, const QColor& b);

}  // namespace ridgeline::ui
