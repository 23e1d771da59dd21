#include "ui/compare_dialog.h"

#include "core/save_file.h"
#include "core/session/session_csv.h"
#include "ui/widgets/checked_spin_box.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

// Room between columns: right-aligned numbers otherwise run into the next column's left-aligned neighbour.
class PaddedDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        return QStyledItemDelegate::sizeHint(option, index) + QSize(24, 0);
    }
};

QLabel* wrappedLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString sideLine(const QString& role, const ComparisonSide& side)
{
    return QStringLiteral("<b>%1:</b> %2 — %3")
        .arg(role, side.name.toHtmlEscaped(), sessionDescription(side.session).toHtmlEscaped());
}

}  // namespace

CompareDialog::CompareDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("CompareDialog"));
    setWindowTitle(tr("Compare Sessions — Ridgeline"));
    m_model = new ComparisonTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ComparisonTableModel::SortRole);

    m_beforeLabel = wrappedLabel(QStringLiteral("compareBefore"), this);
    m_afterLabel = wrappedLabel(QStringLiteral("compareAfter"), this);
    m_swap = new QPushButton(tr("&Swap Before and After"), this);
    m_swap->setObjectName(QStringLiteral("compareSwap"));
    m_swap->setToolTip(tr("Judge the other session against this one: every change flips its sign"));
    m_notes = wrappedLabel(QStringLiteral("compareNotes"), this);

    m_threshold = new CheckedDoubleSpinBox(this);
    m_threshold->setObjectName(QStringLiteral("compareThreshold"));
    m_threshold->setRange(0.0, 1000.0);
    m_threshold->setDecimals(1);
    m_threshold->setSingleStep(1.0);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setValue(kDefaultCompareThresholdPercent);
    m_threshold->setKeyboardTracking(true);  // live: every key typed recomputes
    auto* thresholdLabel = new QLabel(tr("&Threshold:"), this);
    thresholdLabel->setBuddy(m_threshold);
    auto* rule = wrappedLabel(QStringLiteral("compareRule"), this);
    rule->setText(
        tr("A change counts when it is at least the threshold and larger than the noise, the larger "
           "spread ((max − min) / median over the repetitions) of the two runs; n/a: no spread recorded, "
           "the threshold alone decides."));

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setAccessibleName(tr("Comparison"));
    m_table->setAccessibleDescription(
        tr("Each ceiling and kernel before and after, its change, the noise and the verdict"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ComparisonTableModel::SectionColumn, Qt::AscendingOrder);  // stable: core's order
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->setShowGrid(false);
    m_table->setItemDelegate(new PaddedDelegate(m_table));
    // Every column as wide as its widest text (numbers are never elided), the names beside their numbers; the
    // verdict takes what room is left.
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    m_summary = wrappedLabel(QStringLiteral("compareSummary"), this);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("&Copy as Text"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("compareCopy"));
    connect(copy, &QPushButton::clicked, this, &CompareDialog::copyAsText);
    QPushButton* exportCsvButton = buttons->addButton(tr("&Export CSV…"), QDialogButtonBox::ActionRole);
    exportCsvButton->setObjectName(QStringLiteral("compareExportCsv"));
    connect(exportCsvButton, &QPushButton::clicked, this, &CompareDialog::askCsvPath);
    m_status = wrappedLabel(QStringLiteral("compareStatus"), this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);

    auto* sides = new QVBoxLayout;
    sides->addWidget(m_beforeLabel);
    sides->addWidget(m_afterLabel);
    auto* top = new QHBoxLayout;
    top->addLayout(sides, 1);
    top->addWidget(m_swap, 0, Qt::AlignTop);
    auto* thresholdRow = new QHBoxLayout;
    thresholdRow->addWidget(thresholdLabel);
    thresholdRow->addWidget(m_threshold);
    thresholdRow->addWidget(rule, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_summary, 1);
    bottom->addWidget(m_status, 1);
    bottom->addWidget(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_notes);
    layout->addLayout(thresholdRow);
    layout->addWidget(m_table, 1);
    layout->addLayout(bottom);

    connect(m_swap, &QPushButton::clicked, m_model, &ComparisonTableModel::swapSides);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, m_model, &ComparisonTableModel::setThreshold);
    connect(m_model, &ComparisonTableModel::recomputed, this, &CompareDialog::updateTexts);
    resize(1180, 760);
}

void CompareDialog::setSides(ComparisonSide before, ComparisonSide after)
{
    m_model->setThreshold(m_threshold->value());
    m_model->setSides(std::move(before), std::move(after));
}

void CompareDialog::setTheme(ThemeKind kind)
{
    const ChartTheme theme = ChartTheme::make(kind);
    setPalette(themedPalette(theme, palette()));
    setAutoFillBackground(true);
    m_model->setTheme(kind);
}

void CompareDialog::updateTexts()
{
    m_beforeLabel->setText(sideLine(tr("Before"), m_model->before()));
    m_afterLabel->setText(sideLine(tr("After"), m_model->after()));
    const QStringList notes = m_model->comparison().notes;
    QStringList lines;
    for (const QString& note : notes)
        lines << tr("<b>Note:</b> %1").arg(note.toHtmlEscaped());
    m_notes->setText(lines.join(QStringLiteral("<br>")));
    m_notes->setVisible(!notes.isEmpty());
    m_summary->setText(m_model->summary());
    m_status->clear();
}

void CompareDialog::copyAsText()
{
    QApplication::clipboard()->setText(m_model->asText());
    m_status->setText(tr("Copied %n rows as text", nullptr, m_model->rowCount()));
}

void CompareDialog::askCsvPath()
{
    // Not the native dialog: the same one everywhere, and one the tests can type a path into.
    auto* dialog = new QFileDialog(this, tr("Export Comparison"), QString(), tr("CSV files (*.csv)"));
    dialog->setObjectName(QStringLiteral("CompareExportDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &CompareDialog::exportCsv);
    dialog->open();
}

void CompareDialog::exportCsv(const QString& path)
{
    const CsvTable table = comparisonCsvTable(m_model->comparison());
    if (const std::optional<Error> error = saveFile(path, table.text)) {  // a failure replaces nothing
        m_status->setText(error->message);
        return;
    }
    m_status->setText(tr("Exported %n rows to %1", nullptr, table.rows).arg(QFileInfo(path).fileName()));
}

}  // namespace ridgeline::ui
