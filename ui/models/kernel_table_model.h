#pragma once
// The kernels of one session as a table: name, kind, size, time and its share, FLOPs and bytes, intensity,
// GFLOP/s, GB/s, share of the roof, bound and the spread of the runs; every number with its unit. A thin
// adapter: a new session replaces the whole table at once (hotspot's model style).

#include "core/session/session.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace ridgeline::ui {

class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Kind,
        Size,
        Time,       // median seconds of one run
        TimeShare,  // of its profile's (or the measurement's) kernel time: kernel_comparison.h timeShares
        Flops,
        Bytes,
        Intensity,
        Gflops,
        Gbps,
        PercentOfRoof,
        Bound,
        Spread,  // (max - min) / median of the runs' seconds
        ColumnCount
    };
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
    QVariant display(const KernelResult& kernel, int row, int column, bool sort) const;

    Session m_session;
    std::vector<std::optional<double>> m_shares;  // timeShares(m_session)
};

}  // namespace ridgeline::ui
