#pragma once
// The window's before/after comparison as a table: core's compareSessions (the one home of the
// verdict rule, shared with `ridgeline compare`) turned into rows a performance engineer reads: section, what is
// compared, before and after with their unit, change, noise and verdict, regressions and improvements coloured
// from the chart theme. It keeps both sessions, so the threshold and the swap recompute without reading a file.

#include "core/session/session_compare.h"
#include "ui/plots/layout/chart_theme.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>

namespace ridgeline::ui {

// One side of the comparison: the session and what to call it ("zen4-before.json").
struct ComparisonSide {
    Session session;
    QString name;
};

// "229.7 GFLOP/s" (four significant digits: a 5 % change stays visible), "—" for a missing side.
QString comparedValueText(const std::optional<ComparedSide>& side, const QString& unit);
// "2.1 %" (the larger spread of the two sides), "n/a" when neither side recorded one.
QString noiseText(const std::optional<double>& noisePercent);
// "−20 %", "+25 %" (formatPercentChange), "0 %" for no change, "—" when a side is missing.
QString changeText(const ComparisonRow& row);
// "2 regressions, 5 improvements, 20 unchanged at 5 % threshold"; within noise and one-sided rows when present.
QString comparisonSummary(const SessionComparison& comparison);
// "AMD EPYC 9R14 96-Core Processor, 2 CPUs, full run, 2026-12-02 16:00 UTC".
QString sessionDescription(const Session& session);
// The verdict's text colour: regression and improvement in the theme's colours, one-sided rows muted, others none.
std::optional<QColor> verdictColor(ComparisonVerdict verdict, const ChartTheme& theme);

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SectionColumn, KeyColumn, BeforeColumn, AfterColumn, ChangeColumn, NoiseColumn, VerdictColumn };
    static constexpr int kColumnCount = 7;
    // Numbers for sorting (a missing side sorts first); the table's proxy sorts by it.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ComparisonTableModel(QObject* parent = nullptr);

    void setSides(ComparisonSide before, ComparisonSide after);
    // Must be finite and >= 0 (the spin box's range guarantees it).
    void setThreshold(double percent);
    void swapSides();
    void setTheme(ThemeKind kind);

    const SessionComparison& comparison() const { return m_comparison; }
    const ComparisonSide& before() const { return m_before; }
    const ComparisonSide& after() const { return m_after; }
    QString summary() const { return comparisonSummary(m_comparison); }
    // The table as tab-separated text with a header line, the summary and the notes: for Copy.
    QString asText() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void recomputed();  // the rows, the notes or the summary changed

private:
    void recompute();
    QString cellText(const ComparisonRow& row, int column) const;
    QVariant sortValue(const ComparisonRow& row, int column) const;
    QString toolTip(const ComparisonRow& row) const;

    ComparisonSide m_before;
    ComparisonSide m_after;
    double m_threshold = kDefaultCompareThresholdPercent;
    ChartTheme m_theme = ChartTheme::make(ThemeKind::Light);
    SessionComparison m_comparison;
};

}  // namespace ridgeline::ui
