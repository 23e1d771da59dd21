#pragma once
// The frontier's own inputs beside the batching tab's controls: a time-to-first-token target, an inter-token latency
// target (milliseconds) and a price per GPU-hour (US dollars), each empty for none. An entry is checked before it is
// taken (the panel's check: the core rules, which name the physical minimum); a refused one leaves every setting as
// it was and says why under the fields.

#include "ui/plots/batching/frontier_chart_data.h"

#include <QGroupBox>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;

namespace ridgeline::ui {

class FrontierControls : public QGroupBox {
    Q_OBJECT
public:
    using Check = std::function<std::optional<QString>(const FrontierSettings&)>;

    explicit FrontierControls(QWidget* parent = nullptr);

    void setCheck(Check check) { m_check = std::move(check); }
    const FrontierSettings& settings() const { return m_settings; }
    // Shows `settings` in the fields without emitting edited().
    void showSettings(const FrontierSettings& settings);
    // Why the last entry was refused, else empty.
    QString status() const;

    QLineEdit* ttftField() const { return m_ttft; }
    QLineEdit* itlField() const { return m_itl; }
    QLineEdit* priceField() const { return m_price; }

signals:
    void edited(const FrontierSettings& settings);

private:
    void take();

    FrontierSettings m_settings;
    Check m_check;
    QLineEdit* m_ttft = nullptr;   // ms
    QLineEdit* m_itl = nullptr;    // ms
    QLineEdit* m_price = nullptr;  // USD per GPU-hour
    QLabel* m_status = nullptr;
};

}  // namespace ridgeline::ui
