#include "ui/models/session_list_model.h"

#include <QFileInfo>
#include <QFont>

namespace ridgeline::ui {

QString fileOrTitle(const OpenSession& open)
{
    return open.path.isEmpty() ? open.session.title : QFileInfo(open.path).fileName();
}

SessionListModel::SessionListModel(QObject* parent) : QAbstractListModel(parent) {}

void SessionListModel::setSessions(std::vector<OpenSession> sessions)
{
    beginResetModel();
    m_sessions = std::move(sessions);
    endResetModel();
}

void SessionListModel::append(OpenSession session)
{
    const int row = static_cast<int>(m_sessions.size());
    beginInsertRows({}, row, row);
    m_sessions.push_back(std::move(session));
    endInsertRows();
}

void SessionListModel::replace(int row, OpenSession session)
{
    if (row < 0 || row >= rowCount())
        return;
    m_sessions[static_cast<std::size_t>(row)] = std::move(session);
    emit dataChanged(index(row), index(row));
}

void SessionListModel::remove(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_sessions.erase(m_sessions.begin() + row);
    endRemoveRows();
    if (row == 0 && !m_sessions.empty())
        emit dataChanged(index(0), index(0), {Qt::FontRole});
}

std::vector<Session> SessionListModel::visibleSessions() const
{
    std::vector<Session> result;
    for (const OpenSession& s : m_sessions)
        if (s.visible)
            result.push_back(s.session);
    return result;
}

int SessionListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sessions.size());
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OpenSession& s = m_sessions[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole: {
            QString title = s.session.title.isEmpty() ? s.session.machine.cpuModel : s.session.title;
            if (title.isEmpty())
                title = tr("Unnamed session");
            return title;
        }
        case Qt::FontRole: {
            // The primary session (the one the shading, table and staircase follow) in bold.
            QFont font;
            font.setBold(index.row() == 0);
            return font;
        }
        case Qt::ToolTipRole:
            return s.path.isEmpty() ? tr("Not saved yet") : s.path;
        case Qt::CheckStateRole:
            return s.visible ? Qt::Checked : Qt::Unchecked;
        case PathRole:
            return s.path;
        default:
            return {};
    }
}

bool SessionListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const bool visible = value.toInt() == Qt::Checked;
    OpenSession& s = m_sessions[static_cast<std::size_t>(index.row())];
    if (s.visible == visible)
        return true;
    s.visible = visible;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit visibilityChanged();
    return true;
}

Qt::ItemFlags SessionListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

}  // namespace ridgeline::ui
