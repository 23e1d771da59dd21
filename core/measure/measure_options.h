#pragma once
// What a measurement is asked to do and whom it tells of each result: the engine's inputs, shared by its entry
// (engine.h) and its run (engine_run.h), so that neither header needs the other.

#include "core/session/session.h"

#include <QString>

#include <functional>

namespace ridgeline {

struct MeasureOptions {
    bool quick = false;  // a few seconds instead of half a minute: fewer sizes and repetitions
    int threads = 0;     // 0 = every CPU this process may run on
    QString generator;   // recorded in the session, e.g. the command line
};

// Called on the measuring thread each time a ceiling or kernel has been added to the session so far.
using PartialResultCallback = std::function<void(const Session& soFar)>;

}  // namespace ridgeline
