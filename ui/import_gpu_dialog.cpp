#include "ui/import_gpu_dialog.h"

#include "core/model/catalog/catalog.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::ImportGpuDialog", text);
}

QString question(int kernels, const QStringList& deviceNames)
{
    QStringList named;
    for (const QString& name : deviceNames)
        if (!name.isEmpty())
            named << QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    const QString which =
        named.isEmpty() ? tr("a GPU their file does not name (Nsight Compute's device__attribute_display_name was not "
                             "collected)")
                        : tr("%1, which the GPU catalog does not list").arg(named.join(QStringLiteral(", ")));
    const QString count = kernels == 1 ? tr("1 imported kernel") : tr("%1 imported kernels").arg(kernels);
    return tr("<p>%1 ran on %2.</p><p>A GPU kernel is compared with its GPU's roofline (its datasheet peaks, memory "
              "and cache bandwidths), never with this computer's. Which GPU did it run on?</p>")
        .arg(count, which);
}

}  // namespace

void askImportGpu(QWidget* parent, int kernels, const QStringList& deviceNames,
                  std::function<void(const QString&)> answer, std::function<void()> cancelled)
{
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("ImportGpuDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Which GPU?"));
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QLabel(question(kernels, deviceNames), dialog);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* list = new QComboBox(dialog);
    list->setObjectName(QStringLiteral("ImportGpuList"));
    list->addItem(tr("Choose the GPU…"));
    if (const Result<std::vector<GpuSpec>>& gpus = builtinGpus(); gpus)
        for (const GpuSpec& gpu : gpus.value())
            list->addItem(QStringLiteral("%1 (%2)").arg(gpu.name, gpu.id), gpu.id);
    list->addItem(tr("None of these: import them without a roof"), QString());
    layout->addWidget(list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, dialog);
    QPushButton* import = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    import->setEnabled(false);
    layout->addWidget(buttons);
    QObject::connect(list, &QComboBox::currentIndexChanged, dialog,
                     [import](int index) { import->setEnabled(index > 0); });
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    QObject::connect(dialog, &QDialog::accepted, dialog, [list, answer] { answer(list->currentData().toString()); });
    QObject::connect(dialog, &QDialog::rejected, dialog, [cancelled] { cancelled(); });
    dialog->resize(640, dialog->sizeHint().height());
    list->setFocus();
    dialog->open();
}

}  // namespace ridgeline::ui
