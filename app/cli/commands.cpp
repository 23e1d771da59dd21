#include "app/cli/commands.h"

#include <array>

namespace ridgeline::cli {

namespace {

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const QStringList&, Streams);
};

int runHelp(const QStringList& arguments, Streams io);

const std::array kCommands = {
    Command{"measure", "measure this machine's roofline and place real kernels on it", &runMeasure},
    Command{"model", "the analytical LLM inference model on a GPU (batch, context, KV cache)", &runModel},
    Command{"catalog", "list the GPU and model catalogs (gpus | models)", &runCatalog},
    Command{"render", "render a session's roofline chart to PNG, SVG, PDF or CSV", &runRender},
    Command{"import", "import Nsight Compute, ERT, likwid or plain CSV files into a session", &runImport},
    Command{"deck", "print a talk deck's scenes with their computed captions", &runDeck},
    Command{"help", "show this help", &runHelp},
};

int runHelp(const QStringList&, Streams io)
{
    io.out << "Usage: ridgeline [SESSION.json]          open the window (optionally with a session)\n"
              "       ridgeline COMMAND [OPTIONS]       run headless\n\nCommands:\n";
    for (const Command& command : kCommands)
        io.out << "  " << QString::fromLatin1(command.name).leftJustified(10) << QString::fromLatin1(command.summary)
               << '\n';
    io.out << "\n`ridgeline COMMAND --help` describes a command's options.\n";
    return 0;
}

}  // namespace

bool isCommand(const QString& word)
{
    if (word == QLatin1String("--help") || word == QLatin1String("-h"))
        return true;
    for (const Command& command : kCommands)
        if (word == QLatin1String(command.name))
            return true;
    return false;
}

bool needsGui(const QString& word)
{
    return word == QLatin1String("render");
}

int run(const QStringList& arguments, Streams io)
{
    const QString name = arguments.value(1);
    for (const Command& command : kCommands)
        if (name == QLatin1String(command.name))
            return command.run(arguments, io);
    return runHelp(arguments, io);
}

}  // namespace ridgeline::cli
