#pragma once
// What the empty roofline offers when nothing is open (a first start, or a last session that could not be
// reopened): the bundled measurement, a measurement of this machine, or an example. It floats in the middle of
// the chart it is given and follows its size.

#include <QFrame>
#include <QList>

class QPushButton;

namespace ridgeline::ui {

struct ExampleSession {
    QString title;     // for the menu
    QString resource;  // ":/examples/....json"
};

class WelcomePanel : public QFrame {
    Q_OBJECT
public:
    explicit WelcomePanel(QWidget* chart);

    // The sessions compiled in as examples.
    static QList<ExampleSession> examples();

    QPushButton* bundledButton() const { return m_bundled; }
    QPushButton* measureButton() const { return m_measure; }
    QPushButton* exampleButton() const { return m_example; }

signals:
    void bundledRequested();
    void measureRequested();
    void exampleRequested(const ExampleSession& example);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void recentre();

    QPushButton* m_bundled = nullptr;
    QPushButton* m_measure = nullptr;
    QPushButton* m_example = nullptr;
};

}  // namespace ridgeline::ui
