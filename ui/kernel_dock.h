#pragma once
// The Kernels dock: the primary session's kernels in a table, sorted by any column and filtered by name (short
// or full, any case); choosing a row picks that kernel on the chart.

#include <QDockWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class KernelTableModel;

class KernelDock : public QDockWidget {
    Q_OBJECT
public:
    KernelDock(KernelTableModel* kernels, QWidget* parent);

    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QLineEdit* filter() const { return m_filter; }
    // Ctrl+F: the dock comes up with its filter selected.
    void focusFilter();

signals:
    void kernelChosen(int kernel);  // a row of the primary session's kernels
    void filterChanged(const QString& text);

private:
    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_view = nullptr;
};

}  // namespace ridgeline::ui
