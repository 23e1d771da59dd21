#pragma once
// A measurement's place in the status bar: its stage, a progress bar and Cancel, shown while it runs.

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace ridgeline::ui {

class MeasureStatus : public QObject {
    Q_OBJECT
public:
    explicit MeasureStatus(QStatusBar* bar);

    void started();
    void progress(int done, int total, const QString& stage);
    void cancelling();
    void ended();

signals:
    void cancelRequested();

private:
    QLabel* m_stage = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
};

}  // namespace ridgeline::ui
