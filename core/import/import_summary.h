#pragma once
// What an import read and skipped, as lines for a person: printed by `ridgeline import` and meant for the
// window's import summary, so both say the same thing.

#include "core/import/kernel/import_result.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <span>

namespace ridgeline {

// "plain.csv (csv): 4 kernels, 1 skipped", then one indented line per ceiling, kernel, skipped row and note
// (at most maxListed kernels and skipped rows each, then "... and N more"), and last "  into     " and `into`: the
// session its kernels or ceilings went to (PlacedImports::into, core/import/import_session.h).
QStringList importSummaryLines(const ImportResult& import, const QString& into, std::size_t maxListed = 40);

// The same, of an import whose kernels were moved into its session (PlacedImports::kernelsOf).
QStringList importSummaryLines(const ImportResult& import, std::span<const KernelResult> kernels, const QString& into,
                               std::size_t maxListed = 40);

}  // namespace ridgeline
