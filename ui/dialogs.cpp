#include "ui/dialogs.h"

#include "core/measure/machine/probe.h"
#include "ui/chart/chart_export.h"
#include "ui/widgets/checked_spin_box.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::MainWindow", text);
}

QDialogButtonBox* okCancel(QDialog& dialog)
{
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    return buttons;
}

}  // namespace

std::optional<ExportSize> askExportSize(QWidget* parent, ExportSize current, bool png)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Export Size"));
    auto* form = new QFormLayout(&dialog);
    auto* sizeEdit =
        new QLineEdit(QStringLiteral("%1x%2").arg(current.pixels.width()).arg(current.pixels.height()), &dialog);
    form->addRow(tr("Size (pixels):"), sizeEdit);
    auto* ratioSpin = new CheckedDoubleSpinBox(&dialog);
    ratioSpin->setRange(0.5, 4.0);
    ratioSpin->setSingleStep(0.5);
    ratioSpin->setValue(current.pixelRatio);
    ratioSpin->setEnabled(png);
    form->addRow(tr("Device pixel ratio (PNG):"), ratioSpin);
    form->addRow(okCancel(dialog));
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return ExportSize{parseSize(sizeEdit->text()), ratioSpin->value()};
}

std::optional<NamedRoof> askCustomGpu(QWidget* parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Custom GPU Roofline"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit(tr("My GPU"), &dialog);
    auto* peak = new CheckedDoubleSpinBox(&dialog);
    peak->setRange(0.001, 100000.0);
    peak->setDecimals(3);
    peak->setValue(300.0);
    peak->setSuffix(tr(" TFLOP/s"));
    auto* bandwidth = new CheckedDoubleSpinBox(&dialog);
    bandwidth->setRange(0.001, 1000.0);
    bandwidth->setDecimals(3);
    bandwidth->setValue(2.0);
    bandwidth->setSuffix(tr(" TB/s"));
    form->addRow(tr("Name:"), name);
    form->addRow(tr("Dense peak:"), peak);
    form->addRow(tr("Memory bandwidth:"), bandwidth);
    auto* note = new QLabel(tr("Use a dense (not with-sparsity) peak for the precision you care about."), &dialog);
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(okCancel(dialog));
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    const QString typed = name->text().trimmed();
    return NamedRoof{typed.isEmpty() ? tr("Custom GPU") : typed,
                     Roof{peak->value() * 1000.0, bandwidth->value() * 1000.0}};
}

void showImportSummary(QWidget* parent, const QStringList& lines)
{
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("ImportSummaryDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Import Summary"));
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(lines.join(QLatin1Char('\n')));
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok, dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    layout->addWidget(buttons);
    // Wide enough for the usual line (skip reasons are long), at most about a laptop screen.
    const QFontMetrics metrics(text->font());
    int widest = 0;
    for (const QString& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line));
    const int height = static_cast<int>(lines.size()) * metrics.lineSpacing();
    dialog->resize(std::clamp(widest + 110, 640, 1240), std::clamp(height + 110, 240, 680));
    dialog->open();
}

void showShortcuts(QWidget* parent, const QMenuBar* menus)
{
    QString rows;
    for (const QMenu* menu : menus->findChildren<QMenu*>()) {
        for (const QAction* action : menu->actions()) {
            if (action->shortcut().isEmpty())
                continue;
            rows += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             action->text().remove(u'&').toHtmlEscaped());
        }
    }
    // The roofline chart's own keys, while it has the focus: no menu holds them (a plain N in a menu would take
    // the letter from every text field).
    const QList<std::pair<QString, QString>> chartKeys = {
        {tr("Wheel / drag"), tr("Zoom / rubber-band zoom on the chart")},
        {tr("+ / \u2212 / arrows"), tr("Zoom / pan the chart")},
        {tr("N / P"),
         tr("Select the next / previous kernel in view (by intensity, then performance), as a click does")},
        {tr("Tab / Shift+Tab"), tr("The same once a kernel is selected; past the last, on to the next control")},
        {tr("Enter"), tr("Explain the selected kernel")},
        {tr("Esc"), tr("Clear the chart's selection")},
    };
    for (const auto& [keys, what] : chartKeys)
        rows += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard Shortcuts"), QStringLiteral("<table>%1</table>").arg(rows),
                    QMessageBox::Close, parent);
    box.exec();
}

void showAbout(QWidget* parent)
{
    const MachineInfo machine = probeMachine();
    QMessageBox::about(parent, tr("About Ridgeline"),
                       tr("<h3>Ridgeline %1</h3><p>The roofline model and LLM batching, made tangible.</p>"
                          "<p>OpenBLAS %2, kernel <b>%3</b> (%4 threads)<br>Qt %5<br>%6, %7 CPUs</p>")
                           .arg(QCoreApplication::applicationVersion(), machine.openblasVersion, machine.openblasCore)
                           .arg(machine.openblasThreads)
                           .arg(QString::fromLatin1(qVersion()), machine.cpuModel.toHtmlEscaped())
                           .arg(machine.cores));
}

}  // namespace ridgeline::ui
