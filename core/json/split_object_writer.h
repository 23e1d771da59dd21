#pragma once
// The writing side of split_object.h: a Ridgeline file whose one large array (a session's kernels) is written an
// entry at a time, never held whole. The bytes are exactly those QJsonDocument::Indented writes for the whole
// document, so a file written either way is the same file.

#include "core/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QLatin1StringView>

#include <functional>
#include <optional>

namespace ridgeline {

// Entry i of the large array as its own object.
using SplitEntry = std::function<QJsonObject(qsizetype index)>;
// Sees entry i's own indented document before it is written (to read it back); an error stops the writing and is
// returned. May be empty.
using SplitCheck = std::function<std::optional<Error>(qsizetype index, const QByteArray& document)>;
// Takes the next piece of the file; false stops the writing (the writer knows why).
using SplitPiece = std::function<bool(QByteArrayView piece)>;

// Writes `head` (every other member; `arrayKey` is absent from it) with the top-level array `arrayKey` of `count`
// entries, in pieces of about a MiB.
std::optional<Error> writeSplitObject(const QJsonObject& head, QLatin1StringView arrayKey, qsizetype count,
                                      const SplitEntry& entry, const SplitCheck& check, const SplitPiece& write);

}  // namespace ridgeline
