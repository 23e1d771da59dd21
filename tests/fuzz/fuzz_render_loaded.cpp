// Structure-aware libFuzzer target for the files whose numbers reach the chart: sessions and talk decks. Byte
// mutations rarely keep a session loadable, so the mutator edits the JSON itself: a number becomes an extreme
// (a denormal, 1e308, a value just past a bound), a string another the loader knows, an entry is copied or dropped.
// Every file that loads is drawn offscreen as `ridgeline render` draws it (a session's roofline, a deck's slides)
// and nothing drawn may read nan or inf: a roof whose ridge overflowed Qt Charts' log axis was found this way.
#include "tests/fuzz/fuzz_loader_checks.h"
#include "tests/fuzz/json_mutator.h"

#include "core/scene/deck.h"
#include "core/session/format/session_json.h"
#include "ui/chart/chart_export.h"
#include "ui/chart/chart_layout.h"
#include "ui/talk/deck_export.h"

#include <QApplication>
#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <cstring>

using namespace ridgeline;

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

constexpr const char* kTarget = "fuzz_render_loaded";
// Small pictures: the layout code runs the same at any size, and a small one renders several times faster.
constexpr QSize kChartSize{480, 300};
constexpr QSize kSlideSize{480, 270};
constexpr int kMaxScenesDrawn = 4;

const QRegularExpression& nonFinite()
{
    static const QRegularExpression pattern(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

// The file's own texts that read like nan or inf (a kernel named "inf"): drawn as written, they are not numbers.
void collectNonFiniteLookingTexts(const QJsonValue& value, QStringList& texts)
{
    if (value.isString() && nonFinite().match(value.toString()).hasMatch())
        texts.append(value.toString());
    else if (value.isArray())
        for (const QJsonValue& item : value.toArray())
            collectNonFiniteLookingTexts(item, texts);
    else if (value.isObject())
        for (const QJsonValue& member : value.toObject())
            collectNonFiniteLookingTexts(member, texts);
}

void checkDrawnTexts(const ui::ChartLayout& layout, const QStringList& filesTexts, const char* what)
{
    for (const ui::LayoutText& drawn : layout.texts) {
        QString text = drawn.text;
        for (const QString& own : filesTexts)
            text.replace(own, QStringLiteral(" "));
        if (nonFinite().match(text).hasMatch())
            fuzz::fail(kTarget, what, drawn.text);
    }
}

void drawSession(const Session& session, const QStringList& filesTexts)
{
    ui::ChartContent content;
    content.sessions.push_back(session);
    ui::ChartLayout layout;
    const QImage image = ui::renderChartImage(content, kChartSize, 1.0, &layout);
    if (image.size() != kChartSize)
        fuzz::fail(kTarget, "a loaded session did not draw", session.title);
    checkDrawnTexts(layout, filesTexts, "the chart of a loaded session shows a non-finite number");
}

void drawDeck(const Deck& deck, const QStringList& filesTexts)
{
    int drawn = 0;
    for (const Scene& scene : deck.scenes) {
        if (drawn++ == kMaxScenesDrawn)
            break;
        const QImage image = ui::renderSceneImage(scene, nullptr, kSlideSize);
        if (image.size() != kSlideSize)
            fuzz::fail(kTarget, "a scene of a loaded deck did not draw", scene.id);
    }
    for (const auto& layout : ui::deckChartLayouts(deck, nullptr, kSlideSize))
        if (layout)
            checkDrawnTexts(*layout, filesTexts, "a slide of a loaded deck shows a non-finite number");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt Charts draws through QGraphicsScene: widgets need an application. It is never destroyed: destroyed at exit,
    // it crashes in Qt Gui's post routines in a process that has drawn a chart, a crash no input caused. A static
    // pointer keeps it reachable, so LeakSanitizer does not report it.
    static QApplication* application = new QApplication(*argc, *argv);
    (void)application;
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed)
{
    const QByteArray in(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const std::optional<QByteArray> out = fuzz::mutateJson(in, seed);
    if (!out || static_cast<std::size_t>(out->size()) > maxSize)
        return LLVMFuzzerMutate(data, size, maxSize);
    std::memcpy(data, out->constData(), static_cast<std::size_t>(out->size()));
    return static_cast<std::size_t>(out->size());
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::inputBytes(data, size);
    const QString source = QStringLiteral("fuzz.json");
    QStringList filesTexts;
    collectNonFiniteLookingTexts(QJsonDocument::fromJson(bytes).object(), filesTexts);
    if (bytes.contains("\"ridgeline-deck\"")) {
        const Result<Deck> deck = deckFromJson(bytes, source);
        if (!deck.ok())
            fuzz::checkRefusal(kTarget, source, deck.error().message);
        else
            drawDeck(deck.value(), filesTexts);
        return 0;
    }
    const Result<Session> session = sessionFromJson(bytes, source);
    if (!session.ok())
        fuzz::checkRefusal(kTarget, source, session.error().message);
    else
        drawSession(session.value(), filesTexts);
    return 0;
}
