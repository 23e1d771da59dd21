#pragma once
// A Ridgeline file whose one large array (a session's kernels) is read an entry at a time. The parsed tree of a
// 200 MB session would take several times the file's bytes; here the whole file is checked in one pass, exactly as
// strictly as parseStrictObject() checks it, but only the places of the array's entries are kept, and each entry is
// parsed when it is read. What is accepted and every message are those of parseStrictObject().

#include "core/json/strict_reader.h"
#include "core/result.h"

#include <QByteArray>
#include <QLatin1StringView>

#include <cstddef>
#include <vector>

namespace ridgeline {

class SplitObject {
public:
    // The file's top-level object. When the large array was split off, its key holds a skipped array here (its
    // size, no items).
    const JsonNode& root() const { return m_root; }
    // Whether the large array's entries are read through entry() rather than from root().
    bool isSplit() const { return m_split; }
    qsizetype entryCount() const { return static_cast<qsizetype>(m_entries.size()); }
    // Entry i as an object (parsed again from the file's bytes, which were checked when the file was split).
    JsonNode entry(qsizetype i) const;

private:
    friend Result<SplitObject> parseStrictObjectSplit(QByteArray bytes, QLatin1StringView arrayKey);
    // The whole object, nothing split off.
    static SplitObject whole(JsonNode root);

    QByteArray m_bytes;
    JsonNode m_root;
    std::vector<JsonSplitArray::Range> m_entries;
    bool m_split = false;
};

// Splits off the top-level member arrayKey when it is an array of objects.
Result<SplitObject> parseStrictObjectSplit(QByteArray bytes, QLatin1StringView arrayKey);

// readEntries() for the split array: the same checks, paths and messages, one entry in memory at a time.
template <typename T, typename ReadEntry>
std::vector<T> readSplitEntries(ObjectReader& parent, const SplitObject& file, QLatin1StringView key,
                                qsizetype maxEntries, Need need, ReadEntry readEntry)
{
    if (!file.isSplit())
        return readEntries<T>(parent, key, maxEntries, need, readEntry);
    std::vector<T> entries;
    if (!parent.array(key, maxEntries, need))
        return entries;
    Problem& problem = parent.problem();
    if (file.entryCount() > maxEntries) {
        problem.report(Error::Code::Range, parent.where(key) + QStringLiteral(" has ") +
                                               QString::number(file.entryCount()) +
                                               QStringLiteral(" entries; at most ") + QString::number(maxEntries) +
                                               QStringLiteral(" are allowed"));
        return entries;
    }
    entries.reserve(static_cast<std::size_t>(file.entryCount()));
    for (qsizetype i = 0; i < file.entryCount() && !problem.found(); ++i) {
        const JsonNode object = file.entry(i);
        ObjectReader reader(object, indexedPath(parent.where(key), i), problem);
        T entry = readEntry(reader);
        reader.rejectUnknownKeys();
        entries.push_back(std::move(entry));
    }
    return entries;
}

}  // namespace ridgeline
