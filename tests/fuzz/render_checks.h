#pragma once
// What the drawing fuzz targets share: an offscreen application and the JSON-aware mutator (render_checks.cpp
// defines libFuzzer's LLVMFuzzerInitialize and LLVMFuzzerCustomMutator for every target that links it), and the
// check that nothing drawn reads nan or inf.
#include "ui/chart/chart_layout.h"

#include <QByteArray>
#include <QStringList>

#include <cstddef>
#include <cstdint>

namespace ridgeline::fuzz {

// The file's own texts that read like nan or inf (a kernel named "inf"): drawn as written, they are not numbers.
QStringList nonFiniteLookingTexts(const QByteArray& json);

// Stops the target if a text drawn in `layout`, less the file's own texts, reads nan or inf.
void checkDrawnTexts(const char* target, const ui::ChartLayout& layout, const QStringList& filesTexts,
                     const char* what);

}  // namespace ridgeline::fuzz
