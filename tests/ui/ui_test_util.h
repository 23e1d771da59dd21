#pragma once
// Helpers shared by the widget tests: lay a widget out at a fixed size now, grab it, compare colours.

#include <QColor>
#include <QCoreApplication>
#include <QDir>
#include <QDropEvent>
#include <QImage>
#include <QMimeData>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QUrl>
#include <QWidget>

#include <gtest/gtest.h>

#include <ostream>

namespace ridgeline::fixtures {

// Where the tests leave their pictures for a human to look at (the build tree, never the source tree).
inline QString outputPath(const QString& fileName)
{
    const QString dir = QStringLiteral(RIDGELINE_TEST_OUTPUT_DIR);
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + fileName;
}

// Fixed size, shown (offscreen), layouts settled: what a user would see.
inline void layoutNow(QWidget& widget, QSize size)
{
    widget.resize(size);
    widget.show();
    // Under a real X server (the xvfb pass) a window takes a moment to be mapped; mouse events sent to it before
    // that are lost (the readout test's first move read nothing in 1 of 4 runs). Offscreen it is exposed at once.
    if (!QTest::qWaitForWindowExposed(&widget))
        ADD_FAILURE() << "the window was never exposed";
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents();
}

inline QImage grabImage(QWidget& widget)
{
    return widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

inline int colorDistance(const QColor& a, const QColor& b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

// True when some pixel within `radius` of `at` is within `tolerance` of `color` (lines are antialiased).
inline bool colorNear(const QImage& image, QPoint at, const QColor& color, int radius = 1, int tolerance = 60)
{
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint p = at + QPoint(dx, dy);
            if (image.rect().contains(p) && colorDistance(image.pixelColor(p), color) <= tolerance)
                return true;
        }
    return false;
}

// Files dragged from a file manager and dropped on `window`, as a drop of real URLs; the enter must be accepted.
inline void dropFiles(QWidget& window, const QStringList& paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& path : paths)
        urls << QUrl::fromLocalFile(path);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent dropEvent(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropEvent);
}

}  // namespace ridgeline::fixtures

// Readable QStrings in GoogleTest failure messages.
inline void PrintTo(const QString& text, std::ostream* os)
{
    *os << '"' << text.toStdString() << '"';
}
