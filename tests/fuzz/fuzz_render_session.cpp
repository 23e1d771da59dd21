// Structure-aware libFuzzer target for the sessions whose numbers reach the chart. Byte mutations rarely keep a
// session loadable, so the mutator edits the JSON itself: a number becomes an extreme (a denormal, 1e308, a value
// just past a bound), a string another the loader knows, an entry is copied or dropped. Every session that loads is
// drawn offscreen as `ridgeline render` draws it, and nothing drawn may read nan or inf: a roof whose ridge
// overflowed Qt Charts' log axis was found this way. Decks have their own target (fuzz_render_deck): a slide costs
// some fifty times a session's chart, and sharing one budget left the sessions a small part of it.
#include "tests/fuzz/fuzz_loader_checks.h"
#include "tests/fuzz/render_checks.h"

#include "core/session/format/session_json.h"
#include "ui/chart/chart_export.h"
#include "ui/chart/chart_layout.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

namespace {

constexpr const char* kTarget = "fuzz_render_session";
// A small picture: the layout code runs the same at any size, and a small one renders several times faster.
constexpr QSize kChartSize{480, 300};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::inputBytes(data, size);
    const QString source = QStringLiteral("fuzz.json");
    const Result<Session> session = sessionFromJson(bytes, source);
    if (!session.ok()) {
        fuzz::checkRefusal(kTarget, source, session.error().message);
        return 0;
    }
    ui::ChartContent content;
    content.sessions.push_back(session.value());
    ui::ChartLayout layout;
    const QImage image = ui::renderChartImage(content, kChartSize, 1.0, &layout);
    if (image.size() != kChartSize)
        fuzz::fail(kTarget, "a loaded session did not draw", session.value().title);
    fuzz::checkDrawnTexts(kTarget, layout, fuzz::nonFiniteLookingTexts(bytes),
                          "the chart of a loaded session shows a non-finite number");
    return 0;
}
