#include "ui/models/kernel_table_model.h"

#include "core/model/units.h"
#include "ui/plots/roofline/kernel_comparison.h"
#include "ui/plots/roofline/point_explanation.h"

#include <cmath>

namespace ridgeline::ui {

namespace {

// A number the table sorts by, or shows as text; unknown (zero, negative, not finite) sorts first and reads "–".
QVariant number(double value, bool sort, const QString& text)
{
    const bool known = value > 0.0 && std::isfinite(value);
    if (sort)
        return known ? value : -1.0;
    return known ? QVariant(text) : QVariant(QStringLiteral("\u2013"));
}

QString percentText(double percent)
{
    return formatCompact(percent) + QStringLiteral(" %");
}

}  // namespace

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setSession(const Session& session)
{
    beginResetModel();
    m_session = session;
    m_shares = timeShares(m_session);
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
        return index.column() >= Time && index.column() != Bound ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                 : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Name && !k.fullName.isEmpty())
        return k.fullName;  // the table shows the short name, like the chart
    if (role == Qt::ToolTipRole && index.column() == Spread && k.spread.median > 0.0)
        return tr("%1 runs: %2 to %3, median %4")
            .arg(k.repetitions)
            .arg(formatSeconds(k.spread.min), formatSeconds(k.spread.max), formatSeconds(k.spread.median));
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    return display(k, index.row(), index.column(), role == SortRole);
}

QVariant KernelTableModel::display(const KernelResult& k, int row, int column, bool sort) const
{
    switch (column) {
        case Name:
            return k.name;
        case Kind:
            // Imported kernels of one name differ by group ("before" / "after") or file: say which.
            if (!k.group.isEmpty())
                return QStringLiteral("%1 · %2").arg(k.kind, k.group);
            return k.kind;
        case Size:
            return k.size;
        case Time:
            return number(k.seconds, sort, formatSeconds(k.seconds));
        case TimeShare: {
            const std::optional<double> share = m_shares[static_cast<std::size_t>(row)];
            return number(share.value_or(0.0), sort, percentText(100.0 * share.value_or(0.0)));
        }
        case Flops:
            return number(k.flops, sort, formatSi(k.flops, QStringLiteral("FLOP")));
        case Bytes:
            return number(k.bytes, sort, formatSi(k.bytes, QStringLiteral("B")));
        case Intensity:
            return number(k.intensity, sort, formatCompact(k.intensity));
        case Gflops:
            return number(k.gflops, sort, formatCompact(k.gflops));
        case Gbps:
            return number(k.gbps, sort, formatCompact(k.gbps));
        case PercentOfRoof:
        case Bound: {
            const PointExplanation e = explainKernel(m_session, k);
            if (!e.valid)
                return {};
            if (column == Bound)
                return boundName(e.bound);
            return number(e.percentOfAttainable, sort, percentText(e.percentOfAttainable));
        }
        case Spread: {
            const double spread = k.spread.median > 0.0 ? 100.0 * (k.spread.max - k.spread.min) / k.spread.median : 0.0;
            if (sort)
                return k.spread.median > 0.0 ? spread : -1.0;
            return k.spread.median > 0.0 ? QVariant(QString(QStringLiteral("±") + percentText(spread / 2.0)))
                                         : QVariant(QStringLiteral("\u2013"));
        }
        default:
            return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
        case Name:
            return tr("Kernel");
        case Kind:
            return tr("Kind");
        case Size:
            return tr("Size");
        case Time:
            return tip ? tr("Median time of one run") : tr("Time");
        case TimeShare:
            return tip ? tr("Share of the kernel time of its profile (imported) or of the measurement")
                       : tr("% of time");
        case Flops:
            return tip ? tr("Floating-point operations of one run (int8: operations)") : tr("FLOPs");
        case Bytes:
            return tip ? tr("Bytes moved to and from memory in one run (decimal: 1 MB = 10^6 B)") : tr("Bytes");
        case Intensity:
            return tr("FLOP/byte");
        case Gflops:
            return tr("GFLOP/s");
        case Gbps:
            return tr("GB/s");
        case PercentOfRoof:
            return tip ? tr("Measured GFLOP/s as a share of the roof above the kernel") : tr("of roof");
        case Bound:
            return tr("Bound");
        case Spread:
            return tip ? tr("Half the range of the runs' times, as a share of their median") : tr("Spread");
        default:
            return {};
    }
}

}  // namespace ridgeline::ui
