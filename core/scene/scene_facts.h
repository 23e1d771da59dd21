#pragma once
// The numbers a scene shows, computed from the model or the measurement, never typed into the deck.
// A caption names them by {key}; filling it fails loudly if the scene does not compute that key.

#include "core/result.h"
#include "core/scene/deck.h"
#include "core/session/session.h"

#include <optional>
#include <vector>

namespace ridgeline {

struct SceneFact {
    QString key;         // "kv_total_gib"
    double value = 0.0;  // in the unit its key names
    QString text;        // for people: "64 GiB"
};

struct SceneFacts {
    std::vector<SceneFact> facts;
    QString caption;  // the scene's caption with every {key} filled in

    std::optional<double> value(const QString& key) const;
    QString text(const QString& key) const;
};

// `session` may be null; scenes that show measured numbers (ridge, cpu-experiment, fusion) then fail
// with a message saying a session is needed. A saved "view" computes the explorer's numbers at its
// settings (batching) or the session's ridge (roofline, when there is a session).
Result<SceneFacts> computeSceneFacts(const Scene& scene, const Session* session);

}  // namespace ridgeline
