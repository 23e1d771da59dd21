#pragma once
// The frontier's own inputs beside the batching tab's controls: a time-to-first-token target, an inter-token latency
// target (milliseconds), each empty for none, and a price per GPU-hour (US dollars). The price field starts from the
// GPU's catalog price (the user's own, else the bundled example: withCatalogPrice), and the line under it says where
// the price comes from; a number typed there overrides it, and emptying the field goes back to it. An entry is
// checked before it is taken (the panel's check: the core rules, which name the physical minimum); a refused one
// leaves every setting as it was and says why under the fields.

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
    // Shows `settings` in the fields without emitting edited(); without a price of its own, the catalog's.
    void showSettings(const FrontierSettings& settings);
    // The GPU's price when none is typed (withCatalogPrice with none given; no price: none), shown in the field while
    // the settings have no price of their own.
    void setCatalogPrice(const CostInputs& catalog);
    // Why the last entry was refused, else empty.
    QString status() const;
    // Where the price in the field comes from: "Example price, Lambda 2026-09-20 ...", "Typed here ...", ...
    QString priceSource() const;

    QLineEdit* ttftField() const { return m_ttft; }
    QLineEdit* itlField() const { return m_itl; }
    QLineEdit* priceField() const { return m_price; }

signals:
    void edited(const FrontierSettings& settings);

private:
    void take();
    void showPriceSource();

    FrontierSettings m_settings;
    CostInputs m_catalogPrice;
    Check m_check;
    QLineEdit* m_ttft = nullptr;   // ms
    QLineEdit* m_itl = nullptr;    // ms
    QLineEdit* m_price = nullptr;  // USD per GPU-hour
    QLabel* m_priceSource = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace ridgeline::ui
