#pragma once
// What the drawing fuzz targets share: an offscreen application, the JSON-aware mutator, and the check that nothing
// drawn reads nan or inf.
#include "ui/chart/chart_layout.h"

#include <QByteArray>
#include <QStringList>

#include <cstddef>
#include <cstdint>

namespace ridgeline::fuzz {

// Starts the offscreen application Qt Charts needs to draw; it lives until the process ends.
void startOffscreenApplication(int* argc, char*** argv);

// Edits the JSON's values (json_mutator.h); where the input is not JSON, libFuzzer's byte mutation.
std::size_t mutateJsonValues(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned int seed);

// The file's own texts that read like nan or inf (a kernel named "inf"): drawn as written, they are not numbers.
QStringList nonFiniteLookingTexts(const QByteArray& json);

// Stops the target if a text drawn in `layout`, less the file's own texts, reads nan or inf.
void checkDrawnTexts(const char* target, const ui::ChartLayout& layout, const QStringList& filesTexts,
                     const char* what);

}  // namespace ridgeline::fuzz
