#pragma once
// The kernels of one session as a table: name, kind, size, intensity, GFLOP/s, share of the roof, bound.
// A thin adapter: a new session replaces the whole table at once (hotspot's model style).

#include "core/session/session.h"

#include <QAbstractTableModel>

namespace ridgeline::ui {

class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Size, Intensity, Gflops, PercentOfRoof, Bound, Gbps, ColumnCount };
    // SearchRole: the short and the full name, one per line, for a substring filter that matches either.
    enum Role { SortRole = Qt::UserRole + 1, KernelIndexRole, SearchRole };

    explicit KernelTableModel(QObject* parent = nullptr);

    void setSession(const Session& session);
    void clear();
    const Session& session() const { return m_session; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Session m_session;
};

}  // namespace ridgeline::ui
