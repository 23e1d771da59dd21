#pragma once
// Spin boxes that say why they refuse a number. Qt's own drop the keystroke that would take the text out of range:
// typing 5000 into a box of 1 to 1,024 leaves 500 with no word why. These take any number typed; when the edit ends
// (Enter, or the focus leaving) with a number out of range, or no number, the box keeps the value it had when the
// edit began and says so beside it and in the window's status bar: "Batch must be 1 to 4,096 sequences; kept 16".
// A box that follows every key (keyboard tracking) has taken the in-range prefixes on the way (500 on the way to
// 5000): the refusal takes it back to where the edit began. Every spin box of the window is one of these, so the rule
// and its wording have one home.

#include <QDoubleSpinBox>
#include <QSpinBox>

#include <utility>

namespace ridgeline::ui {

// The rule both boxes keep, on QSpinBox or QDoubleSpinBox; the boxes below add the signal (moc reads no template).
template <typename Box>
class CheckedBox : public Box {
public:
    using Value = decltype(std::declval<const Box&>().value());

    // The unit the message names after the range when the box shows no suffix ("sequences", "tokens").
    void setUnit(const QString& unit) { m_unit = unit; }
    // The text of the last refusal; empty before any.
    QString lastRefusal() const { return m_lastRefusal; }
    // An arrow key or button ends any typing: the value it steps to is where the next edit begins.
    void stepBy(int steps) override;

protected:
    explicit CheckedBox(QWidget* parent);
    QValidator::State validate(QString& text, int& pos) const override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    virtual void emitRefused(const QString& message) = 0;

private:
    int shownDecimals() const;
    bool refuseIfOutOfRange();
    Value editStart() const;  // the value the edit began from, which a refusal keeps
    void endEdit(bool refused);

    QString m_unit;
    QString m_lastRefusal;
    mutable Value m_beforeEdit = 0;  // noted by validate() at an edit's first key
    bool m_typing = false;
};

class CheckedSpinBox : public CheckedBox<QSpinBox> {
    Q_OBJECT
public:
    explicit CheckedSpinBox(QWidget* parent = nullptr) : CheckedBox(parent) {}

signals:
    void refused(const QString& message);

protected:
    void emitRefused(const QString& message) override { emit refused(message); }
};

class CheckedDoubleSpinBox : public CheckedBox<QDoubleSpinBox> {
    Q_OBJECT
public:
    explicit CheckedDoubleSpinBox(QWidget* parent = nullptr) : CheckedBox(parent) {}

signals:
    void refused(const QString& message);

protected:
    void emitRefused(const QString& message) override { emit refused(message); }
};

// "Batch must be 1 to 1,024 sequences; kept 16": the name is the field's label (its form row's, found through the
// label's buddy), the range in grouped digits with trailing zeros dropped, then `unit` (the box's suffix, or the word
// setUnit gave it).
// `kept`: the value the box keeps (its special text when that is the minimum's).
QString rangeRefusalMessage(const QAbstractSpinBox& box, double minimum, double maximum, double kept, int decimals,
                            const QString& unit);

}  // namespace ridgeline::ui
