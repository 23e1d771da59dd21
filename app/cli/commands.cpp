#include "app/cli/commands.h"
#include "app/cli/command_line.h"

#include <algorithm>
#include <array>

namespace ridgeline::cli {

namespace {

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const QStringList&, Streams);
};

const std::array kCommands = {
    Command{"measure", "measure this machine's roofline and place real kernels on it", &runMeasure},
    Command{"model", "the analytical LLM inference model on a GPU (batch, context, KV cache)", &runModel},
    Command{"train", "one training step on GPUs: memory per GPU, step time, MFU and the cheapest move that fits",
            &runTrain},
    Command{"catalog", "list the GPU, model and engine catalogs (gpus | models | engines)", &runCatalog},
    Command{"render", "render a session's roofline chart to PNG, SVG, PDF or CSV", &runRender},
    Command{"import", "import Nsight Compute, ERT, likwid or plain CSV files into a session", &runImport},
    Command{"deck", "print a talk deck's scenes with their computed captions", &runDeck},
    Command{"export", "write a session as CSV tables (ceilings, kernels, bandwidth curve)", &runExport},
    Command{"calibrate", "fit the LLM model's engine terms to your vLLM, SGLang, GuideLLM or llama-bench results",
            &runCalibrate},
    Command{"compare", "compare two sessions per ceiling and kernel; exit 1 on a regression", &runCompare},
    Command{"help", "show this help, a command's (`help COMMAND`) or the manual page as roff (`help --man`)", &runHelp},
};

const Command* findCommand(const QString& name)
{
    const auto found = std::find_if(kCommands.begin(), kCommands.end(),
                                    [&](const Command& command) { return name == QLatin1String(command.name); });
    return found == kCommands.end() ? nullptr : &*found;
}

bool isVersion(const QString& word)
{
    return word == QLatin1String("--version") || word == QLatin1String("-V");
}

// Levenshtein distance, for "did you mean".
qsizetype editDistance(const QString& a, const QString& b)
{
    std::vector<qsizetype> previous(static_cast<std::size_t>(b.size()) + 1);
    std::vector<qsizetype> current(previous.size());
    for (std::size_t j = 0; j < previous.size(); ++j)
        previous[j] = static_cast<qsizetype>(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const auto uj = static_cast<std::size_t>(j);
            const qsizetype substitution = previous[uj - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[uj] = std::min({previous[uj] + 1, current[uj - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous.back();
}

}  // namespace

bool isHelpOption(const QString& word)
{
    return word == QLatin1String("--help") || word == QLatin1String("-h");
}

std::vector<CommandSummary> commandSummaries()
{
    std::vector<CommandSummary> summaries;
    for (const Command& command : kCommands)
        summaries.push_back({QString::fromLatin1(command.name), QString::fromLatin1(command.summary)});
    return summaries;
}

void printUsage(QTextStream& stream)
{
    stream << "Usage: ridgeline [SESSION.json ...]      open the window (further files are overlaid)\n"
              "       ridgeline COMMAND [OPTIONS]       run headless\n"
              "       ridgeline --version\n\nCommands:\n";
    for (const Command& command : kCommands)
        stream << "  " << QString::fromLatin1(command.name).leftJustified(10) << QString::fromLatin1(command.summary)
               << '\n';
    stream << "\n`ridgeline COMMAND --help` describes a command's options.\n";
}

QString nearestCommand(const QString& word)
{
    const QString lower = word.toLower();
    QString best;
    qsizetype bestDistance = 3;  // more than two edits away is no longer a typo
    for (const Command& command : kCommands) {
        const QString name = QString::fromLatin1(command.name);
        const qsizetype distance = name.startsWith(lower) && lower.size() >= 2 ? 0 : editDistance(lower, name);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = name;
        }
    }
    return best;
}

bool isCommand(const QString& word)
{
    return isHelpOption(word) || isVersion(word) || findCommand(word) != nullptr;
}

bool needsGui(const QString& word)
{
    return word == QLatin1String("render");
}

int run(const QStringList& arguments, Streams io)
{
    const QString name = arguments.value(1);
    if (isVersion(name)) {
        io.out << "ridgeline " << RIDGELINE_VERSION << '\n';
        return 0;
    }
    if (const Command* command = findCommand(name))
        return command->run(arguments, io);
    if (isHelpOption(name) || name.isEmpty()) {
        printUsage(io.out);
        return 0;
    }
    io.err << "ridgeline: unknown command '" << name << "'\n\n";
    printUsage(io.err);
    return kExitBadInput;
}

}  // namespace ridgeline::cli
