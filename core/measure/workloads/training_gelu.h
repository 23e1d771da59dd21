#pragma once
// The GELU of the measured training step (tanh form) and its derivative, inline because the fp32 and the bf16 step
// run them over every hidden value, with the FLOPs each element costs as written.
//
// The tanh is rational, t(u) = u (27 + u^2) / (27 + 9 u^2) clamped to [-1, 1], which reaches 1 at u = 3 with slope
// 0: smooth, so the backward pass has an exact derivative, and branch-free, so the passes vectorise.

namespace ridgeline::training_gelu {

inline constexpr float kSqrt2OverPi = 0.7978845608f;
inline constexpr float kCubic = 0.044715f;
// GELU's polynomial, rational and products; the backward pass's derivative times the incoming gradient; the loss's
// difference, square and scale.
inline constexpr double kGeluFlops = 12.0;
inline constexpr double kGeluBackwardFlops = 20.0;
inline constexpr double kLossFlops = 4.0;

inline float rationalTanh(float u)
{
    const float u2 = u * u;
    const float t = u * (27.0f + u2) / (27.0f + 9.0f * u2);
    const float upper = t > 1.0f ? 1.0f : t;
    return upper < -1.0f ? -1.0f : upper;
}

inline float rationalTanhDerivative(float u)
{
    const float u2 = u * u;
    const float d = 27.0f + 9.0f * u2;
    const float slope = 9.0f * (9.0f - u2) * (9.0f - u2) / (d * d);
    return u2 < 9.0f ? slope : 0.0f;
}

inline float gelu(float x)
{
    return 0.5f * x * (1.0f + rationalTanh(kSqrt2OverPi * (x + kCubic * x * x * x)));
}

inline float geluDerivative(float x)
{
    const float u = kSqrt2OverPi * (x + kCubic * x * x * x);
    return 0.5f * (1.0f + rationalTanh(u)) +
           0.5f * x * rationalTanhDerivative(u) * kSqrt2OverPi * (1.0f + 3.0f * kCubic * x * x);
}

}  // namespace ridgeline::training_gelu
