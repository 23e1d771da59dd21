#pragma once
// The Kernels dock: the primary session's kernels in a table, sorted by any column and filtered by name (short
// or full, any case); choosing a row picks that kernel on the chart. Delete (or the row's context menu) asks for
// the kernel's removal; the document does it, undoably.

#include <QDockWidget>

class QAction;
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
    QTableView* view() const { return m_view; }
    // "Remove Kernel" (Delete while the table has the focus; also in its context menu and the Edit menu).
    QAction* removeAction() const { return m_remove; }
    // Ctrl+F: the dock comes up with its filter selected.
    void focusFilter();
    // Makes the primary session's `kernel` the table's current row and scrolls to it, as the chart's selection
    // changes (a click or a key on a dot); kernelChosen does not follow. Nothing when the filter hides its row.
    void showKernel(int kernel);

signals:
    void kernelChosen(int kernel);  // a row of the primary session's kernels
    void filterChanged(const QString& text);
    void removeRequested(int kernel);  // a row of the primary session's kernels

private:
    void removeCurrent();

    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_view = nullptr;
    QAction* m_remove = nullptr;
    bool m_showing = false;  // showKernel is moving the current row
};

}  // namespace ridgeline::ui
