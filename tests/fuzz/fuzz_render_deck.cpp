// Structure-aware libFuzzer target for the talk decks whose numbers reach the slides: the mutator edits the JSON's
// values (tests/fuzz/json_mutator.h), and every deck that loads has its first scenes drawn offscreen as
// `ridgeline render --deck` draws them; nothing drawn may read nan or inf. A slide builds the panel it shows, so a
// deck costs far more than a session's chart: fuzz_deck_loader checks every deck's scene facts at full speed, and
// this target what only drawing finds.
#include "tests/fuzz/fuzz_loader_checks.h"
#include "tests/fuzz/render_checks.h"

#include "core/scene/deck.h"
#include "ui/chart/chart_layout.h"
#include "ui/talk/deck_export.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

namespace {

constexpr const char* kTarget = "fuzz_render_deck";
constexpr QSize kSlideSize{480, 270};
constexpr int kMaxScenesDrawn = 4;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::inputBytes(data, size);
    const QString source = QStringLiteral("fuzz.json");
    const Result<Deck> deck = deckFromJson(bytes, source);
    if (!deck.ok()) {
        fuzz::checkRefusal(kTarget, source, deck.error().message);
        return 0;
    }
    int drawn = 0;
    for (const Scene& scene : deck.value().scenes) {
        if (drawn++ == kMaxScenesDrawn)
            break;
        const QImage image = ui::renderSceneImage(scene, nullptr, kSlideSize);
        if (image.size() != kSlideSize)
            fuzz::fail(kTarget, "a scene of a loaded deck did not draw", scene.id);
    }
    const QStringList filesTexts = fuzz::nonFiniteLookingTexts(bytes);
    for (const auto& layout : ui::deckChartLayouts(deck.value(), nullptr, kSlideSize))
        if (layout)
            fuzz::checkDrawnTexts(kTarget, *layout, filesTexts, "a slide of a loaded deck shows a non-finite number");
    return 0;
}
