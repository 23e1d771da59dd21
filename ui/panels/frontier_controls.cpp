#include "ui/panels/frontier_controls.h"

#include "ui/panels/batching_control_util.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

namespace ridgeline::ui {

namespace {

// A field with its unit after it: "[ 500 ] ms".
QWidget* withUnit(QLineEdit* field, const QString& unit)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(plain(field), 1);
    layout->addWidget(plain(new QLabel(unit)));
    return row;
}

QLineEdit* field(const char* name, const QString& tip)
{
    auto* edit = new QLineEdit;
    edit->setObjectName(QLatin1String(name));
    edit->setPlaceholderText(QObject::tr("none"));
    edit->setClearButtonEnabled(true);
    edit->setToolTip(tip);
    return edit;
}

// The field's number, the user's locale first ("0,5") then the C locale ("0.5"); empty: none; nullopt in `ok` false
// when it is not a number.
std::optional<double> read(const QLineEdit* edit, bool& ok)
{
    const QString text = edit->text().trimmed();
    ok = true;
    if (text.isEmpty())
        return std::nullopt;
    double value = QLocale().toDouble(text, &ok);
    if (!ok)
        value = QLocale::c().toDouble(text, &ok);
    return ok ? std::optional(value) : std::nullopt;
}

QString shown(const std::optional<double>& value, double scale)
{
    return value ? QString::number(*value * scale, 'g', 6) : QString();
}

}  // namespace

FrontierControls::FrontierControls(QWidget* parent) : QGroupBox(tr("Frontier targets and price"), parent)
{
    setObjectName(QStringLiteral("frontierControls"));
    setFont(pixelFont(17, true));
    auto* form = new QFormLayout(this);
    m_ttft = field("frontierTtftTarget",
                   tr("Time to first token a request may take at most; the points that take longer are not marked"));
    m_itl = field("frontierItlTarget", tr("Time between a request's output tokens at most; slower is shaded"));
    m_price = field("frontierGpuHourPrice", tr("US dollars per GPU-hour: cost per million output tokens"));
    form->addRow(plain(new QLabel(tr("TTFT target"))), withUnit(m_ttft, tr("ms")));
    form->addRow(plain(new QLabel(tr("ITL target"))), withUnit(m_itl, tr("ms")));
    form->addRow(plain(new QLabel(tr("Price"))), withUnit(m_price, tr("$ per GPU-hour")));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("frontierStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette warn = m_status->palette();
    warn.setColor(QPalette::WindowText, ChartTheme::make(ThemeKind::Light).highlight);
    m_status->setPalette(warn);
    m_status->hide();
    form->addRow(plain(m_status));
    for (QLineEdit* edit : {m_ttft, m_itl, m_price})
        connect(edit, &QLineEdit::editingFinished, this, &FrontierControls::take);
}

void FrontierControls::showSettings(const FrontierSettings& settings)
{
    m_settings = settings;
    m_ttft->setText(shown(settings.targets.ttftSeconds, 1e3));
    m_itl->setText(shown(settings.targets.itlSeconds, 1e3));
    m_price->setText(shown(settings.gpuHourPrice, 1.0));
}

QString FrontierControls::status() const
{
    return m_status->isVisibleTo(this) ? m_status->text() : QString();
}

// The three fields as one candidate: taken when every field reads and the check passes, else the fields go back to
// the settings in force and the line under them says why.
void FrontierControls::take()
{
    bool ttftOk = true, itlOk = true, priceOk = true;
    FrontierSettings candidate;
    candidate.targets.ttftSeconds = read(m_ttft, ttftOk);
    candidate.targets.itlSeconds = read(m_itl, itlOk);
    candidate.gpuHourPrice = read(m_price, priceOk);
    if (candidate.targets.ttftSeconds)
        *candidate.targets.ttftSeconds /= 1e3;
    if (candidate.targets.itlSeconds)
        *candidate.targets.itlSeconds /= 1e3;
    std::optional<QString> refused;
    if (!ttftOk || !itlOk)
        refused = tr("A target is a number of milliseconds, or empty for none.");
    else if (!priceOk)
        refused = tr("The price is a number of US dollars per GPU-hour, or empty for none.");
    else if (m_check)
        refused = m_check(candidate);
    if (refused) {
        QString message = *refused;
        if (!message.isEmpty())
            message[0] = message[0].toUpper();
        m_status->setText(message);
        m_status->show();
        showSettings(m_settings);
        return;
    }
    m_status->hide();
    m_status->clear();
    if (candidate == m_settings)
        return;
    m_settings = candidate;
    emit edited(m_settings);
}

}  // namespace ridgeline::ui
