// The Training tab's File actions, driven as a person drives them: Ctrl+3 shows the tab, Ctrl+E exports the training
// step (not the batching charts or the roofline) under a name made from what it shows, Ctrl+C copies it, and Save View
// as Scene is off there and says why. SVG, PDF and CSV are written through the same export, and a configuration the
// core refuses writes no CSV.

#include "ui/panels/training_export.h"
#include "tests/ui/modal_util.h"
#include "tests/ui/ui_test_util.h"
#include "ui/chart/training_bar.h"
#include "ui/file_actions.h"
#include "ui/mainwindow.h"
#include "ui/models/settings.h"
#include "ui/panels/training_controls.h"
#include "ui/panels/training_panel.h"
#include "ui/plots/training/training_geometry.h"
#include "ui/talk/talk_actions.h"
#include "ui/widgets/widget_render.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QAction* menuAction(MainWindow& window, const QString& menuTitle, const QString& objectName)
{
    for (QMenu* menu : window.menuBar()->findChildren<QMenu*>())
        if (menu->title() == menuTitle)
            for (QAction* action : menu->actions())
                if (action->objectName() == objectName)
                    return action;
    return nullptr;
}

QStringList fileMenuTexts(MainWindow& window)
{
    QStringList texts;
    for (QMenu* menu : window.menuBar()->findChildren<QMenu*>()) {
        texts << menu->title();
        for (const QAction* action : menu->actions())
            texts << action->text();
    }
    return texts;
}

// Types `value` into a spin box as a person would: click, select all, type, Return.
void typeInto(QSpinBox* box, int value)
{
    QTest::mouseClick(box, Qt::LeftButton, {}, box->rect().center());
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QString::number(value));
    QTest::keyClick(box, Qt::Key_Return);
}

// Answers the next file dialog with Return (its proposed name) and the size dialog after it with Return.
std::shared_ptr<fixtures::ModalSeen> acceptExportDialogs(QString& proposed,
                                                         std::shared_ptr<fixtures::ModalSeen>& sizeDialog)
{
    return fixtures::whenModal([&proposed, &sizeDialog](QWidget* modal) {
        auto* dialog = qobject_cast<QFileDialog*>(modal);
        if (!dialog)
            return;
        proposed = dialog->selectedFiles().value(0);
        sizeDialog = fixtures::whenModal([](QWidget* size) { QTest::keyClick(size, Qt::Key_Return); }, dialog);
        QTest::keyClick(dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")), Qt::Key_Return);
    });
}

// Where the memory bar's weights are in a picture of `size`: the panel laid out as the export lays it out.
QPoint weightsCentre(const TrainingRequest& request, QSize size)
{
    TrainingPanel panel;
    panel.setRequest(request);
    panel.controls()->hide();
    layoutOffscreen(panel, size);
    const QRectF part = panel.memoryBar()->partRect(TrainingPart::Weights);
    return panel.memoryBar()->mapTo(&panel, part.center().toPoint());
}

}  // namespace

TEST(UiTrainingExport, CtrlThreeThenCtrlEExportsTheTrainingStepUnderANameOfWhatItShows)
{
    QTemporaryDir dir;
    Settings().setLastExportDirectory(dir.path());
    Settings().setExportSize(QSize(1280, 720));
    Settings().setExportPixelRatio(1.0);
    MainWindow window;
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    ASSERT_EQ(window.tabs()->currentIndex(), 2);
    EXPECT_EQ(window.fileActions()->exportTarget(), ExportTarget::Training);
    const QStringList texts = fileMenuTexts(window);
    EXPECT_TRUE(texts.contains(QStringLiteral("&Export Training Step"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("PNG image of the training step…")));
    EXPECT_FALSE(texts.contains(QStringLiteral("PNG image of the batching charts…")));
    EXPECT_EQ(window.fileActions()->copyAction()->text(), QStringLiteral("&Copy Training Step"));

    // The picture follows what the tab shows: two sequences per micro-batch, typed into the control.
    TrainingPanel* panel = window.trainingPanel();
    typeInto(panel->controls()->microBatch(), 2);
    ASSERT_EQ(panel->request().microBatch, 2);
    ASSERT_TRUE(panel->errorText().isEmpty()) << panel->errorText().toStdString();

    QString proposed;
    std::shared_ptr<fixtures::ModalSeen> sizeDialog;
    QSignalSpy exported(window.fileActions(), &FileActions::exported);
    auto fileDialog = acceptExportDialogs(proposed, sizeDialog);
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
    ASSERT_TRUE(fileDialog->seen);
    EXPECT_EQ(proposed, QDir(dir.path()).filePath(QStringLiteral("llama-2-7b-on-8-h100-sxm5-80gb-training.png")));
    ASSERT_EQ(exported.count(), 1);
    EXPECT_EQ(exported.front().at(1).value<ExportTarget>(), ExportTarget::Training);
    const QImage image(exported.front().at(0).toString());
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1280, 720));
    // The training step as a fresh render of the tab's request draws it, not the batching charts or the roofline.
    const QImage expected =
        renderTrainingImage({panel->request(), panel->theme()}, QSize(1280, 720)).convertToFormat(image.format());
    EXPECT_EQ(image, expected);
    // The memory bar's weights, in their colour, where the panel puts them.
    const QColor weights = trainingPartColor(TrainingPart::Weights, ChartTheme::make(panel->theme()));
    EXPECT_TRUE(fixtures::colorNear(image, weightsCentre(panel->request(), QSize(1280, 720)), weights, 2, 30));
    image.save(QStringLiteral("/tmp/trainexp32-export.png"));
    image.save(fixtures::outputPath(QStringLiteral("training_export.png")));
    Settings().setLastExportDirectory({});
}

TEST(UiTrainingExport, CtrlCCopiesTheTrainingStepAndSaveViewAsSceneSaysWhyItIsOff)
{
    MainWindow window;
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QAction* saveView = menuAction(window, QStringLiteral("&Talk"), QStringLiteral("saveViewAsSceneAction"));
    ASSERT_NE(saveView, nullptr);
    EXPECT_TRUE(saveView->isEnabled());
    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    ASSERT_EQ(window.tabs()->currentIndex(), 2);
    EXPECT_FALSE(saveView->isEnabled());
    EXPECT_TRUE(saveView->toolTip().contains(QStringLiteral("training step has no scene")))
        << saveView->toolTip().toStdString();

    fixtures::layoutNow(window, window.size());  // the tab has taken the room the docks left
    QApplication::clipboard()->clear();
    window.tabs()->tabBar()->setFocus();
    QTest::keyClick(window.tabs()->tabBar(), Qt::Key_C, Qt::ControlModifier);
    const QImage copied = QApplication::clipboard()->image();
    ASSERT_FALSE(copied.isNull());
    TrainingPanel* panel = window.trainingPanel();
    const double ratio = window.devicePixelRatioF();
    const QImage expected =
        renderTrainingImage({panel->request(), panel->theme()}, panel->size(), ratio).convertToFormat(copied.format());
    EXPECT_EQ(copied.size(), expected.size());
    EXPECT_EQ(copied, expected);

    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    EXPECT_TRUE(saveView->isEnabled()) << "the batching explorer is a scene again";
    EXPECT_EQ(window.fileActions()->exportTarget(), ExportTarget::Batching);
}

TEST(UiTrainingExport, SvgPdfAndCsvHoldTheStepAndARefusedStepWritesNothing)
{
    QTemporaryDir dir;
    const TrainingContent content{TrainingRequest{}, ThemeKind::Light};
    const QString svg = dir.filePath(QStringLiteral("step.svg"));
    ASSERT_FALSE(exportTraining(content, svg, QSize(1920, 1080)));
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    EXPECT_TRUE(svgText.contains("viewBox=\"0 0 1920 1080\"")) << svgText.left(600).toStdString();
    EXPECT_TRUE(svgText.contains("Training step"));

    const QString pdf = dir.filePath(QStringLiteral("step.pdf"));
    ASSERT_FALSE(exportTraining(content, pdf, QSize(1920, 1080)));
    QFile pdfFile(pdf);
    ASSERT_TRUE(pdfFile.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdfFile.read(5).startsWith("%PDF"));
    EXPECT_GT(pdfFile.size(), 2000);

    const QString csv = dir.filePath(QStringLiteral("step.csv"));
    ASSERT_FALSE(exportTraining(content, csv, QSize()));
    QFile csvFile(csv);
    ASSERT_TRUE(csvFile.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(u'\n', Qt::SkipEmptyParts);
    const Result<TrainingView> view = computeTrainingView(content.request);
    ASSERT_TRUE(view);
    double memory = 0;
    for (const QString& line : lines)
        if (line.startsWith(QStringLiteral("memory_per_gpu_")))
            memory += line.section(u',', 1, 1).toDouble();
    EXPECT_NEAR(memory, view.value().memory.total(), 1e-6 * memory);
    EXPECT_TRUE(lines.contains(QStringLiteral("mfu,%1,fraction").arg(view.value().report.mfu, 0, 'g', 8)));
    EXPECT_EQ(lines.front(), QStringLiteral("quantity,value,unit"));

    TrainingRequest refused;
    refused.microBatch = 0;
    const QString none = dir.filePath(QStringLiteral("refused.csv"));
    const std::optional<Error> error = exportTraining({refused, ThemeKind::Light}, none, QSize());
    ASSERT_TRUE(error);
    EXPECT_TRUE(error->message.contains(QStringLiteral("micro"), Qt::CaseInsensitive)) << error->message.toStdString();
    EXPECT_FALSE(QFile::exists(none));
    EXPECT_TRUE(exportTraining(content, dir.filePath(QStringLiteral("step.gif")), QSize(1280, 720)));
}
