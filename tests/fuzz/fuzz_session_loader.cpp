// libFuzzer target for the session loader: any bytes give a whole Session or a one-line Error
// naming the source, never a crash, a leak or a sanitizer report. A loaded session must also save to JSON
// that loads back and writes out byte for byte the same (the saver's promise: every saved file loads).
#include "core/session/format/session_json.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

constexpr const char* kTarget = "fuzz_session_loader";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString source = QStringLiteral("fuzz.json");
    const Result<Session> loaded =
        fuzz::readOrCheckRefusal(kTarget, fuzz::inputBytes(data, size), source, sessionFromJson);
    if (loaded.ok())
        fuzz::checkWritesBack(kTarget, sessionToJson(loaded.value()), source, sessionFromJson, sessionToJson);
    return 0;
}
