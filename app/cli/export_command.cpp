#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include "core/session/format/session_json.h"
#include "core/session/session_csv.h"

#include <QCommandLineParser>
#include <QDir>

namespace ridgeline::cli {

// `ridgeline export SESSION.json --csv DIR`: the session as flat tables (core/session/session_csv.h).
int runExport(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Write a session as CSV tables for spreadsheets and pandas: ceilings.csv, kernels.csv, bandwidth_curve.csv "
        "and kernel_levels.csv, each header with its unit (GFLOP_per_s, GB_per_s with GB = 1e9 bytes, seconds)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("session"), QStringLiteral("the session file"),
                                 QStringLiteral("SESSION.json"));
    const QCommandLineOption csv(QStringLiteral("csv"),
                                 QStringLiteral("the folder to write the tables into (made if missing; files of the "
                                                "same names are replaced, all or none)"),
                                 QStringLiteral("DIR"));
    parser.addOption(csv);
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"export", io))
        return *answered;
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.size() != 1 || !parser.isSet(csv) || parser.value(csv).isEmpty()) {
        io.err << "ridgeline export: usage: ridgeline export SESSION.json --csv DIR\n";
        return kExitBadInput;
    }
    const Result<Session> session = loadSession(files.constFirst());
    if (!session) {
        io.err << "ridgeline export: " << session.error().message << "\nnothing was written\n";
        return kExitFailed;
    }
    const Result<std::vector<CsvTable>> written = exportSessionCsv(session.value(), parser.value(csv));
    if (!written) {
        io.err << "ridgeline export: " << written.error().message << "\nnothing was written\n";
        return kExitFailed;
    }
    for (const CsvTable& table : written.value())
        io.out << "wrote " << QDir(parser.value(csv)).filePath(table.fileName) << " (" << table.rows
               << (table.rows == 1 ? " row" : " rows") << ")\n";
    return 0;
}

}  // namespace ridgeline::cli
