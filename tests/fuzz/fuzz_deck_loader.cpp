// libFuzzer target for the talk-deck loader: speakers send each other decks, so any bytes give a whole
// Deck or a one-line Error naming the source. A loaded deck saves to JSON that loads back byte for byte,
// and every scene of it computes finite facts (the model at whatever batch, context and GPU the file names)
// or says why not: never a crash, a NaN, a leak or a sanitizer report.
#include "core/scene/deck.h"
#include "core/scene/scene_facts.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>

using namespace ridgeline;

constexpr const char* kTarget = "fuzz_deck_loader";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // fromRawData: no copy and no terminating NUL, so ASan sees any read past the input's last byte.
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString source = QStringLiteral("fuzz-deck.json");

    const Result<Deck> loaded = deckFromJson(bytes, source);
    if (!loaded.ok()) {
        fuzz::checkRefusal(kTarget, source, loaded.error().message);
        return 0;
    }

    const QByteArray saved = deckToJson(loaded.value());
    const Result<Deck> reloaded = deckFromJson(saved, source);
    if (!reloaded.ok())
        fuzz::fail(kTarget, "a loaded deck saved to JSON that does not load back", reloaded.error().message);
    if (deckToJson(reloaded.value()) != saved)
        fuzz::fail(kTarget, "a saved deck changed when loaded and saved again", QString::fromUtf8(saved));

    for (const Scene& scene : loaded.value().scenes) {
        const Result<SceneFacts> facts = computeSceneFacts(scene, nullptr);
        if (!facts.ok())
            continue;
        // The caption's numbers are these facts (its words are the file's own, so they are not checked).
        for (const SceneFact& fact : facts.value().facts)
            if (!std::isfinite(fact.value))
                fuzz::fail(kTarget, "a scene fact is not finite", fact.key);
    }
    return 0;
}
