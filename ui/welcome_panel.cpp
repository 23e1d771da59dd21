#include "ui/welcome_panel.h"

#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

QPushButton* offer(const QString& text, const QString& detail, QWidget* parent)
{
    auto* button = new QPushButton(text + QLatin1Char('\n') + detail, parent);
    button->setMinimumHeight(64);
    button->setStyleSheet(QStringLiteral("QPushButton { text-align: left; padding: 8px 16px; }"));
    return button;
}

}  // namespace

QList<ExampleSession> WelcomePanel::examples()
{
    return {{tr("Intel Xeon with AMX, 2 vCPUs: a full run on a busy cloud guest"),
             QStringLiteral(":/examples/xeon-amx-2vcpu.json")}};
}

WelcomePanel::WelcomePanel(QWidget* chart) : QFrame(chart)
{
    setObjectName(QStringLiteral("WelcomePanel"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 20, 24, 24);
    layout->setSpacing(10);
    auto* title = new QLabel(tr("<h2>Nothing is open yet</h2>"
                                "<p>Start from a real measurement, measure this machine, or look at an example.</p>"),
                             this);
    title->setWordWrap(true);
    layout->addWidget(title);

    m_bundled = offer(tr("Open the bundled measurement"),
                      tr("AMD EPYC (Zen 4), 2 vCPUs, measured with 'ridgeline measure'"), this);
    m_measure = offer(tr("Measure this machine"), tr("A quick run: a few seconds, progress in the status bar"), this);
    m_example = offer(tr("Open an example"), tr("A session measured elsewhere"), this);
    auto* menu = new QMenu(m_example);
    for (const ExampleSession& example : examples())
        menu->addAction(example.title, this, [this, example] { emit exampleRequested(example); });
    m_example->setMenu(menu);
    for (QPushButton* button : {m_bundled, m_measure, m_example})
        layout->addWidget(button);
    connect(m_bundled, &QPushButton::clicked, this, &WelcomePanel::bundledRequested);
    connect(m_measure, &QPushButton::clicked, this, &WelcomePanel::measureRequested);

    chart->installEventFilter(this);
    recentre();
}

bool WelcomePanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parent() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        recentre();
    return QFrame::eventFilter(watched, event);
}

void WelcomePanel::recentre()
{
    const QWidget* chart = parentWidget();
    const QSize size = sizeHint().expandedTo(QSize(480, 0)).boundedTo(chart->size());
    resize(size);
    move((chart->width() - size.width()) / 2, (chart->height() - size.height()) / 2);
    raise();
}

}  // namespace ridgeline::ui
