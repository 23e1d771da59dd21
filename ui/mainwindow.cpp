#include "ui/mainwindow.h"

#include <QLabel>

namespace ridgeline::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Ridgeline"));
    m_summary = new QLabel(tr("Run `ridgeline measure` to measure this machine's roofline."), this);
    m_summary->setAlignment(Qt::AlignCenter);
    setCentralWidget(m_summary);
    resize(1280, 800);
}

bool MainWindow::openSession(const QString& path)
{
    m_summary->setText(tr("Session: %1").arg(path));
    return true;
}

}  // namespace ridgeline::ui
