#include "ui/models/comparison_table_model.h"

#include "core/model/units.h"
#include "ui/plots/roofline/kernel_comparison.h"

#include <QFont>
#include <QStringList>

#include <cmath>
#include <limits>
#include <utility>

namespace ridgeline::ui {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kMissing = u"—"_s;

// Regressions first: what a reader looks for.
int verdictRank(ComparisonVerdict verdict)
{
    switch (verdict) {
        case ComparisonVerdict::Regression:
            return 0;
        case ComparisonVerdict::Improvement:
            return 1;
        case ComparisonVerdict::WithinNoise:
            return 2;
        case ComparisonVerdict::Unchanged:
            return 3;
        case ComparisonVerdict::OnlyInBaseline:
            return 4;
        case ComparisonVerdict::OnlyInNew:
            return 5;
    }
    return 6;
}

QString plural(int count, const QString& one, const QString& many)
{
    return QString::number(count) + u' ' + (count == 1 ? one : many);
}

QString spreadText(const std::optional<ComparedSide>& side, const QString& unit, const QString& label)
{
    if (!side)
        return label + u": not in this session"_s;
    QString text = label + u": "_s + side->name + u", "_s + comparedValueText(side, unit);
    if (side->noisePercent())
        text += u" (repetitions "_s + formatSignificant(side->spread.min, 4) + u" … "_s +
                formatSignificant(side->spread.max, 4) + u')';
    return text;
}

}  // namespace

QString comparedValueText(const std::optional<ComparedSide>& side, const QString& unit)
{
    if (!side || !std::isfinite(side->value))
        return kMissing;
    return formatSignificant(side->value, 4) + u' ' + unit;
}

QString noiseText(const std::optional<double>& noisePercent)
{
    if (!noisePercent || !std::isfinite(*noisePercent))
        return u"n/a"_s;
    return formatSignificant(*noisePercent, 2) + u" %"_s;
}

QString changeText(const ComparisonRow& row)
{
    if (!row.baseline || !row.candidate || !std::isfinite(row.changePercent))
        return kMissing;
    return row.changePercent == 0.0 ? u"0 %"_s : formatPercentChange(row.changePercent);
}

QString comparisonSummary(const SessionComparison& comparison)
{
    QStringList parts;
    parts << plural(comparison.count(ComparisonVerdict::Regression), u"regression"_s, u"regressions"_s)
          << plural(comparison.count(ComparisonVerdict::Improvement), u"improvement"_s, u"improvements"_s);
    if (const int noise = comparison.count(ComparisonVerdict::WithinNoise))
        parts << QString::number(noise) + u" within noise"_s;
    parts << QString::number(comparison.count(ComparisonVerdict::Unchanged)) + u" unchanged"_s;
    if (const int before = comparison.count(ComparisonVerdict::OnlyInBaseline))
        parts << QString::number(before) + u" only before"_s;
    if (const int after = comparison.count(ComparisonVerdict::OnlyInNew))
        parts << QString::number(after) + u" only after"_s;
    return parts.join(u", "_s) + u" at "_s + formatCompact(comparison.thresholdPercent) + u" % threshold"_s;
}

QString sessionDescription(const Session& session)
{
    QString text = session.machine.cpuModel.isEmpty() ? u"unknown CPU"_s : session.machine.cpuModel;
    text += u", "_s + plural(session.machine.cores, u"CPU"_s, u"CPUs"_s);
    text += session.quick ? u", quick run"_s : u", full run"_s;
    if (!session.complete)
        text += u" (cancelled part-way)"_s;
    if (session.created.isValid())
        text += u", "_s + session.created.toUTC().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s);
    return text;
}

std::optional<QColor> verdictColor(ComparisonVerdict verdict, const ChartTheme& theme)
{
    switch (verdict) {
        case ComparisonVerdict::Regression:
            return theme.regression;
        case ComparisonVerdict::Improvement:
            return theme.improvement;
        case ComparisonVerdict::OnlyInBaseline:
        case ComparisonVerdict::OnlyInNew:
            return theme.mutedText;
        case ComparisonVerdict::Unchanged:
        case ComparisonVerdict::WithinNoise:
            break;
    }
    return std::nullopt;
}

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setSides(ComparisonSide before, ComparisonSide after)
{
    m_before = std::move(before);
    m_after = std::move(after);
    recompute();
}

void ComparisonTableModel::setThreshold(double percent)
{
    m_threshold = percent;
    recompute();
}

void ComparisonTableModel::swapSides()
{
    std::swap(m_before, m_after);
    recompute();
}

void ComparisonTableModel::setTheme(ThemeKind kind)
{
    m_theme = ChartTheme::make(kind);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
}

void ComparisonTableModel::recompute()
{
    beginResetModel();
    m_comparison = compareSessions(m_before.session, m_after.session, m_threshold);
    endResetModel();
    emit recomputed();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_comparison.rows.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QString ComparisonTableModel::cellText(const ComparisonRow& row, int column) const
{
    switch (column) {
        case SectionColumn:
            return sectionName(row.section);
        case KeyColumn:
            return row.key;
        case BeforeColumn:
            return comparedValueText(row.baseline, row.unit);
        case AfterColumn:
            return comparedValueText(row.candidate, row.unit);
        case ChangeColumn:
            return changeText(row);
        case NoiseColumn:
            return noiseText(row.noisePercent);
        case VerdictColumn:
            return verdictName(row.verdict);
    }
    return {};
}

QVariant ComparisonTableModel::sortValue(const ComparisonRow& row, int column) const
{
    const double missing = std::numeric_limits<double>::lowest();
    switch (column) {
        case KeyColumn:
            return row.key;
        case BeforeColumn:
            return row.baseline ? row.baseline->value : missing;
        case AfterColumn:
            return row.candidate ? row.candidate->value : missing;
        case ChangeColumn:
            return row.baseline && row.candidate ? row.changePercent : missing;
        case NoiseColumn:
            return row.noisePercent.value_or(missing);
        case VerdictColumn:
            return verdictRank(row.verdict);
    }
    return {};
}

QString ComparisonTableModel::toolTip(const ComparisonRow& row) const
{
    return spreadText(row.baseline, row.unit, u"Before"_s) + u'\n' + spreadText(row.candidate, row.unit, u"After"_s) +
           u"\nA change counts when it is at least the threshold and larger than the noise, the larger spread "
           "((max − min) / median over the repetitions) of the two runs."_s;
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ComparisonRow& row = m_comparison.rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const std::optional<QColor> colour = verdictColor(row.verdict, m_theme);
    const bool judged = row.verdict == ComparisonVerdict::Regression || row.verdict == ComparisonVerdict::Improvement;
    switch (role) {
        case Qt::DisplayRole:
            return cellText(row, column);
        case SortRole:
            // The section column sorts back to core's order (sections in turn, each in the baseline's order): a
            // stable sort by section alone would keep whatever order the previous sort left within a section.
            return column == SectionColumn ? QVariant(index.row()) : sortValue(row, column);
        case Qt::ToolTipRole:
            return toolTip(row);
        case Qt::TextAlignmentRole:
            return column >= BeforeColumn && column <= NoiseColumn
                       ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (colour && (column == ChangeColumn || column == VerdictColumn || !judged))
                return *colour;
            if (!colour && column == ChangeColumn)
                return m_theme.mutedText;  // a change below the threshold or the noise reads quieter
            return {};
        case Qt::BackgroundRole:
            return judged ? QVariant(m_theme.rowTint(*colour)) : QVariant();
        case Qt::FontRole:
            if (judged && (column == ChangeColumn || column == VerdictColumn)) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        default:
            return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        if (section == ChangeColumn)
            return u"(after − before) / before"_s;
        if (section == NoiseColumn)
            return u"The larger spread, (max − min) / median over the repetitions, of the two runs; n/a: neither "
                   "recorded one"_s;
        if (section == BeforeColumn || section == AfterColumn)
            return u"Ceilings: the best repetition; kernels: GFLOP/s at the median time"_s;
    }
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)  // over the cells' text
        return section >= BeforeColumn && section <= NoiseColumn
                   ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const QStringList kHeaders = {u"Section"_s, u"What"_s,  u"Before"_s, u"After"_s,
                                         u"Change"_s,  u"Noise"_s, u"Verdict"_s};
    return section >= 0 && section < kHeaders.size() ? kHeaders[section] : QVariant();
}

QString ComparisonTableModel::asText() const
{
    QStringList lines;
    lines << u"Before: "_s + m_before.name + u" ("_s + sessionDescription(m_before.session) + u')';
    lines << u"After: "_s + m_after.name + u" ("_s + sessionDescription(m_after.session) + u')';
    for (const QString& note : m_comparison.notes)
        lines << u"Note: "_s + note;
    QStringList header;
    for (int column = 0; column < kColumnCount; ++column)
        header << headerData(column, Qt::Horizontal).toString();
    lines << header.join(u'\t');
    for (const ComparisonRow& row : m_comparison.rows) {
        QStringList cells;
        for (int column = 0; column < kColumnCount; ++column)
            cells << cellText(row, column);
        lines << cells.join(u'\t');
    }
    lines << summary();
    return lines.join(u'\n') + u'\n';
}

}  // namespace ridgeline::ui
