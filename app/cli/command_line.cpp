#include "app/cli/command_line.h"

namespace ridgeline::cli {

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, QStringView command,
                                    Streams io)
{
    if (!parser.parse(arguments))
        return refuseArguments(io, command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        io.out << parser.helpText();
        return kExitOk;
    }
    return std::nullopt;
}

int refuseArguments(Streams io, QStringView command, const QString& message)
{
    io.err << "ridgeline " << command << ": " << message << "\n(see `ridgeline " << command << " --help`)\n";
    return kExitBadInput;
}

}  // namespace ridgeline::cli
