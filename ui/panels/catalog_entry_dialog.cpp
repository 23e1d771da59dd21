#include "ui/panels/catalog_entry_dialog.h"

#include "core/model/serving/token_cost.h"
#include "ui/plots/layout/chart_theme.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

// The price field's number, the user's locale first ("2,5") then the C locale ("2.5"); nullopt in `price` when empty.
// What is wrong with it, or nothing.
std::optional<QString> readPrice(const QLineEdit* edit, std::optional<double>& price)
{
    price.reset();
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    double usd = QLocale().toDouble(text, &ok);
    if (!ok)
        usd = QLocale::c().toDouble(text, &ok);
    if (!ok)
        return QObject::tr("The price is a number of US dollars per GPU-hour, or empty for none; got \"%1\"").arg(text);
    if (const std::optional<QString> refused = checkGpuHourPrice(usd)) {
        QString message = *refused;
        message[0] = message[0].toUpper();
        return message;
    }
    price = usd;
    return std::nullopt;
}

}  // namespace

CatalogEntryDialog::CatalogEntryDialog(QWidget* parent, const QString& title, const QString& what,
                                       const CatalogEntry& start, Price price, Save save)
    : QDialog(parent), m_save(std::move(save))
{
    setObjectName(QStringLiteral("CatalogEntryDialog"));
    setWindowTitle(title);
    setWindowModality(Qt::WindowModal);
    setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(what);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    m_id = new QLineEdit(start.id);
    m_id->setObjectName(QStringLiteral("catalogEntryId"));
    m_id->setToolTip(tr("What `ridgeline model --gpu ID` / `--model ID` takes: letters, digits, '.', '_', '-', '+'"));
    m_name = new QLineEdit(start.name);
    m_name->setObjectName(QStringLiteral("catalogEntryName"));
    m_source = new QLineEdit(start.source);
    m_source->setObjectName(QStringLiteral("catalogEntrySource"));
    m_source->setToolTip(tr("Where the figures come from: a datasheet, a config.json, your own measurement"));
    form->addRow(tr("Id"), m_id);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Source"), m_source);
    if (price == Price::Asked) {
        m_price = new QLineEdit(start.gpuHourPrice ? QString::number(*start.gpuHourPrice, 'g', 6) : QString());
        m_price->setObjectName(QStringLiteral("catalogEntryPrice"));
        m_price->setPlaceholderText(tr("none"));
        m_price->setToolTip(
            tr("What one GPU-hour costs you, in US dollars: the cost per million tokens of this "
               "card, here and in `ridgeline model`, unless --gpu-hour-price says otherwise"));
        form->addRow(tr("Price, $ per GPU-hour (optional)"), m_price);
    }
    layout->addLayout(form);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("catalogEntryError"));
    m_error->setWordWrap(true);
    QPalette red;
    red.setColor(QPalette::WindowText, ChartTheme::make(ThemeKind::Light).highlight);
    m_error->setPalette(red);
    m_error->hide();
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_saveButton = buttons->addButton(tr("Save"), QDialogButtonBox::AcceptRole);
    m_saveButton->setObjectName(QStringLiteral("catalogEntrySave"));
    layout->addWidget(buttons);
    // Only once the button is inside the dialog: set before, the dialog never learns it, makes its first button
    // (Cancel) the default when shown, and Return in a field cancels.
    m_saveButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &CatalogEntryDialog::trySave);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit* edit : {m_id, m_name, m_source, m_price})
        if (edit)
            connect(edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
    resize(560, sizeHint().height());
}

QString CatalogEntryDialog::errorText() const
{
    return m_error->isVisibleTo(this) ? m_error->text() : QString();
}

void CatalogEntryDialog::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
}

void CatalogEntryDialog::trySave()
{
    CatalogEntry entry{m_id->text().trimmed(), m_name->text().trimmed(), m_source->text().trimmed(), std::nullopt};
    if (m_price)
        if (const std::optional<QString> refused = readPrice(m_price, entry.gpuHourPrice)) {
            showError(*refused);
            return;
        }
    if (const std::optional<QString> refused = m_save(entry)) {
        showError(*refused);
        return;
    }
    accept();
}

}  // namespace ridgeline::ui
