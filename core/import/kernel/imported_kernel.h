#pragma once
// Shared last step of every kernel importer: derive GFLOP/s, GB/s and intensity from FLOPs, bytes and time,
// and check them against what a session file accepts.

#include "core/session/session.h"

#include <QString>

#include <optional>

namespace ridgeline {

// Fills gflops, gbps and intensity (and those of kernel.levels) and cuts texts longer than a session holds
// (4096 characters, ending in " ..."). Returns why the kernel cannot be stored
// (a count beyond what a session holds), or nullopt. flops, bytes and seconds must be > 0.
std::optional<QString> completeImportedKernel(KernelResult& kernel);

// "name.csv (ncu)": KernelResult::source for a file and its format name.
QString importSource(const QString& fileName, const QString& formatName);

}  // namespace ridgeline
