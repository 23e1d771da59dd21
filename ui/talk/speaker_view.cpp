#include "ui/talk/speaker_view.h"

#include "ui/talk/presentation_window.h"
#include "ui/talk/scene_view.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>

#include <algorithm>

namespace ridgeline::ui {

namespace {

// Read from a step or two away, at a glance: the notes large, the rest smaller and quiet.
constexpr int kNotesPx = 26;
constexpr int kTitlePx = 20;
constexpr int kClockPx = 40;

QLabel* label(const QString& name, int pixelSize, QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setObjectName(name);
    QFont font = l->font();
    font.setPixelSize(pixelSize);
    l->setFont(font);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

}  // namespace

SpeakerView::SpeakerView(PresentationWindow* presentation, QWidget* parent)
    : QWidget(parent), m_presentation(presentation)
{
    setObjectName(QStringLiteral("SpeakerView"));
    setWindowFlag(Qt::Window, true);
    setWindowTitle(tr("Speaker view"));
    setFocusPolicy(Qt::StrongFocus);

    m_position = label(QStringLiteral("SpeakerPosition"), kTitlePx, this);
    m_title = label(QStringLiteral("SpeakerTitle"), kTitlePx, this);
    m_notes = label(QStringLiteral("SpeakerNotes"), kNotesPx, this);
    m_notes->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_next = label(QStringLiteral("SpeakerNext"), kTitlePx, this);
    m_clock = label(QStringLiteral("SpeakerClock"), kClockPx, this);
    m_clock->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_restart = new QPushButton(tr("&Restart Clock"), this);
    m_restart->setFocusPolicy(Qt::NoFocus);  // the keys stay with the slides
    connect(m_restart, &QPushButton::clicked, this, &SpeakerView::restartClock);
    for (QLabel* quiet : {m_position, m_next}) {
        QPalette palette = quiet->palette();
        palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
        quiet->setPalette(palette);
    }

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(24, 16, 24, 16);
    grid->setVerticalSpacing(12);
    grid->addWidget(m_position, 0, 0);
    grid->addWidget(m_clock, 0, 1, 2, 1);
    grid->addWidget(m_restart, 2, 1, Qt::AlignRight | Qt::AlignTop);
    grid->addWidget(m_title, 1, 0);
    grid->addWidget(m_notes, 2, 0);
    grid->addWidget(m_next, 3, 0, 1, 2);
    grid->setRowStretch(2, 1);
    grid->setColumnStretch(0, 1);
    m_clock->setAccessibleName(tr("Time since the talk began"));
    m_notes->setAccessibleName(tr("Speaker notes"));
    resize(960, 600);

    connect(&m_ticker, &QTimer::timeout, this, &SpeakerView::tick);
    m_ticker.start(1000);
    restartClock();
    if (presentation) {
        connect(presentation, &PresentationWindow::sceneChanged, this, &SpeakerView::showScene);
        connect(presentation, &PresentationWindow::finished, this, &QWidget::close);
        showScene(presentation->currentScene());
    }
}

QString SpeakerView::positionText() const
{
    return m_position->text();
}

QString SpeakerView::titleText() const
{
    return m_title->text();
}

QString SpeakerView::notesText() const
{
    return m_notes->text();
}

QString SpeakerView::nextText() const
{
    return m_next->text();
}

QString SpeakerView::clockText() const
{
    return m_clock->text();
}

QString SpeakerView::elapsedText(qint64 milliseconds)
{
    const qint64 seconds = std::max<qint64>(0, milliseconds / 1000);
    const qint64 h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60;
    const QString mmss = QStringLiteral("%1:%2")
                             .arg(h > 0 ? QStringLiteral("%1").arg(m, 2, 10, QLatin1Char('0')) : QString::number(m))
                             .arg(s, 2, 10, QLatin1Char('0'));
    return h > 0 ? QStringLiteral("%1:%2").arg(h).arg(mmss) : mmss;
}

void SpeakerView::restartClock()
{
    m_started.start();
    tick();
}

void SpeakerView::tick()
{
    m_clock->setText(elapsedText(m_started.elapsed()));
}

// A scene's notes, its facts filled in; a scene without notes says so, one whose facts failed says why.
void SpeakerView::showScene(int index)
{
    const SceneView* view = m_presentation ? m_presentation->sceneView(index) : nullptr;
    if (!view) {
        m_position->clear();
        m_title->setText(tr("No scenes in this deck"));
        m_notes->clear();
        m_next->clear();
        return;
    }
    m_position->setText(tr("Slide %1 of %2").arg(index + 1).arg(m_presentation->sceneCount()));
    m_title->setText(view->titleText());
    if (view->failed())
        m_notes->setText(view->captionText());
    else if (view->facts().value().notes.isEmpty())
        m_notes->setText(tr("(no notes for this slide)"));
    else
        m_notes->setText(view->facts().value().notes);
    const SceneView* next = m_presentation->sceneView(index + 1);
    m_next->setText(next ? tr("Next: %1").arg(next->titleText()) : tr("Next: the end of the deck"));
}

void SpeakerView::keyPressEvent(QKeyEvent* event)
{
    if (m_presentation) {
        QCoreApplication::sendEvent(m_presentation, event);
        return;
    }
    QWidget::keyPressEvent(event);
}

// Leaving the speaker view leaves the talk: the slides alone would have no one to drive them.
void SpeakerView::closeEvent(QCloseEvent* event)
{
    m_ticker.stop();
    if (m_presentation && m_presentation->isVisible())
        m_presentation->close();
    QWidget::closeEvent(event);
}

}  // namespace ridgeline::ui
