#include "core/session/format/bundled_session.h"

#include "core/session/format/session_json.h"

// Q_INIT_RESOURCE must be used outside any namespace; without it a linker may drop the static library's
// resources.
static void initBundledSessionResources()
{
    Q_INIT_RESOURCE(bundled_sessions);
}

namespace ridgeline {

Result<Session> bundledSession()
{
    initBundledSessionResources();
    return loadSession(QStringLiteral(":/sessions/bundled-epyc-zen4-2vcpu.json"));
}

}  // namespace ridgeline
