#include "ui/widgets/log_slider.h"

#include "ui/widgets/checked_spin_box.h"

#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

std::vector<std::int64_t> logSliderSteps(std::int64_t minimum, std::int64_t maximum)
{
    std::vector<std::int64_t> steps;
    minimum = std::max<std::int64_t>(1, minimum);
    maximum = std::max(minimum, maximum);
    steps.push_back(minimum);
    for (std::int64_t power = 1; power <= maximum && power <= std::numeric_limits<std::int64_t>::max() / 4;
         power *= 2) {
        for (const std::int64_t quarters : {4, 5, 6, 7}) {
            const std::int64_t v = power * quarters / 4;
            if (v > minimum && v < maximum)
                steps.push_back(v);
        }
    }
    steps.push_back(maximum);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

LogSlider::LogSlider(std::int64_t minimum, std::int64_t maximum, QWidget* parent)
    : QWidget(parent), m_steps(logSliderSteps(minimum, maximum))
{
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, static_cast<int>(m_steps.size()) - 1);
    m_slider->setPageStep(4);  // one octave
    m_spin = new CheckedSpinBox(this);
    m_spin->setRange(static_cast<int>(m_steps.front()), static_cast<int>(m_steps.back()));
    m_spin->setGroupSeparatorShown(true);
    m_spin->setKeyboardTracking(false);
    m_spin->setMinimumWidth(110);
    m_spin->setAlignment(Qt::AlignRight);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_slider, 1);
    row->addWidget(m_spin);
    m_value = m_steps.front();
    display(m_value);
    connect(m_slider, &QSlider::valueChanged, this, &LogSlider::onSliderMoved);
    connect(m_spin, &CheckedSpinBox::valueChanged, this, &LogSlider::onSpinChanged);
}

int LogSlider::nearestStep(std::int64_t value) const
{
    // Nearest on the log scale.
    int best = 0;
    double bestDistance = std::numeric_limits<double>::max();
    const double target = std::log(static_cast<double>(std::max<std::int64_t>(1, value)));
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        const double distance = std::fabs(std::log(static_cast<double>(m_steps[i])) - target);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void LogSlider::display(std::int64_t value)
{
    const QSignalBlocker blockSlider(m_slider);
    const QSignalBlocker blockSpin(m_spin);
    const int index = nearestStep(value);
    if (m_slider->value() != index)
        m_slider->setValue(index);
    if (m_spin->value() != static_cast<int>(value))
        m_spin->setValue(static_cast<int>(value));
}

void LogSlider::setValue(std::int64_t value)
{
    value = std::clamp(value, m_steps.front(), m_steps.back());
    display(value);
    if (value == m_value)
        return;
    m_value = value;
    emit valueChanged(value);
}

void LogSlider::step(int delta)
{
    const int index = std::clamp(m_slider->value() + delta, 0, static_cast<int>(m_steps.size()) - 1);
    setValue(m_steps[static_cast<std::size_t>(index)]);
}

void LogSlider::onSliderMoved(int index)
{
    setValue(m_steps[static_cast<std::size_t>(std::clamp(index, 0, static_cast<int>(m_steps.size()) - 1))]);
}

void LogSlider::onSpinChanged(int value)
{
    setValue(value);
}

}  // namespace ridgeline::ui
