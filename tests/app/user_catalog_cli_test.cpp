// The user's own catalogs on the command line, run as the real executable with a temporary
// XDG_CONFIG_HOME: `ridgeline catalog` lists them after the bundled entries and marks them, `ridgeline model --gpu ID`
// uses them, and a refused file is said, with the file and the field, and sets the catalog's exit status.
#include "tests/app/cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

struct UserHome {
    QTemporaryDir home;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    UserHome()
    {
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        QDir().mkpath(home.path() + QStringLiteral("/ridgeline"));
    }
    QString path(const char* name) const { return home.path() + QStringLiteral("/ridgeline/") + QLatin1String(name); }
    void write(const char* name, const QByteArray& bytes) const
    {
        QFile file(path(name));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    CliRun run(const char* line) const { return runRidgeline(cliArgs(line), environment); }
};

const QByteArray kGpus = R"({"format": "ridgeline-gpu-catalog", "schema_version": 1, "gpus": [
  {"id": "lab-card", "name": "Lab card", "memory_gib": 48, "bandwidth_tbs": 1.5,
   "dense_tflops": {"bf16": 250, "fp8": 500}, "source": "our own datasheet"}]})";

}  // namespace

TEST(UserCatalogCli, TheUsersGpusAreListedMarkedAndUsedByTheModel)
{
    const UserHome user;
    const CliRun none = user.run("catalog gpus");
    ASSERT_EQ(none.exitCode, 0) << none.err.toStdString();
    EXPECT_TRUE(none.out.contains(QStringLiteral("Your own entries would come from ") + user.path("gpus.json")))
        << none.out.toStdString();

    user.write("gpus.json", kGpus);
    const CliRun listed = user.run("catalog gpus");
    ASSERT_EQ(listed.exitCode, 0) << listed.err.toStdString();
    EXPECT_TRUE(listed.out.contains(QStringLiteral("lab-card*"))) << listed.out.toStdString();
    EXPECT_TRUE(listed.out.contains(QStringLiteral("* yours: ") + user.path("gpus.json")));
    EXPECT_FALSE(listed.out.contains(QStringLiteral("h100-sxm*")));
    // --mine --json is a catalog file of the user's entries alone, which the reader takes back.
    const CliRun mine = user.run("catalog gpus --mine --json");
    ASSERT_EQ(mine.exitCode, 0);
    const QJsonArray gpus = QJsonDocument::fromJson(mine.out.toUtf8()).object().value(QStringLiteral("gpus")).toArray();
    ASSERT_EQ(gpus.size(), 1);
    EXPECT_EQ(gpus[0].toObject().value(QStringLiteral("id")).toString(), QStringLiteral("lab-card"));

    const CliRun model = user.run("model --model llama-3.1-8b --gpu lab-card --batch 8 --json");
    ASSERT_EQ(model.exitCode, 0) << model.err.toStdString();
    const QJsonObject report = QJsonDocument::fromJson(model.out.toUtf8()).object();
    EXPECT_EQ(report.value(QStringLiteral("gpu")).toString(), QStringLiteral("lab-card"));
    EXPECT_EQ(report.value(QStringLiteral("gpu_memory_bytes")).toDouble(), 48.0 * 1073741824.0);
}

// A price saved with the user's GPU prices its tokens without --gpu-hour-price, and says where it comes from, in the
// table and in --json with and without --frontier; the flag still wins. A bundled card is priced at its example,
// said as one, and a card without an example has no cost.
TEST(UserCatalogCli, TheUsersGpuHourPriceIsUsedUnlessOneIsGiven)
{
    const UserHome user;
    user.write("gpus.json", QByteArray(kGpus).replace("\"source\"", "\"gpu_hour_price\": 2.5, \"source\""));
    const CliRun table = user.run("model --model llama-3.1-8b --gpu lab-card --batch 8");
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.contains(QStringLiteral("$2.50 per GPU-hour, your catalog"))) << table.out.toStdString();

    const CliRun json = user.run("model --model llama-3.1-8b --gpu lab-card --batch 8 --json");
    const QJsonObject priced = QJsonDocument::fromJson(json.out.toUtf8()).object();
    EXPECT_EQ(priced.value(QStringLiteral("gpu_hour_price")).toDouble(), 2.5);
    EXPECT_EQ(priced.value(QStringLiteral("price_source")).toString(), QStringLiteral("catalog"));
    EXPECT_GT(priced.value(QStringLiteral("cost_per_million_output_tokens")).toDouble(), 0.0);

    const CliRun given = user.run("model --model llama-3.1-8b --gpu lab-card --batch 8 --gpu-hour-price 4 --json");
    const QJsonObject flag = QJsonDocument::fromJson(given.out.toUtf8()).object();
    EXPECT_EQ(flag.value(QStringLiteral("gpu_hour_price")).toDouble(), 4.0);
    EXPECT_EQ(flag.value(QStringLiteral("price_source")).toString(), QStringLiteral("given"));
    EXPECT_DOUBLE_EQ(flag.value(QStringLiteral("cost_per_million_output_tokens")).toDouble(),
                     1.6 * priced.value(QStringLiteral("cost_per_million_output_tokens")).toDouble());

    const CliRun frontier = user.run("model --model llama-3.1-8b --gpu lab-card --frontier --json");
    ASSERT_EQ(frontier.exitCode, 0) << frontier.err.toStdString();
    const QJsonObject curve = QJsonDocument::fromJson(frontier.out.toUtf8()).object();
    EXPECT_EQ(curve.value(QStringLiteral("gpu_hour_price")).toDouble(), 2.5);
    EXPECT_EQ(curve.value(QStringLiteral("price_source")).toString(), QStringLiteral("catalog"));
    EXPECT_TRUE(curve.value(QStringLiteral("price_example_of")).isNull());

    const CliRun bundled = user.run("model --model llama-3.1-8b --gpu h100-sxm --batch 8");
    ASSERT_EQ(bundled.exitCode, 0) << bundled.err.toStdString();
    EXPECT_TRUE(bundled.out.contains(QStringLiteral("$3.99 per GPU-hour, example price, Lambda 2026-09-20")))
        << bundled.out.toStdString();
    const CliRun unpriced = user.run("model --model llama-3.1-8b --gpu rtx-4090 --batch 8");
    ASSERT_EQ(unpriced.exitCode, 0) << unpriced.err.toStdString();
    EXPECT_TRUE(unpriced.out.contains(QStringLiteral("none given (--gpu-hour-price USD)")))
        << unpriced.out.toStdString();
}

TEST(UserCatalogCli, ARefusedFileIsSaidWithTheFileAndTheFieldAndTheBundledEntriesStillWork)
{
    const UserHome user;
    user.write("gpus.json", QByteArray(kGpus).replace("lab-card", "b200"));
    const CliRun listed = user.run("catalog gpus");
    EXPECT_EQ(listed.exitCode, 1);
    EXPECT_TRUE(listed.out.contains(QStringLiteral("h100-sxm")));  // the bundled list is still printed
    EXPECT_TRUE(listed.err.contains(QStringLiteral("your catalog was not read: ") + user.path("gpus.json") +
                                    QStringLiteral(": gpus[0].id \"b200\" is a bundled GPU")))
        << listed.err.toStdString();

    const CliRun bundled = user.run("model --model llama-3.1-8b --gpu h100-sxm");
    EXPECT_EQ(bundled.exitCode, 0);
    EXPECT_TRUE(bundled.err.contains(QStringLiteral("ridgeline model: your catalog was not read: ")))
        << bundled.err.toStdString();

    user.write("gpus.json", QByteArray(kGpus).replace("\"bandwidth_tbs\": 1.5", "\"bandwidth_tbs\": \"fast\""));
    const CliRun unknown = user.run("model --model llama-3.1-8b --gpu lab-card");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("unknown GPU \"lab-card\"")));
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("gpus[0].bandwidth_tbs"))) << unknown.err.toStdString();
}
