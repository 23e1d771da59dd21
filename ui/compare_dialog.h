#pragma once
// File > Compare With…: the before/after comparison of `ridgeline compare` in the window. The open
// session is "before", the other "after"; Swap exchanges them, the threshold recomputes as it is typed. The
// notes (different machines, a quick run, a busy machine) stand above the table, the counts below it; Copy as Text
// and Export CSV… take the table along. The rows, their text and colours come from
// ui/models/comparison_table_model, the CSV from core/session/session_csv.

#include "ui/models/comparison_table_model.h"

#include <QDialog>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    void setSides(ComparisonSide before, ComparisonSide after);
    void setTheme(ThemeKind kind);

    ComparisonTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

private:
    void updateTexts();
    void copyAsText();
    void askCsvPath();
    void exportCsv(const QString& path);

    ComparisonTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_beforeLabel = nullptr;
    QLabel* m_afterLabel = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_status = nullptr;  // what Copy or Export did, or why Export failed
    QDoubleSpinBox* m_threshold = nullptr;
    QPushButton* m_swap = nullptr;
};

}  // namespace ridgeline::ui
