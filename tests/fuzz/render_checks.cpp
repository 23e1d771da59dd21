#include "tests/fuzz/render_checks.h"

#include "tests/fuzz/fuzz_loader_checks.h"
#include "tests/fuzz/json_mutator.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>

#include <cstring>
#include <optional>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace ridgeline::fuzz {

namespace {

const QRegularExpression& nonFinite()
{
    static const QRegularExpression pattern(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

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

}  // namespace

QStringList nonFiniteLookingTexts(const QByteArray& json)
{
    QStringList texts;
    collectNonFiniteLookingTexts(QJsonDocument::fromJson(json).object(), texts);
    return texts;
}

void checkDrawnTexts(const char* target, const ui::ChartLayout& layout, const QStringList& filesTexts, const char* what)
{
    for (const ui::LayoutText& drawn : layout.texts) {
        QString text = drawn.text;
        for (const QString& own : filesTexts)
            text.replace(own, QStringLiteral(" "));
        if (nonFinite().match(text).hasMatch())
            fail(target, what, drawn.text);
    }
}

}  // namespace ridgeline::fuzz

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

// Edits the JSON's values (json_mutator.h); where the input is not JSON, libFuzzer's byte mutation.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed)
{
    const QByteArray in(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const std::optional<QByteArray> out = ridgeline::fuzz::mutateJson(in, seed);
    if (!out || static_cast<std::size_t>(out->size()) > maxSize)
        return LLVMFuzzerMutate(data, size, maxSize);
    std::memcpy(data, out->constData(), static_cast<std::size_t>(out->size()));
    return static_cast<std::size_t>(out->size());
}
