#include "ui/models/kernel_table_model.h"

#include "core/model/units.h"
#include "ui/models/point_explanation.h"

namespace ridgeline::ui {

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setSession(const Session& session)
{
    beginResetModel();
    m_session = session;
    endResetModel();
}

void KernelTableModel::clear()
{
    setSession(Session{});
}

int KernelTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_session.kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelResult& k = m_session.kernels[static_cast<std::size_t>(index.row())];
    if (role == KernelIndexRole)
        return index.row();
    if (role == SearchRole)
        return k.fullName.isEmpty() ? k.name : k.name + QLatin1Char('\n') + k.fullName;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Intensity ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const bool sort = role == SortRole;
    switch (index.column()) {
        case Name:
            if (role == Qt::ToolTipRole && !k.fullName.isEmpty())
                return k.fullName;  // the table shows the short name, like the chart
            return k.name;
        case Kind:
            // Imported kernels of one name differ by group ("before" / "after") or file: say which.
            if (!k.group.isEmpty())
                return QStringLiteral("%1 · %2").arg(k.kind, k.group);
            return k.kind;
        case Size:
            return k.size;
        case Intensity:
            return sort ? QVariant(k.intensity) : QVariant(formatCompact(k.intensity));
        case Gflops:
            return sort ? QVariant(k.gflops) : QVariant(formatCompact(k.gflops));
        case PercentOfRoof:
        case Bound: {
            const PointExplanation e = explainKernel(m_session, k);
            if (!e.valid)
                return {};
            if (index.column() == Bound)
                return boundName(e.bound);
            return sort ? QVariant(e.percentOfAttainable)
                        : QVariant(QStringLiteral("%1 %").arg(formatCompact(e.percentOfAttainable)));
        }
        case Gbps:
            return sort ? QVariant(k.gbps) : QVariant(formatCompact(k.gbps));
        default:
            return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Name:
            return tr("Kernel");
        case Kind:
            return tr("Kind");
        case Size:
            return tr("Size");
        case Intensity:
            return tr("FLOP/byte");
        case Gflops:
            return tr("GFLOP/s");
        case PercentOfRoof:
            return tr("of roof");
        case Bound:
            return tr("Bound");
        case Gbps:
            return tr("GB/s");
        default:
            return {};
    }
}

}  // namespace ridgeline::ui
