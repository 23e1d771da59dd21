// The user catalog in the batching tab, driven as a person drives it: "Load model config…" reads a Hugging Face
// config.json as the model (the numbers of `ridgeline model --model-config` for the same file), a file it cannot read
// is named with its field and changes nothing; "Save to my catalog…" keeps a custom GPU or model in
// $XDG_CONFIG_HOME/ridgeline, and a bad file there is never overwritten. Each test has an XDG_CONFIG_HOME of its own.

#include "core/model/catalog/user_catalog.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui_models/test_session.h"
#include "ui/panels/batching_controls.h"
#include "ui/panels/catalog_entry_dialog.h"
#include "ui/panels/frontier_controls.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

// A temporary XDG_CONFIG_HOME for one test, the process's own restored after it.
class OwnConfigHome {
public:
    OwnConfigHome() : m_previous(qgetenv("XDG_CONFIG_HOME"))
    {
        qputenv("XDG_CONFIG_HOME", m_home.path().toLocal8Bit());
        reloadUserCatalogs();
    }
    ~OwnConfigHome()
    {
        qputenv("XDG_CONFIG_HOME", m_previous);
        reloadUserCatalogs();
    }
    QString path() const { return m_home.path(); }

private:
    QTemporaryDir m_home;
    QByteArray m_previous;
};

QString hfConfig(const char* folder)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/hf_configs/") + QLatin1String(folder) +
           QStringLiteral("/config.json");
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Click "Load model config…", type the path into the file dialog's name field and press Return.
void loadByDialog(const BatchingPanel& panel, const QString& path)
{
    fixtures::clickCentre(control<QPushButton>(panel, "batchingLoadConfig"));
    const QPointer<QFileDialog> dialog = fixtures::openDialog<QFileDialog>("LoadModelConfigDialog");
    ASSERT_NE(dialog, nullptr);
    QLineEdit* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    ASSERT_NE(name, nullptr);
    QTest::mouseClick(name, Qt::LeftButton, Qt::NoModifier, name->rect().center());
    QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(name, path);
    QTest::keyClick(name, Qt::Key_Return);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(dialog.isNull());  // accepted, closed and gone
}

// In the open "Save to my catalog" dialog: type the id, click Save.
QPointer<CatalogEntryDialog> saveAs(const QString& id)
{
    const QPointer<CatalogEntryDialog> dialog = fixtures::openDialog<CatalogEntryDialog>("CatalogEntryDialog");
    EXPECT_NE(dialog, nullptr);
    if (!dialog)
        return nullptr;
    QLineEdit* idEdit = dialog->findChild<QLineEdit*>(QStringLiteral("catalogEntryId"));
    QTest::mouseClick(idEdit, Qt::LeftButton, Qt::NoModifier, idEdit->rect().center());
    QTest::keyClick(idEdit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(idEdit, id);
    fixtures::clickCentre(dialog->findChild<QPushButton*>(QStringLiteral("catalogEntrySave")));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return dialog;  // null once saved: the dialog closes and deletes itself
}

// In the open dialog: click into the field `name`, select all, type `text` (nothing: the field emptied).
void typeInDialog(CatalogEntryDialog* dialog, const char* name, const QString& text)
{
    QLineEdit* edit = dialog->findChild<QLineEdit*>(QLatin1String(name));
    ASSERT_NE(edit, nullptr) << name;
    QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

}  // namespace

TEST(UiBatchingCatalog, AConfigJsonLoadedFromTheDialogIsTheModelTheCommandLineReads)
{
    const OwnConfigHome home;
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    loadByDialog(*tab.panel, hfConfig("Llama-3.1-8B-Instruct-FP8"));
    const InferenceRequest& in = tab.panel->inputs();
    ASSERT_EQ(in.modelId, kCustomId);
    ASSERT_TRUE(in.customShape.has_value());
    EXPECT_EQ(in.weights, NumberFormat::Fp8);  // from its quantization_config
    const QString status = tab.panel->controls()->modelStatus();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Loaded ") + hfConfig("Llama-3.1-8B-Instruct-FP8") +
                                  QStringLiteral(" as llama: weights fp8")))
        << status.toStdString();
    EXPECT_TRUE(
        control<QComboBox>(*tab.panel, "batchingModel")->currentText().endsWith(QLatin1String("(custom shape)")));
    const QJsonObject cli =
        fixtures::cliModelJson(QStringList{QStringLiteral("--model-config"), hfConfig("Llama-3.1-8B-Instruct-FP8")} +
                               test::cliArgs("--gpu h100-sxm --batch 16"));
    EXPECT_NEAR(tab.panel->scenario().report.tokensPerSecond, cli.value(QStringLiteral("tokens_per_s")).toDouble(),
                1e-9 * tab.panel->scenario().report.tokensPerSecond);
    EXPECT_EQ(tab.panel->scenario().report.params, cli.value(QStringLiteral("params")).toInteger());

    // An MLA MoE (DeepSeek-V3) loads as well, on 8 GPUs.
    loadByDialog(*tab.panel, hfConfig("DeepSeek-V3"));
    EXPECT_TRUE(tab.panel->inputs().customShape->isMla());
    EXPECT_TRUE(tab.panel->inputs().customShape->isMoe());
}

TEST(UiBatchingCatalog, AConfigItCannotReadIsNamedWithItsFieldAndChangesNothing)
{
    const OwnConfigHome home;
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    const InferenceRequest before = tab.panel->inputs();
    const double tokens = tab.panel->scenario().report.tokensPerSecond;
    QByteArray bad = readFile(hfConfig("Llama-3.1-8B"));
    ASSERT_FALSE(bad.isEmpty());
    bad.replace("\"num_attention_heads\": 32", "\"num_attention_heads\": \"thirty-two\"");
    const QString path = home.path() + QStringLiteral("/config.json");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bad);
    file.close();
    loadByDialog(*tab.panel, path);
    const QString status = tab.panel->controls()->modelStatus();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Not loaded: ") + path)) << status.toStdString();
    EXPECT_TRUE(status.contains(QLatin1String("num_attention_heads"))) << status.toStdString();
    EXPECT_EQ(tab.panel->inputs().modelId, before.modelId);
    EXPECT_FALSE(tab.panel->inputs().customShape.has_value());
    EXPECT_EQ(tab.panel->scenario().report.tokensPerSecond, tokens);

    // An architecture the shape cannot hold is refused the same way.
    loadByDialog(*tab.panel, hfConfig("gpt-oss-20b"));
    EXPECT_TRUE(tab.panel->controls()->modelStatus().contains(QLatin1String("model_type \"gpt_oss\"")))
        << tab.panel->controls()->modelStatus().toStdString();
    EXPECT_EQ(tab.panel->inputs().modelId, before.modelId);
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_config_refused.png")));
}

TEST(UiBatchingCatalog, ACustomGpuSavedToMyCatalogIsOfferedAndUsedByTheCommandLine)
{
    const OwnConfigHome home;
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    QPushButton* save = control<QPushButton>(*tab.panel, "batchingSaveGpu");
    EXPECT_FALSE(save->isEnabled());  // a bundled card is there already
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingPeak"), QStringLiteral("400"));
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingBandwidth"), QStringLiteral("2.5"));
    ASSERT_EQ(tab.panel->inputs().gpuId, kCustomId);
    const double tokens = tab.panel->scenario().report.tokensPerSecond;
    ASSERT_TRUE(save->isEnabled());
    fixtures::clickCentre(save);
    // An id that is not one word is refused in the dialog, which stays open.
    QPointer<CatalogEntryDialog> dialog = saveAs(QStringLiteral("lab card"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->errorText().contains(QLatin1String("not one word"))) << dialog->errorText().toStdString();
    EXPECT_FALSE(QFile::exists(userGpuCatalogPath()));
    EXPECT_TRUE(saveAs(QStringLiteral("lab-card")).isNull());
    ASSERT_TRUE(QFile::exists(home.path() + QStringLiteral("/ridgeline/gpus.json")));
    // The saved card is chosen, listed as mine, and gives the custom card's numbers.
    EXPECT_EQ(tab.panel->inputs().gpuId, QStringLiteral("lab-card"));
    EXPECT_EQ(control<QComboBox>(*tab.panel, "batchingGpu")->currentText(), QStringLiteral("My GPU (mine)"));
    EXPECT_DOUBLE_EQ(tab.panel->scenario().report.tokensPerSecond, tokens);
    EXPECT_TRUE(tab.panel->controls()->gpuStatus().contains(userGpuCatalogPath()));
    // `ridgeline model --gpu lab-card` finds it too.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    const test::CliRun cli =
        test::runRidgeline(test::cliArgs("model --model llama-2-7b --gpu lab-card --batch 16 --json"), environment);
    ASSERT_EQ(cli.exitCode, 0) << cli.err.toStdString();
    EXPECT_NEAR(QJsonDocument::fromJson(cli.out.toUtf8()).object().value(QStringLiteral("tokens_per_s")).toDouble(),
                tokens, 1e-9 * tokens);
}

TEST(UiBatchingCatalog, ABadModelsFileIsNeverOverwrittenAndTheDialogSaysWhy)
{
    const OwnConfigHome home;
    QDir().mkpath(home.path() + QStringLiteral("/ridgeline"));
    const QByteArray broken = R"({"format": "ridgeline-model-catalog", "schema_version": 1, "models": [
        {"id": "mine", "name": "Mine", "layers": 2, "hidden": 256, "heads": 4, "kv_heads": 4, "head_dim": 64,
         "ffn": 512, "vocab": 1000, "source": "x", "colour": "red"}]})";
    const QString path = home.path() + QStringLiteral("/ridgeline/models.json");
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(broken);
    }
    reloadUserCatalogs();
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), kCustomId));
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingParams"), QStringLiteral("3"));
    ASSERT_EQ(tab.panel->inputs().modelId, kCustomId);
    ASSERT_DOUBLE_EQ(tab.panel->inputs().customParams, 3e9);
    fixtures::clickCentre(control<QPushButton>(*tab.panel, "batchingSaveModel"));
    const QPointer<CatalogEntryDialog> dialog = saveAs(QStringLiteral("my-3b"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    const QString error = dialog->errorText();
    EXPECT_TRUE(error.startsWith(path + QStringLiteral(": "))) << error.toStdString();
    EXPECT_TRUE(error.contains(QLatin1String("models[0].colour"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QLatin1String("nothing written"))) << error.toStdString();
    EXPECT_EQ(readFile(path), broken);
    dialog->reject();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(dialog.isNull());

    // Once the file is fixed (moved away here), the model is saved as its shape and chosen.
    ASSERT_TRUE(QFile::remove(path));
    fixtures::clickCentre(control<QPushButton>(*tab.panel, "batchingSaveModel"));
    EXPECT_TRUE(saveAs(QStringLiteral("my-3b")).isNull());
    EXPECT_EQ(tab.panel->inputs().modelId, QStringLiteral("my-3b"));
    EXPECT_TRUE(isUserModel(QStringLiteral("my-3b")));
    EXPECT_TRUE(control<QComboBox>(*tab.panel, "batchingModel")->currentText().endsWith(QLatin1String("(mine)")));
}

// The Save GPU dialog takes a price per GPU-hour typed in: a price below 0, past $1,000 or not a number is refused in
// the dialog and nothing is written; a good one is saved with the card, read back by the command line, and the
// frontier's price box starts from it, saying it is the user's.
TEST(UiBatchingCatalog, APriceTypedInTheSaveGpuDialogIsSavedWithTheCard)
{
    const OwnConfigHome home;
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingPeak"), QStringLiteral("400"));
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingBandwidth"), QStringLiteral("2.5"));
    ASSERT_EQ(tab.panel->inputs().gpuId, kCustomId);
    fixtures::clickCentre(control<QPushButton>(*tab.panel, "batchingSaveGpu"));
    const QPointer<CatalogEntryDialog> dialog = fixtures::openDialog<CatalogEntryDialog>("CatalogEntryDialog");
    ASSERT_NE(dialog, nullptr);
    QPushButton* save = dialog->findChild<QPushButton*>(QStringLiteral("catalogEntrySave"));
    typeInDialog(dialog, "catalogEntryId", QStringLiteral("rented-card"));
    const struct {
        const char* typed;
        const char* says;
    } refused[] = {
        {"-3", "must be a number of US dollars above 0 and at most $1"},
        {"3990", "must be a number of US dollars above 0 and at most $1"},
        {"cheap", "The price is a number of US dollars per GPU-hour, or empty for none; got \"cheap\""},
    };
    for (const auto& r : refused) {
        typeInDialog(dialog, "catalogEntryPrice", QLatin1String(r.typed));
        EXPECT_TRUE(dialog->errorText().isEmpty());  // typing hides the last refusal
        fixtures::clickCentre(save);
        ASSERT_FALSE(dialog.isNull()) << r.typed;
        EXPECT_TRUE(dialog->isVisible()) << r.typed;
        EXPECT_TRUE(dialog->errorText().contains(QLatin1String(r.says))) << dialog->errorText().toStdString();
        EXPECT_FALSE(QFile::exists(userGpuCatalogPath())) << r.typed;
    }
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("save_gpu_dialog_price_refused.png")));
    // Return in the field saves: Save is the dialog's default button, never Cancel.
    typeInDialog(dialog, "catalogEntryPrice", QStringLiteral("2.75"));
    QTest::keyClick(dialog->findChild<QLineEdit*>(QStringLiteral("catalogEntryPrice")), Qt::Key_Return);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(dialog.isNull());  // saved, closed and gone
    const QByteArray file = readFile(userGpuCatalogPath());
    EXPECT_EQ(file.count("\"gpu_hour_price\": 2.75"), 1) << file.constData();
    EXPECT_EQ(tab.panel->inputs().gpuId, QStringLiteral("rented-card"));
    FrontierControls* frontier = tab.panel->frontierControls();
    EXPECT_EQ(frontier->priceField()->text(), QStringLiteral("2.75"));
    EXPECT_EQ(frontier->priceSource(), QStringLiteral("From your catalog: type another to override"));

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    const test::CliRun cli =
        test::runRidgeline(test::cliArgs("model --model llama-2-7b --gpu rented-card --frontier --json"), environment);
    ASSERT_EQ(cli.exitCode, 0) << cli.err.toStdString();
    const QJsonObject curve = QJsonDocument::fromJson(cli.out.toUtf8()).object();
    EXPECT_DOUBLE_EQ(curve.value(QStringLiteral("gpu_hour_price")).toDouble(), 2.75);
    EXPECT_EQ(curve.value(QStringLiteral("price_source")).toString(), QStringLiteral("catalog"));
}
