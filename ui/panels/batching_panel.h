#pragma once
// The batching and KV-cache explorer: sliders for batch, context, model, precisions, GPU and GPU
// count; tokens/s and step time against batch (or, switched, tokens/s per GPU against per user), the memory bar, the
// decode step moving on the GPU's roofline, and this CPU's measured batching curve against its roofline prediction.
// Every change recomputes synchronously (the model evaluates in microseconds) and redraws only what moved.

#include "core/session/session.h"
#include "ui/plots/batching/batching_calibration.h"
#include "ui/plots/batching/batching_scenario.h"
#include "ui/plots/batching/frontier_chart_data.h"
#include "ui/plots/layout/chart_theme.h"

#include <QWidget>

class QComboBox;
class QPushButton;
class QGridLayout;
class QTabBar;
class QHBoxLayout;
class QGroupBox;

namespace ridgeline::ui {

class BatchingCatalogActions;
class BatchingControls;
class BatchThroughputChart;
class CalibrationChart;
class CpuBatchingChart;
class DecodeRooflineChart;
class FrontierChart;
class FrontierControls;
class LogSlider;
class MemoryBar;
class StepBreakdownBar;
class TextBlock;

class BatchingPanel : public QWidget {
    Q_OBJECT
public:
    explicit BatchingPanel(QWidget* parent = nullptr);
    ~BatchingPanel() override;

    // The measured CPU curve, the calibrations and the engine come from here (the roofline window's primary
    // session): the session's engine is chosen when it differs from the one the tab last showed or handed on.
    void setSession(const Session& session);
    void clearSession();
    // After the Calibrate dialog added `calibration` (the session's newest, already given by setSession): its last
    // series in the chart row, and the tab set to what it measured (model, GPU, tensor parallel size, formats,
    // context, the largest batch) with its fitted terms, so the curves above are the ones the fit describes.
    void showNewestCalibration(const Calibration& calibration);
    void setTheme(ThemeKind theme);
    ThemeKind theme() const { return m_theme; }

    // Everything at once (one recompute), or one input at a time; the controls follow.
    const InferenceRequest& inputs() const { return m_inputs; }
    void setInputs(const InferenceRequest& inputs);
    void setBatch(std::int64_t batch);
    void setContext(std::int64_t context);
    void setModel(const QString& id);          // catalog id or kCustomId
    void setCustomModelParams(double params);  // selects the custom model
    void setWeightsFormat(NumberFormat format);
    void setKvFormat(NumberFormat format);
    void setGpu(const QString& id);  // catalog id or kCustomId; picks the GPU's own link
    void setCustomGpu(double peakTflops, double bandwidthTbs, double memoryGib);  // selects the custom GPU
    void setGpuCount(int gpus);
    void setLink(const QString& id);  // empty: the GPU's own link
    void setIdeal(bool ideal);        // off: the default engine terms (setEngineChoice, kDefaultEngineChoice)

    const BatchingScenario& scenario() const { return m_scenario; }
    QString headlineText() const;
    QString detailText() const;
    QString takeawayText() const;
    // What the panel warns about (weights that do not fit, context beyond training, ...), one sentence each.
    QStringList warningTexts() const;
    // The model's error message when it refused the inputs, else empty.
    QString errorText() const;
    // Every text the panel shows: labels, chart titles and annotations, memory bar: for tests.
    QStringList visibleTexts() const;

    LogSlider* batchSlider() const;
    LogSlider* contextSlider() const;
    BatchThroughputChart* throughputChart() const { return m_throughput; }
    DecodeRooflineChart* rooflineChart() const { return m_roofline; }
    MemoryBar* memoryBar() const { return m_memory; }
    CpuBatchingChart* cpuChart() const { return m_cpu; }
    StepBreakdownBar* breakdownBar() const { return m_breakdown; }
    CalibrationChart* calibrationChart() const { return m_calibrationChart; }
    FrontierChart* frontierChart() const { return m_frontier; }
    // "Throughput | Frontier" under the batch slider: which of the two fills the left chart's slot.
    QTabBar* chartSwitch() const { return m_chartSwitch; }
    void showFrontier(bool frontier);
    bool frontierShown() const;
    // The frontier's targets and price (empty: none), under the switch while the frontier is shown. Set here, they
    // are taken as they are; typed into the fields, they are checked first (checkFrontierSettings).
    FrontierControls* frontierControls() const { return m_frontierControls; }
    void setFrontierSettings(const FrontierSettings& settings);
    BatchingControls* controls() const { return m_controls; }
    // The session's calibration series the tab can draw (empty without a calibration) and which one it draws.
    const CalibrationChartData& calibrations() const { return m_calibrations; }
    QComboBox* calibrationChooser() const { return m_calibrationChooser; }
    // True when the panel is too narrow for its two charts side by side and shows them one above the other.
    bool chartsStacked() const { return m_stacked; }
    // A slide lays the charts out side by side at any size (default: stack them when narrow).
    void setStackWhenNarrow(bool stack);

signals:
    // After every recompute and redraw request.
    void scenarioChanged();
    // "Remove This Calibration": the session's calibration `index` (the one whose series is shown).
    void removeCalibrationRequested(int index);
    // A person chose another engine (NAME[@VERSION] as sessions keep it; empty: the default, or no engine profile
    // at all: the plain roofline, the datasheet, a calibration's fit).
    void engineChanged(const QString& engine);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* createControls();
    QGroupBox* createCalibrationGroup(QWidget* parent);
    void showCalibration(int index);
    void keepCalibrationWithItsSetup();  // this CPU's curve when the tab leaves the shown series' setup
    void offerCalibratedTerms(const std::optional<EngineTerms>& terms, const QString& name);
    void showSessionEngine(const QString& engine);
    void arrangeCharts(bool stacked);
    void syncControls();
    void recompute();
    void updateFrontier();
    QWidget* createFrontierControls(QWidget* parent);
    void applyPalette();
    void updateTexts();

    InferenceRequest m_inputs;
    BatchingScenario m_scenario;
    ThemeKind m_theme = ThemeKind::Light;
    bool m_syncing = false;
    bool m_stacked = false;
    bool m_stackWhenNarrow = true;
    QGridLayout* m_charts = nullptr;
    QHBoxLayout* m_bars = nullptr;  // the memory bar and, beside it, where the step's time goes

    BatchingControls* m_controls = nullptr;

    TextBlock* m_headline = nullptr;
    TextBlock* m_detail = nullptr;
    TextBlock* m_warnings = nullptr;
    TextBlock* m_takeaway = nullptr;
    BatchThroughputChart* m_throughput = nullptr;
    DecodeRooflineChart* m_roofline = nullptr;
    MemoryBar* m_memory = nullptr;
    CpuBatchingChart* m_cpu = nullptr;
    StepBreakdownBar* m_breakdown = nullptr;
    CalibrationChart* m_calibrationChart = nullptr;
    FrontierChart* m_frontier = nullptr;  // tokens/s per GPU against tokens/s per user over the batch
    QTabBar* m_chartSwitch = nullptr;
    FrontierControls* m_frontierControls = nullptr;
    CalibrationChartData m_calibrations;
    int m_shownSeries = -1;                        // the calibration series in the last chart row, -1: this CPU's curve
    std::optional<EngineTerms> m_calibratedTerms;  // the newest calibration's fit, offered as the engine terms
    QString m_sessionEngine;                       // the engine last taken from a session or handed on to it
    QGroupBox* m_calibrationGroup = nullptr;
    QComboBox* m_calibrationChooser = nullptr;
    QPushButton* m_removeCalibration = nullptr;
    BatchingCatalogActions* m_catalogActions = nullptr;
};

}  // namespace ridgeline::ui
