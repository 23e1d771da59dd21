// The batching panel's last chart row: this CPU's decode curve or a calibration series of the session, the
// calibration's fitted terms offered as the engine, and the tab kept on the setup a shown series ran.
#include "ui/chart/calibration_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/panels/batching_controls.h"
#include "ui/panels/batching_panel.h"

#include "core/bench/calibration/calibration_record_builder.h"

#include <QComboBox>
#include <QGroupBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace ridgeline::ui {

namespace {

// The tab's inputs set to what a benchmark ran (model, GPU, tensor parallel size, formats, its prompt plus output as
// the context, its largest batch); nothing when its formats are not ones this build knows.
std::optional<InferenceRequest> withSetupOf(InferenceRequest inputs, const CalibrationPoint& setup,
                                            std::int64_t largestBatch)
{
    const std::optional<NumberFormat> weights = parseNumberFormat(setup.weights);
    const std::optional<NumberFormat> kv = parseNumberFormat(setup.kv);
    if (!weights || !kv)
        return std::nullopt;
    inputs.modelId = setup.model;
    inputs.customShape.reset();
    inputs.gpuId = setup.gpu;
    inputs.linkId.clear();
    inputs.gpus = setup.tensorParallel;
    inputs.weights = *weights;
    inputs.kv = *kv;
    inputs.context = std::max<std::int64_t>(1, setup.prompt + setup.output);
    inputs.batch = std::max<std::int64_t>(1, largestBatch);
    return inputs;
}

// Whether the tab shows the machine and model a benchmark ran: its curves are drawn for that setup only.
bool showsSetupOf(const InferenceRequest& inputs, const CalibrationPoint& setup)
{
    return !inputs.customShape && inputs.modelId == setup.model && inputs.gpuId == setup.gpu &&
           inputs.gpus == setup.tensorParallel && parseNumberFormat(setup.weights) == inputs.weights &&
           parseNumberFormat(setup.kv) == inputs.kv;
}

QStringList seriesNames(const CalibrationChartData& data)
{
    QStringList names;
    for (const CalibrationCurveData& series : data.series)
        names << series.name;
    return names;
}

}  // namespace

// What the last chart row holds: this CPU's decode curve, or one of the session's calibration series (the person
// chooses; a session with a calibration starts on its first series). Shown only when there is a calibration.
QGroupBox* BatchingPanel::createCalibrationGroup(QWidget* parent)
{
    m_calibrationGroup = new QGroupBox(tr("Measured against the model"), parent);
    m_calibrationGroup->setFont(pixelFont(17, true));
    auto* layout = new QVBoxLayout(m_calibrationGroup);
    m_calibrationChooser = new QComboBox;
    m_calibrationChooser->setObjectName(QStringLiteral("batchingCalibrationSeries"));
    m_calibrationChooser->setFont(pixelFont(16));
    m_calibrationChooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_calibrationChooser->setToolTip(
        tr("This CPU's decode curve, or a series of your benchmark runs (a calibration "
           "in the session) over the model's curves before and after the fit"));
    layout->addWidget(m_calibrationChooser);
    connect(m_calibrationChooser, &QComboBox::activated, this, [this](int index) { showCalibration(index); });
    // Takes the shown series' calibration out of the session (Edit > Undo puts it back).
    m_removeCalibration = new QPushButton(tr("Remove This Calibration"));
    m_removeCalibration->setObjectName(QStringLiteral("batchingRemoveCalibration"));
    m_removeCalibration->setFont(pixelFont(15));
    m_removeCalibration->setToolTip(tr("Take this calibration out of the session (Edit > Undo puts it back)"));
    layout->addWidget(m_removeCalibration, 0, Qt::AlignLeft);
    connect(m_removeCalibration, &QPushButton::clicked, this, [this] {
        const int index = m_calibrationChooser->currentIndex();
        if (index < 1)
            return;
        const auto series = static_cast<std::size_t>(index - 1);
        emit removeCalibrationRequested(
            series < m_calibrations.series.size() ? static_cast<int>(m_calibrations.series[series].calibration) : 0);
    });
    m_calibrationGroup->hide();
    return m_calibrationGroup;
}

// 0: this CPU's curve; 1 + i: the i-th calibration series. A series is drawn with the tab set to the setup it ran,
// so the charts above it and its curves are the same model on the same machine.
void BatchingPanel::showCalibration(int index)
{
    m_shownSeries = -1;
    if (index >= 1 && static_cast<std::size_t>(index) <= m_calibrations.series.size()) {
        const CalibrationCurveData& series = m_calibrations.series[static_cast<std::size_t>(index - 1)];
        if (!showsSetupOf(m_inputs, series.setup))
            if (const std::optional<InferenceRequest> inputs = withSetupOf(m_inputs, series.setup, series.largestBatch))
                setInputs(*inputs);
        // A setup the tab cannot show (a tensor parallel size beyond its slider): this CPU's curve instead.
        if (!showsSetupOf(m_inputs, series.setup))
            index = 0;
        else {
            m_calibrationChart->setData(series);
            m_shownSeries = index - 1;
        }
    } else if (index >= 1)
        m_calibrationChart->showMessage(m_calibrations.reason);
    const bool calibration = index >= 1;
    m_calibrationChart->setVisible(calibration);
    m_cpu->setVisible(!calibration);
    m_removeCalibration->setEnabled(calibration);
    if (m_calibrationChooser->currentIndex() != index && index < m_calibrationChooser->count())
        m_calibrationChooser->setCurrentIndex(index);
}

void BatchingPanel::showNewestCalibration(const Calibration& calibration)
{
    if (m_calibrationChooser->count() > 1)
        showCalibration(m_calibrationChooser->count() - 1);
    if (calibration.points.empty())
        return;
    std::int64_t largest = 1;
    for (const CalibrationPoint& point : calibration.points)
        largest = std::max(largest, point.batch);
    std::optional<InferenceRequest> setup = withSetupOf(m_inputs, calibration.points.front(), largest);
    if (!setup)
        return;
    InferenceRequest& inputs = *setup;
    if (m_calibratedTerms) {
        inputs.engine.clear();
        inputs.terms = m_calibratedTerms;
    }
    setInputs(inputs);
}

void BatchingPanel::setSession(const Session& session)
{
    m_cpu->setData(predictCpuBatching(session));
    const CalibrationChartData previous = m_calibrations;
    m_calibrations = calibrationChartData(session);
    // The engine choice offers the newest calibration's fitted terms (the one the Calibrate dialog just added),
    // named by its first benchmark file.
    std::optional<EngineTerms> fitted;
    QString name;
    if (!session.calibrations.empty()) {
        const Calibration& newest = session.calibrations.back();
        if (const Result<EngineTerms> terms = fittedTerms(newest)) {
            fitted = terms.value();
            name = newest.points.empty() ? tr("your calibration") : newest.points.front().file;
        }
    }
    offerCalibratedTerms(fitted, name);
    // The same series again (the session changed elsewhere): the row keeps what the person chose; new series: the
    // first is shown, and the tab goes to its setup.
    const int shownBefore = m_calibrationChooser->currentIndex();
    const bool sameSeries = !m_calibrations.series.empty() && seriesNames(m_calibrations) == seriesNames(previous);
    m_calibrationChooser->clear();
    m_calibrationChooser->addItem(tr("This CPU: decode measured vs roofline"));
    for (const CalibrationCurveData& series : m_calibrations.series)
        m_calibrationChooser->addItem(series.name);
    // A calibration the model cannot redraw is said where its chart would be.
    if (!m_calibrations.valid && !session.calibrations.empty())
        m_calibrationChooser->addItem(tr("Your calibration (cannot be drawn)"));
    m_calibrationGroup->setVisible(!session.calibrations.empty());
    showCalibration(session.calibrations.empty() ? 0 : (sameSeries && shownBefore >= 0 ? shownBefore : 1));
    showSessionEngine(session.engine);
}

// A model drawn with a calibration's terms goes back to the default terms when that calibration goes.
void BatchingPanel::offerCalibratedTerms(const std::optional<EngineTerms>& terms, const QString& name)
{
    const bool usedGone = m_calibratedTerms && m_inputs.engine.isEmpty() && m_inputs.terms == m_calibratedTerms &&
                          terms != m_calibratedTerms;
    m_calibratedTerms = terms;
    m_controls->setCalibratedTerms(terms, name);
    if (usedGone) {
        setEngineChoice(m_inputs, kDefaultEngineChoice);
        syncControls();
        recompute();
    }
}

void BatchingPanel::clearSession()
{
    CpuBatchingData none;
    none.reason = tr("Open or measure a session to see this CPU's batching curve.");
    m_cpu->setData(none);
    m_calibrations = CalibrationChartData{};
    offerCalibratedTerms(std::nullopt, QString());
    m_calibrationChooser->clear();
    m_calibrationGroup->hide();
    showCalibration(0);
}

// A benchmark's curves belong to the setup it ran: when the person leaves that setup, the row goes back to this
// CPU's curve rather than draw a model of one machine under the charts of another.
void BatchingPanel::keepCalibrationWithItsSetup()
{
    if (m_shownSeries >= 0 && static_cast<std::size_t>(m_shownSeries) < m_calibrations.series.size() &&
        !showsSetupOf(m_inputs, m_calibrations.series[static_cast<std::size_t>(m_shownSeries)].setup))
        showCalibration(0);
}

}  // namespace ridgeline::ui
