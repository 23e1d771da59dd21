#pragma once

#include <QMainWindow>

class QLabel;

namespace ridgeline::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens a session file; on failure shows why and keeps the current view.
    bool openSession(const QString& path);

private:
    QLabel* m_summary = nullptr;
};

}  // namespace ridgeline::ui
