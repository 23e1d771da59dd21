#include "ui/panels/training_panel.h"

#include "ui/widgets/accessible_text.h"

#include "ui/chart/training_bar.h"
#include "ui/chart/training_hierarchy.h"
#include "ui/panels/training_controls.h"
#include "ui/plots/training/training_geometry.h"
#include "ui/widgets/text_block.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

constexpr int kControlsWidth = 400;

}  // namespace

TrainingPanel::TrainingPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("TrainingPanel"));
    m_controls = new TrainingControls(this);
    m_controls->setFixedWidth(kControlsWidth);

    // Painted text blocks: new numbers repaint them without relaying out the window.
    m_headline = new TextBlock(1, this);
    m_headline->setObjectName(QStringLiteral("trainingHeadline"));
    m_headline->setFont(pixelFont(24, true));
    m_headline->setGrowsUpTo(2);
    m_detail = new TextBlock(2, this);
    m_detail->setFont(pixelFont(17));
    m_detail->setGrowsUpTo(4);
    m_errorBlock = new TextBlock(1, this);
    m_errorBlock->setObjectName(QStringLiteral("trainingError"));
    m_errorBlock->setFont(pixelFont(17, true));
    m_errorBlock->setGrowsUpTo(3);
    m_errorBlock->hide();
    m_memory = new TrainingBar(this);
    m_memory->setObjectName(QStringLiteral("trainingMemory"));
    m_time = new TrainingBar(this);
    m_time->setObjectName(QStringLiteral("trainingTime"));
    m_fix = new TextBlock(1, this);
    m_fix->setObjectName(QStringLiteral("trainingFix"));
    m_fix->setFont(pixelFont(17, true));
    m_fix->setGrowsUpTo(3);
    m_fix->setFramed(true);
    m_hierarchy = new TrainingHierarchy(this);
    m_notes = new TextBlock(1, this);
    m_notes->setFont(pixelFont(15));
    m_notes->setGrowsUpTo(4);

    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    right->addWidget(m_headline);
    right->addWidget(m_detail);
    right->addWidget(m_errorBlock);
    right->addWidget(m_memory);
    right->addWidget(m_fix);
    right->addWidget(m_time);
    right->addWidget(m_hierarchy);
    right->addWidget(m_notes);
    right->addStretch(1);

    auto* root = new QHBoxLayout(this);
    root->setContentsMargins(8, 8, 8, 8);
    root->setSpacing(12);
    root->addWidget(m_controls, 0, Qt::AlignTop);
    root->addLayout(right, 1);

    connect(m_controls, &TrainingControls::edited, this, &TrainingPanel::setRequest);
    applyPalette();
    m_controls->showRequest(m_request);
    recompute();
    nameFieldsAfterTheirLabels(*this);
}

void TrainingPanel::setTheme(ThemeKind theme)
{
    m_theme = theme;
    m_memory->setTheme(theme);
    m_time->setTheme(theme);
    m_hierarchy->setTheme(theme);
    applyPalette();
    recompute();
}

void TrainingPanel::applyPalette()
{
    setPalette(themedPalette(ChartTheme::make(m_theme), palette()));
    setAutoFillBackground(true);
}

void TrainingPanel::setRequest(const TrainingRequest& request)
{
    m_request = request;
    m_controls->showRequest(request);
    recompute();
}

void TrainingPanel::recompute()
{
    Result<TrainingView> computed = computeTrainingView(m_request);
    const ChartTheme theme = ChartTheme::make(m_theme);
    if (!computed) {
        // The controls keep what was typed; the pictures keep the last configuration the core computed.
        m_error = computed.error().message;
        m_errorBlock->setColor(trainingOverColor(theme));
        m_errorBlock->setText(
            m_view ? tr("Not computed: %1. The pictures below are the last valid configuration.").arg(m_error)
                   : tr("Not computed: %1.").arg(m_error));
        m_errorBlock->show();
        emit recomputed();
        return;
    }
    m_error.clear();
    m_errorBlock->hide();
    m_view = std::move(computed).value();
    const TrainingView& v = *m_view;
    m_headline->setText(v.headline);
    m_detail->setParagraphs(v.detail);
    m_memory->setData(v.memory);
    m_time->setData(v.time);
    m_hierarchy->setData(v.hierarchy);
    m_fix->setColor(trainingOverColor(theme));
    m_fix->setText(v.fix);
    m_fix->setVisible(!v.fix.isEmpty());
    QStringList notes;  // one line each, without bullets: a bulleted block needs more than its lines' height
    for (const QString& note : v.notes)
        notes << tr("Note: %1.").arg(note);
    m_notes->setParagraphs(notes);
    m_notes->setVisible(!v.notes.isEmpty());
    emit recomputed();
}

QString TrainingPanel::headlineText() const
{
    return m_headline->text();
}

QString TrainingPanel::detailText() const
{
    return m_detail->text();
}

QString TrainingPanel::errorText() const
{
    return m_error;
}

QString TrainingPanel::fixText() const
{
    return m_view ? m_view->fix : QString();
}

QStringList TrainingPanel::noteTexts() const
{
    return m_view ? m_view->notes : QStringList();
}

}  // namespace ridgeline::ui
