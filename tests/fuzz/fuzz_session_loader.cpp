// libFuzzer target for the session loader: any bytes give a whole Session or a one-line Error
// naming the source, never a crash, a leak or a sanitizer report. A loaded session must also save to JSON
// that loads back and writes out byte for byte the same (the saver's promise: every saved file loads).
#include "core/session/session_json.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

constexpr const char* kTarget = "fuzz_session_loader";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // fromRawData: no copy and no terminating NUL, so ASan sees any read past the input's last byte.
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString source = QStringLiteral("fuzz.json");

    const Result<Session> loaded = sessionFromJson(bytes, source);
    if (!loaded.ok()) {
        fuzz::checkRefusal(kTarget, source, loaded.error().message);
        return 0;
    }

    const QByteArray saved = sessionToJson(loaded.value());
    const Result<Session> reloaded = sessionFromJson(saved, source);
    if (!reloaded.ok())
        fuzz::fail(kTarget, "a loaded session saved to JSON that does not load back", reloaded.error().message);
    if (sessionToJson(reloaded.value()) != saved)
        fuzz::fail(kTarget, "a saved session changed when loaded and saved again", QString::fromUtf8(saved));
    return 0;
}
