#pragma once
// The Measurement dock: the measurement's own report, the same text `ridgeline measure` prints (the clock's
// method and readings, each ceiling against its theoretical peak, the checks, what was not measured and why),
// under a one-line summary coloured by the worst check.

#include "core/session/session.h"

#include <QDockWidget>

class QLabel;
class QPlainTextEdit;

namespace ridgeline::ui {

class MeasurementDock : public QDockWidget {
    Q_OBJECT
public:
    explicit MeasurementDock(QWidget* parent);

    void setSession(const Session& session);
    void clear();

    QString headline() const;
    QString report() const;

private:
    QLabel* m_headline = nullptr;
    QPlainTextEdit* m_report = nullptr;
};

}  // namespace ridgeline::ui
