#pragma once
// The speaker's own window beside a presentation (Talk > Present with Speaker View): the slide on stage (its
// number and title), the speaker's notes for it, the next slide's title, and the time since the talk began.
// Keys here drive the presentation as they do on stage, so the speaker can stay at the laptop.

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;

namespace ridgeline::ui {

class PresentationWindow;

class SpeakerView : public QWidget {
    Q_OBJECT
public:
    // Follows `presentation` until it closes, and closes with it.
    explicit SpeakerView(PresentationWindow* presentation, QWidget* parent = nullptr);

    // What the view shows, for tests and the accessible names.
    QString positionText() const;
    QString titleText() const;
    QString notesText() const;
    QString nextText() const;
    QString clockText() const;

    // "0:07", "12:05", "1:02:03": minutes and seconds, hours once there are any.
    static QString elapsedText(qint64 milliseconds);

public slots:
    void restartClock();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void showScene(int index);
    void tick();

    QPointer<PresentationWindow> m_presentation;
    QLabel* m_position = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_next = nullptr;
    QLabel* m_clock = nullptr;
    QPushButton* m_restart = nullptr;
    QElapsedTimer m_started;
    QTimer m_ticker;
};

}  // namespace ridgeline::ui
