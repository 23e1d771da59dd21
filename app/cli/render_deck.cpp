#include "app/cli/render_deck.h"
#include "app/cli/command_line.h"

#include "core/scene/deck.h"
#include "core/session/format/bundled_session.h"
#include "core/session/format/session_json.h"
#include "ui/talk/deck_export.h"

#include <QFileInfo>

#include <optional>

namespace ridgeline::cli {

int renderDeck(const QString& deckPath, const QString& sessionPath, const QString& outPath, const QString& format,
               QSize size, const QString& theme, const QString& layoutDir, QTextStream& out, QTextStream& err)
{
    const QString prefix = QStringLiteral("ridgeline render: ");
    if (outPath.isEmpty()) {
        err << prefix << "--out is a .pdf file or a directory\n";
        return kExitBadInput;
    }
    const std::optional<ui::TalkLook> look = ui::TalkLook::parse(theme);
    if (!look) {
        err << prefix << "--theme is talk, dark or light, got '" << theme << "'\n";
        return kExitBadInput;
    }
    if (!size.isValid())
        size = ui::kDefaultSlideSize;
    const bool pdf = QFileInfo(outPath).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0;
    std::optional<ui::DeckFormat> fileFormat = pdf ? ui::DeckFormat::Pdf : ui::DeckFormat::Png;
    if (!format.isEmpty()) {
        fileFormat = ui::parseDeckFormat(format);
        const bool matches = fileFormat && (*fileFormat == ui::DeckFormat::Pdf) == pdf;
        if (!matches) {
            err << prefix << "--format is png or svg with a directory, pdf with a .pdf file, got '" << format << "'\n";
            return kExitBadInput;
        }
    }

    const bool builtIn = deckPath.isEmpty() || deckPath == QLatin1String("default");
    const Result<Deck> deck = builtIn ? defaultDeck() : loadDeck(deckPath);
    if (!deck) {
        err << prefix << deck.error().message << '\n';
        return kExitFailed;
    }
    // Without a session of the user's, the measured scenes show the bundled one (a real measurement).
    Result<Session> loaded = sessionPath.isEmpty() ? bundledSession() : loadSession(sessionPath);
    if (!loaded) {
        err << prefix << loaded.error().message << '\n';
        return kExitFailed;
    }
    const std::optional<Session> session = std::move(loaded).value();
    const Session* sessionPtr = session ? &*session : nullptr;

    const std::optional<Error> error =
        pdf ? ui::exportDeckPdf(deck.value(), sessionPtr, outPath, size, *look)
            : ui::exportDeckFiles(deck.value(), sessionPtr, outPath, *fileFormat, size, *look);
    if (error) {
        err << prefix << error->message << '\n';
        return kExitFailed;
    }
    if (!layoutDir.isEmpty()) {
        if (const std::optional<Error> failed =
                ui::exportDeckLayouts(deck.value(), sessionPtr, layoutDir, size, *look)) {
            err << prefix << failed->message << '\n';
            return kExitFailed;
        }
        out << "wrote the layout of each scene to " << layoutDir << '\n';
    }
    const auto count = deck.value().scenes.size();
    out << "wrote " << count << (pdf ? " pages to " : " files to ") << outPath << " (" << size.width() << 'x'
        << size.height() << ")\n";
    if (!sessionPtr)
        out << "no session given: the scenes that show measurements say \"open or measure a session first\"\n";
    return 0;
}

}  // namespace ridgeline::cli
