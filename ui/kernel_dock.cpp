#include "ui/kernel_dock.h"

#include "ui/models/kernel_table_model.h"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ridgeline::ui {

KernelDock::KernelDock(KernelTableModel* kernels, QWidget* parent) : QDockWidget(tr("Kernels"), parent)
{
    setObjectName(QStringLiteral("KernelsDock"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(kernels);
    m_proxy->setSortRole(KernelTableModel::SortRole);
    m_proxy->setFilterRole(KernelTableModel::SearchRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(KernelTableModel::Name);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("KernelFilter"));
    m_filter->setPlaceholderText(tr("Filter kernels by name (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter kernels by name"));
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text.trimmed());
        emit filterChanged(text.trimmed());
    });
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setAccessibleName(tr("Kernels"));
    m_view->setAccessibleDescription(
        tr("Every kernel on the chart: size, time, FLOPs, bytes, rates and the roof that binds it"));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // the session's own order until a header is clicked
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->verticalHeader()->hide();
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !m_showing)
                    emit kernelChosen(m_proxy->mapToSource(current).row());
            });
    // Delete acts on the table only: in the filter field it still deletes text.
    m_remove = new QAction(QIcon::fromTheme(QStringLiteral("edit-delete")), tr("&Remove Kernel"), this);
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetShortcut);
    m_remove->setToolTip(tr("Take the selected kernel off the chart and out of the session (Ctrl+Z brings it back)"));
    connect(m_remove, &QAction::triggered, this, &KernelDock::removeCurrent);
    m_view->addAction(m_remove);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* pane = new QWidget(this);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    setWidget(pane);
}

void KernelDock::removeCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    const int row = current.row();
    const int column = current.column();
    emit removeRequested(m_proxy->mapToSource(current).row());
    // The table was rebuilt without it: the next row becomes current, so Delete can go on.
    if (m_proxy->rowCount() > 0)
        m_view->setCurrentIndex(m_proxy->index(std::min(row, m_proxy->rowCount() - 1), column));
}

void KernelDock::showKernel(int kernel)
{
    const QModelIndex row = m_proxy->mapFromSource(m_proxy->sourceModel()->index(kernel, 0));
    if (!row.isValid() || m_view->currentIndex().row() == row.row())
        return;
    m_showing = true;
    m_view->setCurrentIndex(row.siblingAtColumn(std::max(0, m_view->currentIndex().column())));
    m_view->scrollTo(row);
    m_showing = false;
}

void KernelDock::focusFilter()
{
    show();
    raise();
    m_filter->setFocus();
    m_filter->selectAll();
}

}  // namespace ridgeline::ui
