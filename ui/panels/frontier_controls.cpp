#include "ui/panels/frontier_controls.h"

#include "ui/panels/batching_control_util.h"

#include <QAbstractButton>
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
    // The clear button shows while the field has text (the price box mostly does): a screen reader names it too.
    for (QAbstractButton* clear : edit->findChildren<QAbstractButton*>())
        clear->setAccessibleName(QObject::tr("Clear the field"));
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
    m_price = field("frontierGpuHourPrice", tr("US dollars per GPU-hour: cost per million output tokens. Starts "
                                               "from the GPU's catalog price; empty it to go back to that"));
    form->addRow(plain(new QLabel(tr("TTFT target"))), withUnit(m_ttft, tr("ms")));
    form->addRow(plain(new QLabel(tr("ITL target"))), withUnit(m_itl, tr("ms")));
    form->addRow(plain(new QLabel(tr("Price"))), withUnit(m_price, tr("$ per GPU-hour")));
    m_priceSource = new QLabel;
    plain(m_priceSource);
    m_priceSource->setObjectName(QStringLiteral("frontierPriceSource"));
    m_priceSource->setWordWrap(true);
    m_priceSource->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(QString(), m_priceSource);
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
    m_price->setText(shown(settings.gpuHourPrice ? settings.gpuHourPrice : m_catalogPrice.gpuHourPrice, 1.0));
    showPriceSource();
}

void FrontierControls::setCatalogPrice(const CostInputs& catalog)
{
    m_catalogPrice = catalog;
    if (!m_settings.gpuHourPrice)  // a price typed here stays; else the field follows the GPU
        m_price->setText(shown(catalog.gpuHourPrice, 1.0));
    showPriceSource();
}

void FrontierControls::showPriceSource()
{
    QString text;
    if (m_settings.gpuHourPrice)
        text = m_catalogPrice.gpuHourPrice
                   ? tr("Typed here, over the GPU's %1: empty the field for it").arg(priceText(m_catalogPrice))
                   : tr("Typed here");
    else if (!m_catalogPrice.gpuHourPrice)
        text = tr("No price for this GPU: type one for its cost per million tokens");
    else if (m_catalogPrice.priceSource == PriceSource::Example)
        text = tr("Example price, %1: type yours to override").arg(m_catalogPrice.exampleOf);
    else
        text = tr("From your catalog: type another to override");
    m_priceSource->setText(text);
}

QString FrontierControls::status() const
{
    return m_status->isVisibleTo(this) ? m_status->text() : QString();
}

QString FrontierControls::priceSource() const
{
    return m_priceSource->text();
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
    // The catalog's own price shown back, or an empty field, is no price of the person's: the catalog's stays in
    // force and follows the GPU.
    if (candidate.gpuHourPrice && m_catalogPrice.gpuHourPrice &&
        (*candidate.gpuHourPrice == *m_catalogPrice.gpuHourPrice ||
         m_price->text().trimmed() == shown(m_catalogPrice.gpuHourPrice, 1.0)))
        candidate.gpuHourPrice.reset();
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
    if (!candidate.gpuHourPrice)  // an emptied price field shows the catalog's again
        m_price->setText(shown(m_catalogPrice.gpuHourPrice, 1.0));
    const bool changed = !(candidate == m_settings);
    m_settings = candidate;
    showPriceSource();
    if (changed)
        emit edited(m_settings);
}

}  // namespace ridgeline::ui
