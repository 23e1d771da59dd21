#pragma once
// A slider over a log scale of round numbers (1, 1.25, 1.5, 1.75 x powers of two: ... 8, 10, 12, 14, 16,
// 20 ...) with a spin box beside it for an exact value. The slider moves in those steps; the spin box
// takes any integer in range and the slider follows to the nearest step.

#include "ui/widgets/checked_spin_box.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QSlider;

namespace ridgeline::ui {

class LogSlider : public QWidget {
    Q_OBJECT
public:
    LogSlider(std::int64_t minimum, std::int64_t maximum, QWidget* parent = nullptr);

    std::int64_t value() const { return m_value; }
    void setValue(std::int64_t value);  // clamped to the range; emits valueChanged when it changes
    std::int64_t minimum() const { return m_steps.front(); }
    std::int64_t maximum() const { return m_steps.back(); }

    // The step values the slider moves through, ascending.
    const std::vector<std::int64_t>& steps() const { return m_steps; }
    // One slider step up (+1) or down (-1), as a key press would.
    void step(int delta);

    QSlider* slider() const { return m_slider; }
    // Out-of-range numbers typed here are refused with a message naming the range (ui/widgets/checked_spin_box.h).
    CheckedSpinBox* spinBox() const { return m_spin; }

signals:
    void valueChanged(std::int64_t value);

private:
    void onSliderMoved(int index);
    void onSpinChanged(int value);
    void display(std::int64_t value);
    int nearestStep(std::int64_t value) const;

    std::vector<std::int64_t> m_steps;
    std::int64_t m_value = 0;
    QSlider* m_slider = nullptr;
    CheckedSpinBox* m_spin = nullptr;
};

// The step values between minimum and maximum (both included).
std::vector<std::int64_t> logSliderSteps(std::int64_t minimum, std::int64_t maximum);

}  // namespace ridgeline::ui
