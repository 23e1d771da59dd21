#pragma once
// The open sessions (the first is primary; the others are overlays), each checkable to show or hide it.

#include "core/session/session.h"

#include <QAbstractListModel>

#include <vector>

namespace ridgeline::ui {

struct OpenSession {
    Session session;
    QString path;  // empty for a measurement not saved yet
    bool visible = true;
};

// What menus and messages call an open session: its file's name, else its title.
QString fileOrTitle(const OpenSession& open);

class SessionListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { PathRole = Qt::UserRole + 1 };

    explicit SessionListModel(QObject* parent = nullptr);

    void setSessions(std::vector<OpenSession> sessions);
    void append(OpenSession session);
    void replace(int row, OpenSession session);
    void remove(int row);
    const std::vector<OpenSession>& sessions() const { return m_sessions; }
    std::vector<Session> visibleSessions() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    void visibilityChanged();

private:
    std::vector<OpenSession> m_sessions;
};

}  // namespace ridgeline::ui
