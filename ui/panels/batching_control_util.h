#pragma once
// Small helpers the batching tab's control groups share: the storage formats a combo offers, and setters that
// leave a control alone when it already shows the value (setting it again would repaint it on every slider step).

#include "core/model/llm/inference_request.h"
#include "core/model/number_format.h"
#include "ui/plots/layout/chart_theme.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QWidget>

#include <array>
#include <cmath>

namespace ridgeline::ui {

// Every format weights or a KV cache can be stored in, as `ridgeline model` takes them.
inline constexpr std::array kPanelStorageFormats = {NumberFormat::Fp32, NumberFormat::Bf16, NumberFormat::Fp16,
                                                    NumberFormat::Fp8,  NumberFormat::Int8, NumberFormat::Int4,
                                                    NumberFormat::Fp4,  NumberFormat::Mxfp4};

inline QString panelFormatLabel(NumberFormat f)
{
    switch (f) {
        case NumberFormat::Int4:
            return QStringLiteral("int4 (AWQ/GPTQ, 4.25 bits)");
        case NumberFormat::Fp4:
            return QStringLiteral("fp4 (NVFP4, 4.5 bits)");
        case NumberFormat::Mxfp4:
            return QStringLiteral("mxfp4 (4.25 bits)");
        default:
            return numberFormatName(f);
    }
}

inline void fillFormats(QComboBox* box)
{
    for (const NumberFormat f : kPanelStorageFormats)
        box->addItem(panelFormatLabel(f), static_cast<int>(f));
}

inline void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    if (index >= 0 && index != box->currentIndex())
        box->setCurrentIndex(index);
}

inline void setSpin(QDoubleSpinBox* spin, double value)
{
    if (std::fabs(spin->value() - value) > 0.5 * std::pow(10.0, -spin->decimals()))
        spin->setValue(value);
}

inline void setSpin(QSpinBox* spin, int value)
{
    if (spin->value() != value)
        spin->setValue(value);
}

inline void setEnabledIfChanged(QWidget* widget, bool enabled)
{
    if (widget->isEnabled() != enabled)
        widget->setEnabled(enabled);
}

// A control's slot that edits a copy of the request its group shows (`apply(request, the signal's arguments)`) and
// hands the copy to `handOn`; nothing while the group writes its controls itself (`syncing`, showRequest()).
template <class Apply, class HandOn>
auto requestEdit(const bool& syncing, const InferenceRequest& shown, Apply apply, HandOn handOn)
{
    return [&syncing, &shown, apply, handOn](auto... args) {
        if (syncing)
            return;
        InferenceRequest edited = shown;
        apply(edited, args...);
        handOn(edited);
    };
}

// The controls' own font, whatever the group box's bold title font.
inline QWidget* plain(QWidget* w)
{
    w->setFont(pixelFont(16));
    return w;
}

}  // namespace ridgeline::ui
