#pragma once
// The Training tab: one training step of a model on GPUs (core/model/training). Controls on the left; a header with
// tokens/s, MFU and the step time; the memory per GPU against the card; the step's time split; the cheapest move that
// makes it fit when it does not; and the machine with each collective coloured by the link it crosses. Every change
// recomputes synchronously (the model evaluates in microseconds). A configuration the core refuses shows the core's
// message and leaves the last valid picture in place.

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/training/training_view.h"

#include <QWidget>

#include <optional>

namespace ridgeline::ui {

class TextBlock;
class TrainingBar;
class TrainingControls;
class TrainingHierarchy;

class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPanel(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    ThemeKind theme() const { return m_theme; }
    const TrainingRequest& request() const { return m_request; }
    void setRequest(const TrainingRequest& request);

    // The last configuration the core computed (the one the pictures show); nothing before the first.
    const std::optional<TrainingView>& view() const { return m_view; }
    QString headlineText() const;
    QString detailText() const;
    // The core's message when it refused the request shown in the controls, else empty.
    QString errorText() const;
    QString fixText() const;
    QStringList noteTexts() const;

    TrainingControls* controls() const { return m_controls; }
    TrainingBar* memoryBar() const { return m_memory; }
    TrainingBar* timeBar() const { return m_time; }
    TrainingHierarchy* hierarchy() const { return m_hierarchy; }

signals:
    // After every recompute and redraw request.
    void recomputed();

private:
    void recompute();
    void applyPalette();

    TrainingRequest m_request;
    std::optional<TrainingView> m_view;
    QString m_error;
    ThemeKind m_theme = ThemeKind::Light;

    TrainingControls* m_controls = nullptr;
    TextBlock* m_headline = nullptr;
    TextBlock* m_detail = nullptr;
    TextBlock* m_errorBlock = nullptr;
    TrainingBar* m_memory = nullptr;
    TrainingBar* m_time = nullptr;
    TextBlock* m_fix = nullptr;
    TrainingHierarchy* m_hierarchy = nullptr;
    TextBlock* m_notes = nullptr;
};

}  // namespace ridgeline::ui
