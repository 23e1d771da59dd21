#include "ui/chart/training_hierarchy.h"

#include "ui/widgets/accessible_text.h"

#include "ui/plots/training/training_geometry.h"

#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kMargin = 16.0;
constexpr double kGap = 8.0;
constexpr double kSwatch = 14.0;

QFont bold(QFont font)
{
    font.setBold(true);
    return font;
}

QString title(const HierarchyData& data)
{
    return data.title.isEmpty() ? QStringLiteral("Collectives by the link they cross") : data.title;
}

// "tensor-parallel all-reduce across nodes": the legend above names the two links.
QString where(const CollectiveRow& row)
{
    return row.crossesNodes ? QStringLiteral("across nodes") : QStringLiteral("inside a node");
}

QString rowWords(const CollectiveRow& row)
{
    return QStringLiteral("%1 %2").arg(row.what, where(row));
}

}  // namespace

TrainingHierarchy::TrainingHierarchy(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_theme = ChartTheme::make(ThemeKind::Light);
}

void TrainingHierarchy::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    update();
}

void TrainingHierarchy::setData(const HierarchyData& data)
{
    m_data = data;
    const int height = minimumSizeHint().height();
    if (height != m_height) {  // only a new count of nodes or collectives relays the panel out
        m_height = height;
        updateGeometry();
    }
    setAccessibleText(*this, title(m_data), texts());
    update();
}

QStringList TrainingHierarchy::texts() const
{
    QStringList list{title(m_data), QStringLiteral("inside a node: %1").arg(m_data.insideLink),
                     QStringLiteral("across nodes: %1").arg(m_data.acrossLink)};
    for (const CollectiveRow& row : m_data.rows)
        list << rowWords(row) << row.numbers;
    if (m_data.rows.empty())
        list << m_data.emptyText;
    return list;
}

QColor TrainingHierarchy::rowColor(int row) const
{
    return row >= 0 && row < static_cast<int>(m_data.rows.size())
               ? trainingLinkColor(m_data.rows[static_cast<std::size_t>(row)].crossesNodes, m_theme)
               : QColor();
}

bool TrainingHierarchy::isCut() const
{
    const QFontMetricsF metrics(m_theme.legendFont);
    const QFontMetricsF strong(bold(m_theme.legendFont));
    const HierarchyGeometry g = layoutHierarchy(m_data, area(), lineHeight());
    bool cut = metrics.horizontalAdvance(QStringLiteral("inside a node: %1").arg(m_data.insideLink)) >
                   g.rows.width() - kSwatch - 8.0 ||
               metrics.horizontalAdvance(QStringLiteral("across nodes: %1").arg(m_data.acrossLink)) >
                   g.rows.width() - kSwatch - 8.0;
    if (m_data.rows.empty())
        return cut || metrics.horizontalAdvance(m_data.emptyText) > g.rows.width();
    for (std::size_t i = 0; i < m_data.rows.size(); ++i) {
        const CollectiveRow& row = m_data.rows[i];
        const double words =
            strong.horizontalAdvance(row.what + QStringLiteral(" ")) + metrics.horizontalAdvance(where(row));
        cut = cut || words > g.rowText[i].width() ||
              metrics.horizontalAdvance(row.numbers) > g.rows.right() - g.rowNumbers[i].x();
    }
    return cut;
}

double TrainingHierarchy::lineHeight() const
{
    return std::ceil(QFontMetricsF(m_theme.legendFont).height()) + 2.0;
}

QRectF TrainingHierarchy::area() const
{
    const double top = kGap + QFontMetricsF(bold(m_theme.axisTitleFont)).height() + kGap;
    return QRectF(QPointF(kMargin, top), QPointF(width() - kMargin, height() - kGap));
}

QSize TrainingHierarchy::sizeHint() const
{
    return QSize(800, minimumSizeHint().height());
}

QSize TrainingHierarchy::minimumSizeHint() const
{
    const double top = kGap + QFontMetricsF(bold(m_theme.axisTitleFont)).height() + kGap;
    return QSize(400, static_cast<int>(std::ceil(top + hierarchyHeight(m_data, lineHeight()) + kGap)));
}

void TrainingHierarchy::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillRect(rect(), m_theme.background);
    const QFont titleFont = bold(m_theme.axisTitleFont);
    p.setFont(titleFont);
    p.setPen(m_theme.text);
    p.drawText(QPointF(kMargin, kGap + QFontMetricsF(titleFont).ascent()), title(m_data));
    const HierarchyGeometry g = layoutHierarchy(m_data, area(), lineHeight());
    p.setFont(m_theme.legendFont);
    paintMachine(p, g);
    paintRows(p, g);
}

// The nodes as boxes of GPUs over their interconnect, joined by the network; what is not drawn said in words.
void TrainingHierarchy::paintMachine(QPainter& p, const HierarchyGeometry& g) const
{
    const QFontMetricsF metrics(m_theme.legendFont);
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        const QRectF node = g.nodes[n];
        p.setPen(QPen(m_theme.mutedText, 1.0));
        p.setBrush(m_theme.plotBackground);
        p.drawRoundedRect(node, 6, 6);
        p.setPen(m_theme.text);
        const QString label =
            g.hiddenGpusPerNode > 0
                ? QStringLiteral("node %1: %2 GPUs (%3 drawn)").arg(n + 1).arg(m_data.gpusPerNode).arg(g.gpus[n].size())
                : QStringLiteral("node %1: %2 GPU%3")
                      .arg(n + 1)
                      .arg(m_data.gpusPerNode)
                      .arg(m_data.gpusPerNode == 1 ? QString() : QStringLiteral("s"));
        p.drawText(QPointF(node.left() + 8.0, node.top() + 4.0 + metrics.ascent()), label);
        p.setPen(QPen(m_theme.mutedText, 1.0));
        p.setBrush(m_theme.minorGrid);
        for (const QRectF& gpu : g.gpus[n])
            p.drawRect(gpu);
    }
    p.setPen(QPen(trainingLinkColor(false, m_theme), 5.0, Qt::SolidLine, Qt::RoundCap));
    for (const QLineF& line : g.insideLinks)
        p.drawLine(line);
    p.setPen(QPen(trainingLinkColor(true, m_theme), 5.0, Qt::SolidLine, Qt::RoundCap));
    for (const QLineF& line : g.acrossLinks)
        p.drawLine(line);
    if (g.hiddenNodes > 0 && !g.nodes.empty()) {
        p.setPen(m_theme.mutedText);
        p.drawText(QPointF(g.nodes.back().left(), g.nodes.back().bottom() + 4.0 + metrics.ascent()),
                   QStringLiteral("\u2026 and %1 more node%2 like these")
                       .arg(g.hiddenNodes)
                       .arg(g.hiddenNodes == 1 ? QString() : QStringLiteral("s")));
    }
}

// The two links' legend, then each collective: its words over a bar in its link's colour.
void TrainingHierarchy::paintRows(QPainter& p, const HierarchyGeometry& g) const
{
    const QFontMetricsF metrics(m_theme.legendFont);
    const double line = lineHeight();
    const QString legends[] = {QStringLiteral("inside a node: %1").arg(m_data.insideLink),
                               QStringLiteral("across nodes: %1").arg(m_data.acrossLink)};
    for (int i = 0; i < 2; ++i) {
        const double top = g.rows.top() + i * line;
        p.setPen(Qt::NoPen);
        p.setBrush(trainingLinkColor(i == 1, m_theme));
        p.drawRect(QRectF(g.rows.left(), top + (line - kSwatch) / 2.0, kSwatch, kSwatch));
        p.setPen(m_theme.text);
        p.drawText(QPointF(g.rows.left() + kSwatch + 8.0, top + (line - metrics.height()) / 2.0 + metrics.ascent()),
                   metrics.elidedText(legends[i], Qt::ElideRight, g.rows.width() - kSwatch - 8.0));
    }
    if (m_data.rows.empty()) {
        p.setPen(m_theme.mutedText);
        p.drawText(QPointF(g.rows.left(), g.rows.top() + 2.0 * line + kGap + metrics.ascent()),
                   metrics.elidedText(m_data.emptyText, Qt::ElideRight, g.rows.width()));
        return;
    }
    const QFont strong = bold(m_theme.legendFont);
    const QFontMetricsF strongMetrics(strong);
    for (std::size_t i = 0; i < m_data.rows.size(); ++i) {
        const CollectiveRow& row = m_data.rows[i];
        const QRectF text = g.rowText[i];
        const QString what = row.what + QStringLiteral(" ");
        p.setFont(strong);
        p.setPen(m_theme.text);
        p.drawText(QPointF(text.left(), text.top() + metrics.ascent()), what);
        const double x = text.left() + strongMetrics.horizontalAdvance(what);
        p.setFont(m_theme.legendFont);
        p.drawText(QPointF(x, text.top() + metrics.ascent()),
                   metrics.elidedText(where(row), Qt::ElideRight, std::max(0.0, text.right() - x)));
        p.setPen(Qt::NoPen);
        p.setBrush(trainingLinkColor(row.crossesNodes, m_theme));
        p.drawRect(g.rowBars[i]);
        const QPointF at = g.rowNumbers[i];
        p.setPen(m_theme.text);
        p.drawText(QPointF(at.x(), at.y() - metrics.height() / 2.0 + metrics.ascent()),
                   metrics.elidedText(row.numbers, Qt::ElideRight, std::max(0.0, g.rows.right() - at.x())));
    }
}

}  // namespace ridgeline::ui
