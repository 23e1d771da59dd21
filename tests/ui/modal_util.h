#pragma once
// Real answers to the window's real dialogs: a timer waits for the next modal dialog (a QMessageBox asking about
// unsaved changes, a file dialog) inside the dialog's own event loop and clicks its button with the mouse, or types
// a file name and presses Return, as a person would.

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace ridgeline::fixtures {

// Runs `act` on the next modal widget that is not `previous` (polled every 10 ms for up to 10 s). What it saw is
// kept in the returned record: the dialog's class and text, for the test to check afterwards. The watcher stops
// when the test lets go of that record, so a watcher whose dialog never came cannot answer a later test's dialog.
struct ModalSeen {
    bool seen = false;
    QString className;
    QString text;
    QString informativeText;
};

// The same for any widget `find` returns: the active modal dialog, or a popup menu (whenPopup).
inline std::shared_ptr<ModalSeen> whenShown(std::function<QWidget*()> find, std::function<void(QWidget*)> act,
                                            QWidget* previous)
{
    auto seen = std::make_shared<ModalSeen>();
    auto* timer = new QTimer;
    auto started = std::make_shared<int>(0);
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout,
                     [timer, weak = std::weak_ptr<ModalSeen>(seen), started, previous, find = std::move(find),
                      act = std::move(act)] {
                         const std::shared_ptr<ModalSeen> record = weak.lock();
                         if (!record) {
                             timer->stop();
                             timer->deleteLater();
                             return;
                         }
                         QWidget* modal = find();
                         if (!modal || modal == previous) {
                             if (++*started > 1000) {
                                 timer->stop();
                                 timer->deleteLater();
                             }
                             return;
                         }
                         timer->stop();
                         timer->deleteLater();
                         record->seen = true;
                         record->className = QString::fromLatin1(modal->metaObject()->className());
                         if (const auto* box = qobject_cast<QMessageBox*>(modal)) {
                             record->text = box->text();
                             record->informativeText = box->informativeText();
                         }
                         act(modal);
                     });
    timer->start();
    return seen;
}

inline std::shared_ptr<ModalSeen> whenModal(std::function<void(QWidget*)> act, QWidget* previous = nullptr)
{
    return whenShown([] { return QApplication::activeModalWidget(); }, std::move(act), previous);
}

// The next popup (a context menu, a button's menu) however long it takes to open: a fixed delay misses a menu
// that opens late on a loaded machine, and the menu's own event loop then waits for ever.
inline std::shared_ptr<ModalSeen> whenPopup(std::function<void(QWidget*)> act)
{
    return whenShown([] { return QApplication::activePopupWidget(); },
                     [act = std::move(act)](QWidget* popup) {
                         // Keys only once the window system has shown it: a key ahead of that closes the menu before
                         // its activation arrives, which then leaves no window active.
                         static_cast<void>(QTest::qWaitForWindowExposed(popup));  // keys go in either way
                         QCoreApplication::processEvents();
                         act(popup);
                     },
                     nullptr);
}

// The next modal dialog's standard button, clicked with the mouse.
inline std::shared_ptr<ModalSeen> clickWhenAsked(QMessageBox::StandardButton which, QWidget* previous = nullptr)
{
    return whenModal(
        [which](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            if (!box || !box->button(which))
                return;
            QAbstractButton* button = box->button(which);
            QTest::mouseClick(button, Qt::LeftButton, Qt::NoModifier, button->rect().center());
        },
        previous);
}

// The next modal dialog is a file dialog: type `path` into its file name field and press Return.
inline std::shared_ptr<ModalSeen> typeFileWhenAsked(const QString& path, QWidget* previous = nullptr)
{
    return whenModal(
        [path](QWidget* modal) {
            auto* dialog = qobject_cast<QFileDialog*>(modal);
            if (!dialog)
                return;
            auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            if (!edit)
                return;
            // Pasted, as a person pastes a path: typed letter by letter, each prefix ("/", "/tmp") would select that
            // folder in the dialog's list and Save would go there instead.
            QApplication::clipboard()->setText(path);
            QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
            QTest::keyClick(edit, Qt::Key_V, Qt::ControlModifier);
            QTest::keyClick(edit, Qt::Key_Return);
        },
        previous);
}

// Save in the next unsaved-changes question, then `path` in the file dialog that follows it.
inline std::shared_ptr<ModalSeen> saveAsWhenAsked(const QString& path, std::shared_ptr<ModalSeen>* fileDialog)
{
    return whenModal([path, fileDialog](QWidget* modal) {
        auto* box = qobject_cast<QMessageBox*>(modal);
        if (!box || !box->button(QMessageBox::Save))
            return;
        *fileDialog = typeFileWhenAsked(path, box);
        QAbstractButton* save = box->button(QMessageBox::Save);
        QTest::mouseClick(save, Qt::LeftButton, Qt::NoModifier, save->rect().center());
    });
}

}  // namespace ridgeline::fixtures
