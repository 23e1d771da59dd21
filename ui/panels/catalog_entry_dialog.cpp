#include "ui/panels/catalog_entry_dialog.h"

#include "ui/plots/layout/chart_theme.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

CatalogEntryDialog::CatalogEntryDialog(QWidget* parent, const QString& title, const QString& what, const QString& id,
                                       const QString& name, const QString& source, Save save)
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
    m_id = new QLineEdit(id);
    m_id->setObjectName(QStringLiteral("catalogEntryId"));
    m_id->setToolTip(tr("What `ridgeline model --gpu ID` / `--model ID` takes: letters, digits, '.', '_', '-', '+'"));
    m_name = new QLineEdit(name);
    m_name->setObjectName(QStringLiteral("catalogEntryName"));
    m_source = new QLineEdit(source);
    m_source->setObjectName(QStringLiteral("catalogEntrySource"));
    m_source->setToolTip(tr("Where the figures come from: a datasheet, a config.json, your own measurement"));
    form->addRow(tr("Id"), m_id);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Source"), m_source);
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
    m_saveButton->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &CatalogEntryDialog::trySave);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit* edit : {m_id, m_name, m_source})
        connect(edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
    resize(560, sizeHint().height());
}

QString CatalogEntryDialog::errorText() const
{
    return m_error->isVisibleTo(this) ? m_error->text() : QString();
}

void CatalogEntryDialog::trySave()
{
    const std::optional<QString> refused =
        m_save(m_id->text().trimmed(), m_name->text().trimmed(), m_source->text().trimmed());
    if (!refused) {
        accept();
        return;
    }
    m_error->setText(*refused);
    m_error->show();
}

}  // namespace ridgeline::ui
