// `ridgeline train`: one training step's memory per GPU, time, tokens/s and MFU, and the cheapest move that makes
// the configuration fit, as a table or JSON.
#include "app/cli/commands.h"

#include "app/cli/command_line.h"
#include "app/cli/train_options.h"
#include "app/cli/train_output.h"
#include "core/model/catalog/user_catalog.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace ridgeline::cli {

namespace {

int fail(Streams io, const QString& message)
{
    return refuseArguments(io, u"train", message);
}

}  // namespace

int runTrain(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    addTrainOptions(parser);
    if (const std::optional<int> answered = parseCommandLine(parser, arguments.mid(1), u"train", io))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return fail(io, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));

    TrainOptions options;
    if (const std::optional<QString> refused = readTrainOptions(parser, options))
        return fail(io, *refused);
    for (const QString& problem : userCatalogs()->problems)  // used without it: say so, never silently
        io.err << "ridgeline train: your catalog was not read: " << problem << '\n';
    const Result<TrainingReport> report = evaluateTraining(options.config);
    if (!report)
        return fail(io, report.error().message);
    const std::optional<TrainingFix> fix = cheapestFix(options.config);
    if (parser.isSet(QStringLiteral("json"))) {
        io.out << QJsonDocument(trainReportJson(options.config, report.value(), fix)).toJson(QJsonDocument::Indented);
    } else {
        if (options.modelConfig)
            io.out << "Model from " << options.modelConfig->file << "\n\n";
        printTrainTable(io.out, options.config, report.value(), fix);
    }
    return 0;
}

}  // namespace ridgeline::cli
