#include "ui/widgets/checked_spin_box.h"

#include "core/model/units.h"
#include "ui/widgets/accessible_text.h"

#include <QAccessible>
#include <QKeyEvent>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QPointer>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>
#include <QToolTip>

#include <type_traits>

namespace ridgeline::ui {
namespace {

constexpr int kMessageMs = 10'000;

// Text a person may be midway through typing as a number: a sign, digits with group separators and at most one
// decimal point with no more decimals than the box shows, around the box's prefix and suffix. Qt's validators call
// a number past the range Invalid and drop the key; these boxes let it stand until the edit ends, to say why they
// refuse it. A decimal too many is still dropped as the key is typed: the range is not what is wrong with it.
bool typedNumber(const QAbstractSpinBox& box, const QString& prefix, const QString& suffix, QString text, int decimals)
{
    if (!prefix.isEmpty() && text.startsWith(prefix))
        text.remove(0, prefix.size());
    if (!suffix.isEmpty() && text.endsWith(suffix))
        text.chop(suffix.size());
    text = text.trimmed();
    const QLocale locale = box.locale();
    const QString group = QRegularExpression::escape(locale.groupSeparator());
    const QString point = QRegularExpression::escape(locale.decimalPoint());
    const QString pattern = decimals > 0
                                ? QStringLiteral("^[+-]?[0-9%1]*(%2[0-9]{0,%3})?$").arg(group, point).arg(decimals)
                                : QStringLiteral("^[+-]?[0-9%1]*$").arg(group);
    static const QRegularExpression digit(QStringLiteral("[0-9]"));
    return text.contains(digit) && QRegularExpression(pattern).match(text).hasMatch();
}

// A bound as a person writes it: grouped digits, no trailing zeros ("1,024", "100,000", "0.001").
QString bound(double value, int decimals)
{
    QString text = formatGrouped(value, decimals);
    if (text.contains(u'.')) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(u'.'))
            text.chop(1);
    }
    return text;
}

// Beside the box (a tooltip under it), in the window's status bar when it has one, and as the box's accessible
// description for a screen reader. The tooltip waits for the event loop: a refusal on the focus leaving comes just
// before the next field's focus-in, which would close a tooltip shown at once.
void announce(QAbstractSpinBox& box, const QString& message)
{
    QPointer<QAbstractSpinBox> guarded(&box);
    QTimer::singleShot(0, &box, [guarded, message] {
        if (guarded && guarded->isVisible())
            QToolTip::showText(guarded->mapToGlobal(QPoint(0, guarded->height())), message, guarded, {}, kMessageMs);
    });
    if (auto* window = qobject_cast<QMainWindow*>(box.window()))
        if (auto* status = window->findChild<QStatusBar*>(QString(), Qt::FindDirectChildrenOnly))
            status->showMessage(message, kMessageMs);
    box.setAccessibleDescription(message);
    if (QAccessible::isActive()) {
        QAccessibleEvent changed(&box, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&changed);
    }
}

// The box's own suffix names the unit where it has one (" TFLOP/s"), else the word it was given ("sequences").
QString shownUnit(const QString& suffix, const QString& unit)
{
    return suffix.trimmed().isEmpty() ? unit : suffix.trimmed();
}

bool endsEdit(const QKeyEvent& event)
{
    return event.key() == Qt::Key_Return || event.key() == Qt::Key_Enter;
}

// What Qt does when an edit ends: text that neither is a value nor fixes up to one goes back to the value.
bool willRevert(const QAbstractSpinBox& box)
{
    QString text = box.text();
    int pos = 0;
    if (box.validate(text, pos) == QValidator::Acceptable)
        return false;
    QString fixed = text;
    box.fixup(fixed);
    return fixed == text || box.validate(fixed, pos) != QValidator::Acceptable;
}

}  // namespace

QString rangeRefusalMessage(const QAbstractSpinBox& box, double minimum, double maximum, double kept, int decimals,
                            const QString& unit)
{
    QString name = fieldLabel(box);
    if (name.isEmpty())
        name = QObject::tr("The value");
    QString range = QObject::tr("%1 to %2").arg(bound(minimum, decimals), bound(maximum, decimals));
    if (!unit.isEmpty())
        range += u' ' + unit;
    const QString keptText =
        kept == minimum && !box.specialValueText().isEmpty() ? box.specialValueText() : bound(kept, decimals);
    return QObject::tr("%1 must be %2; kept %3").arg(name, range, keptText);
}

// Qt validates every key's text before the box takes it (and before a box that follows the keys changes its value):
// the first validation of an edit still sees the value the edit began from. A box that waits for the edit's end
// has that value still.
template <typename Box>
CheckedBox<Box>::CheckedBox(QWidget* parent) : Box(parent)
{
    QObject::connect(this->lineEdit(), &QLineEdit::textEdited, this, [this] { m_typing = true; });
}

template <typename Box>
int CheckedBox<Box>::shownDecimals() const
{
    if constexpr (std::is_same_v<Box, QDoubleSpinBox>)
        return this->decimals();
    else
        return 0;
}

template <typename Box>
QValidator::State CheckedBox<Box>::validate(QString& text, int& pos) const
{
    if (!m_typing)
        m_beforeEdit = this->value();  // before the first key of an edit changes anything
    const QValidator::State state = Box::validate(text, pos);
    if (state == QValidator::Invalid && typedNumber(*this, this->prefix(), this->suffix(), text, shownDecimals()))
        return QValidator::Intermediate;
    return state;
}

template <typename Box>
bool CheckedBox<Box>::refuseIfOutOfRange()
{
    if (!willRevert(*this))
        return false;
    m_lastRefusal = rangeRefusalMessage(*this, this->minimum(), this->maximum(), editStart(), shownDecimals(),
                                        shownUnit(this->suffix(), m_unit));
    announce(*this, m_lastRefusal);
    emitRefused(m_lastRefusal);
    return true;
}

template <typename Box>
typename CheckedBox<Box>::Value CheckedBox<Box>::editStart() const
{
    return this->keyboardTracking() ? m_beforeEdit : this->value();
}

template <typename Box>
void CheckedBox<Box>::endEdit(bool refused)
{
    m_typing = false;
    if (refused)
        this->setValue(editStart());
}

template <typename Box>
void CheckedBox<Box>::keyPressEvent(QKeyEvent* event)
{
    if (!endsEdit(*event)) {
        Box::keyPressEvent(event);
        return;
    }
    const bool refused = refuseIfOutOfRange();
    Box::keyPressEvent(event);
    endEdit(refused);
    if (refused)
        event->accept();  // a dialog's default button stays unpressed: the message is read, the value fixed first
}

template <typename Box>
void CheckedBox<Box>::focusOutEvent(QFocusEvent* event)
{
    const bool refused = refuseIfOutOfRange();
    Box::focusOutEvent(event);
    endEdit(refused);
}

template <typename Box>
void CheckedBox<Box>::stepBy(int steps)
{
    m_typing = false;
    Box::stepBy(steps);
}

template class CheckedBox<QSpinBox>;
template class CheckedBox<QDoubleSpinBox>;

}  // namespace ridgeline::ui
