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
    const QString source = QStringLiteral("fuzz-deck.json");
    const Result<Deck> loaded = fuzz::readOrCheckRefusal(kTarget, fuzz::inputBytes(data, size), source, deckFromJson);
    if (!loaded.ok())
        return 0;
    fuzz::checkWritesBack(kTarget, deckToJson(loaded.value()), source, deckFromJson, deckToJson);

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
