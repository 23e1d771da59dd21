#include "core/json/split_object.h"

#include <utility>

namespace ridgeline {

SplitObject SplitObject::whole(JsonNode root)
{
    SplitObject file;
    file.m_root = std::move(root);
    return file;
}

JsonNode SplitObject::entry(qsizetype i) const
{
    const JsonSplitArray::Range& range = m_entries[static_cast<std::size_t>(i)];
    // The whole file was checked when it was split, so the entry parses.
    return parseStrictObject(QByteArray::fromRawData(m_bytes.constData() + range.begin, range.end - range.begin))
        .value();
}

Result<SplitObject> parseStrictObjectSplit(QByteArray bytes, QLatin1StringView arrayKey)
{
    JsonSplitArray split;
    split.key = QString(arrayKey);
    Result<JsonNode> root = parseStrictObject(bytes, &split);
    if (!root)
        return root.error();
    if (split.found && !split.allObjects) {
        // An entry that is not an object is named by the typed reader, which needs the array whole.
        root = parseStrictObject(bytes);
        return SplitObject::whole(std::move(root.value()));
    }
    SplitObject file;
    file.m_root = std::move(root.value());
    file.m_split = split.found;
    if (split.found) {
        file.m_entries = std::move(split.entries);
        file.m_bytes = std::move(bytes);
    }
    return file;
}

}  // namespace ridgeline
