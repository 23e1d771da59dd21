#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include "core/scene/scene_facts.h"
#include "core/session/format/bundled_session.h"
#include "core/session/format/session_json.h"

#include <QCommandLineParser>

#include <optional>

namespace ridgeline::cli {

int runDeck(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print a talk deck's scenes with their captions filled from the model and the session."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("deck"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("DECK.json"),
                                 QStringLiteral("a deck file (default: the built-in deck)"));
    const QCommandLineOption sessionOption(QStringLiteral("session"),
                                           QStringLiteral("the session whose measurements the scenes show "
                                                          "(default: the bundled one)"),
                                           QStringLiteral("FILE"));
    parser.addOption(sessionOption);
    const QCommandLineOption notesOption(QStringLiteral("notes"),
                                         QStringLiteral("print each scene's speaker notes under its caption"));
    parser.addOption(notesOption);
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"deck", io))
        return *answered;
    const QStringList positional = parser.positionalArguments();
    const Result<Deck> deck = positional.size() > 1 ? loadDeck(positional[1]) : defaultDeck();
    if (!deck) {
        io.err << "ridgeline deck: " << deck.error().message << '\n';
        return kExitFailed;
    }
    // Without --session the measured scenes show the bundled session, a real measurement.
    Result<Session> loaded = parser.isSet(sessionOption) ? loadSession(parser.value(sessionOption)) : bundledSession();
    if (!loaded) {
        io.err << "ridgeline deck: " << loaded.error().message << '\n';
        return kExitFailed;
    }
    const std::optional<Session> session = std::move(loaded).value();
    io.out << deck.value().title << "\n";
    if (!parser.isSet(sessionOption))
        io.out << "(measured scenes: the bundled session, " << session->title << ")\n";
    io.out << '\n';
    int failures = 0;
    int number = 1;
    for (const Scene& scene : deck.value().scenes) {
        io.out << number++ << ". " << scene.title << "  [" << scene.view << "]\n";
        const Result<SceneFacts> facts = computeSceneFacts(scene, session ? &*session : nullptr);
        if (facts) {
            io.out << "   " << facts.value().caption << "\n";
            if (parser.isSet(notesOption))
                io.out << "   notes: "
                       << (facts.value().notes.isEmpty() ? QStringLiteral("(none)") : facts.value().notes) << "\n";
            io.out << "\n";
        } else {
            io.out << "   (" << facts.error().message << ")\n\n";
            ++failures;
        }
    }
    return failures == 0 ? kExitOk : kExitFailed;
}

}  // namespace ridgeline::cli
