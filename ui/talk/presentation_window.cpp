#include "ui/talk/presentation_window.h"

#include <QCloseEvent>
#include <QGraphicsPixmapItem>
#include <QGraphicsProxyWidget>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScreen>
#include <QStackedLayout>
#include <QVariantAnimation>
#include <QWheelEvent>

#include <algorithm>

namespace ridgeline::ui {

namespace {
constexpr int kFadeMs = 250;
}  // namespace

PresentationWindow::PresentationWindow(const Deck& deck, const Session* session, TalkLook look, QWidget* parent)
    : QGraphicsView(parent)
{
    setObjectName(QStringLiteral("PresentationWindow"));
    // Its own window even when the main window is its parent (closed and deleted with it).
    setWindowFlag(Qt::Window, true);
    setWindowTitle(deck.title.isEmpty() ? tr("Ridgeline presentation") : deck.title);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setFocusPolicy(Qt::StrongFocus);
    const ChartTheme theme = ChartTheme::make(look.theme);
    setBackgroundBrush(theme.background);

    // The scenes sit in one widget embedded in the graphics scene, so the whole slide scales as one picture.
    m_stage = new QWidget;
    m_stage->setFocusPolicy(Qt::NoFocus);
    m_stack = new QStackedLayout(m_stage);
    m_stack->setContentsMargins(0, 0, 0, 0);
    const int total = static_cast<int>(deck.scenes.size());
    for (int i = 0; i < total; ++i) {
        auto* view = new SceneView(deck.scenes[static_cast<std::size_t>(i)], session, look);
        view->setPosition(i, total);
        m_stack->addWidget(view);
        m_views.push_back(view);
    }
    if (total == 0) {
        auto* empty = new QWidget;
        m_stack->addWidget(empty);
    }

    auto* graphics = new QGraphicsScene(this);
    graphics->setBackgroundBrush(theme.background);
    m_proxy = graphics->addWidget(m_stage);
    setScene(graphics);
    resize(1280, 720);
    fitStage();
    setCurrentScene(0);
}

PresentationWindow::~PresentationWindow() = default;

SceneView* PresentationWindow::sceneView(int index) const
{
    return index >= 0 && index < sceneCount() ? m_views[static_cast<std::size_t>(index)] : nullptr;
}

void PresentationWindow::setCurrentScene(int index)
{
    if (m_views.empty())
        return;
    index = std::clamp(index, 0, sceneCount() - 1);
    if (index == m_current)
        return;
    if (SceneView* leaving = currentView()) {
        leaving->finishAnimation();
        fadeFromCurrentPicture();
    }
    m_current = index;
    m_stack->setCurrentIndex(index);
    currentView()->enter();
    emit sceneChanged(index);
}

void PresentationWindow::nextScene()
{
    setCurrentScene(m_current + 1);
}

void PresentationWindow::previousScene()
{
    setCurrentScene(m_current - 1);
}

void PresentationWindow::present(QScreen* on)
{
    setCursor(Qt::BlankCursor);
    if (on)
        setScreen(on);
    // Without a window manager (a bare X server, a kiosk) nothing honours the full-screen state: cover the
    // screen ourselves as well.
    if (QScreen* s = on ? on : screen())
        setGeometry(s->geometry());
    showFullScreen();
    raise();
    activateWindow();
    setFocus(Qt::OtherFocusReason);
}

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    switch (key) {
        case Qt::Key_PageDown:
        case Qt::Key_Space:
        case Qt::Key_Right:
        case Qt::Key_Down:
            nextScene();
            break;
        case Qt::Key_PageUp:
        case Qt::Key_Left:
        case Qt::Key_Up:
        case Qt::Key_Backspace:
            previousScene();
            break;
        case Qt::Key_Home:
            setCurrentScene(0);
            break;
        case Qt::Key_End:
            setCurrentScene(sceneCount() - 1);
            break;
        case Qt::Key_Escape:
            close();
            break;
        default:
            if (key >= Qt::Key_1 && key <= Qt::Key_9) {
                const int index = key - Qt::Key_1;
                if (index < sceneCount())
                    setCurrentScene(index);
                break;
            }
            // Everything else stays with the presentation: the scene's charts are not interactive on stage.
            event->ignore();
            return;
    }
    event->accept();
}

void PresentationWindow::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        nextScene();
    else if (event->button() == Qt::RightButton)
        previousScene();
    event->accept();
}

// The embedded charts would pan, zoom and rubber-band on these; on stage the slide stays as it is.
void PresentationWindow::mouseReleaseEvent(QMouseEvent* event)
{
    event->accept();
}

void PresentationWindow::mouseMoveEvent(QMouseEvent* event)
{
    event->accept();
}

void PresentationWindow::mouseDoubleClickEvent(QMouseEvent* event)
{
    event->accept();
}

void PresentationWindow::wheelEvent(QWheelEvent* event)
{
    event->accept();
}

void PresentationWindow::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    fitStage();
}

void PresentationWindow::closeEvent(QCloseEvent* event)
{
    endFade();
    if (SceneView* view = currentView())
        view->finishAnimation();
    QGraphicsView::closeEvent(event);
    if (!m_finished) {
        m_finished = true;
        emit finished();
    }
}

// A quarter-second cross-fade: the slide on screen now, as a picture over the next one, fades out.
void PresentationWindow::fadeFromCurrentPicture()
{
    endFade();
    if (!isVisible())
        return;
    const QPixmap picture = viewport()->grab();
    if (picture.isNull())
        return;
    m_fade = scene()->addPixmap(picture);
    m_fade->setZValue(1.0);
    m_fade->setPos(0, 0);
    m_fade->setTransformationMode(Qt::SmoothTransformation);
    m_fade->setScale(1.0 / picture.devicePixelRatio());
    m_fadeAnimation = new QVariantAnimation(this);
    m_fadeAnimation->setStartValue(1.0);
    m_fadeAnimation->setEndValue(0.0);
    m_fadeAnimation->setDuration(kFadeMs);
    connect(m_fadeAnimation, &QVariantAnimation::valueChanged, this, [this](const QVariant& opacity) {
        if (m_fade)
            m_fade->setOpacity(opacity.toDouble());
    });
    connect(m_fadeAnimation, &QVariantAnimation::finished, this, &PresentationWindow::endFade);
    m_fadeAnimation->start();
}

void PresentationWindow::endFade()
{
    if (m_fadeAnimation) {
        m_fadeAnimation->disconnect(this);
        m_fadeAnimation->stop();
        m_fadeAnimation->deleteLater();
        m_fadeAnimation = nullptr;
    }
    if (m_fade) {
        scene()->removeItem(m_fade);
        delete m_fade;
        m_fade = nullptr;
        emit transitionFinished();
    }
}

void PresentationWindow::fitStage()
{
    const QSize target = viewport()->size();
    const QSize design = SceneView::designSize(target);
    if (!design.isValid() || !m_proxy)
        return;
    m_proxy->setScale(SceneView::scaleFor(target));
    m_proxy->setPos(0, 0);
    m_proxy->resize(design);
    scene()->setSceneRect(QRectF(QPointF(0, 0), QSizeF(target)));
    setSceneRect(QRectF(QPointF(0, 0), QSizeF(target)));
}

}  // namespace ridgeline::ui
