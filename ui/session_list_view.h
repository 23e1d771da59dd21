#pragma once
// The Sessions dock's list: the open session first, then its overlays, each with a check that shows it on the chart.
// Delete (or the context menu's Remove From Chart) takes the current overlay off the chart; the context menu's
// Close Session (the window adds File's action to it) closes them all.

#include <QListView>

class QAction;

namespace ridgeline::ui {

class SessionDocument;

class SessionListView : public QListView {
    Q_OBJECT
public:
    explicit SessionListView(SessionDocument* document, QWidget* parent = nullptr);

    QAction* removeAction() const { return m_remove; }

private:
    void updateRemove();

    SessionDocument* m_document;
    QAction* m_remove = nullptr;
};

}  // namespace ridgeline::ui
