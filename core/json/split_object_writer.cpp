#include "core/json/split_object_writer.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ridgeline {

namespace {

constexpr QByteArrayView kEntryIndent = "        ";  // an entry of a top-level array is two levels in
constexpr qsizetype kPieceBytes = qsizetype{1} << 20;

// Appends an entry's own indented document where Qt would write it inside the whole document: Qt indents four spaces
// a level and never breaks a line inside a string, so each line moves two levels in; a comma follows every entry but
// the last.
void appendEntry(QByteArray& out, QByteArrayView document, bool last)
{
    if (document.endsWith('\n'))
        document.chop(1);
    for (qsizetype start = 0; start <= document.size();) {
        qsizetype end = document.indexOf('\n', start);
        if (end < 0)
            end = document.size();
        out.append(kEntryIndent).append(document.sliced(start, end - start));
        out.append(end < document.size() || last ? "\n" : ",\n");
        start = end + 1;
    }
}

}  // namespace

std::optional<Error> writeSplitObject(const QJsonObject& head, QLatin1StringView arrayKey, qsizetype count,
                                      const SplitEntry& entry, const SplitCheck& check, const SplitPiece& write)
{
    QJsonObject withEmptyArray = head;
    withEmptyArray.insert(arrayKey, QJsonArray());
    const QByteArray text = QJsonDocument(withEmptyArray).toJson(QJsonDocument::Indented);
    // A member of the top-level object is the only thing at four spaces after a line break (a string holds no raw
    // line break), and Qt writes an empty array as "[", a line break, and the closing "]" on a line of its own.
    const QByteArray opening = "\n    \"" + QByteArray(arrayKey.data(), arrayKey.size()) + "\": [\n";
    const qsizetype split = text.indexOf(opening) + opening.size();
    Q_ASSERT(split >= opening.size());

    QByteArray piece = text.first(split);
    for (qsizetype i = 0; i < count; ++i) {
        const QByteArray document = QJsonDocument(entry(i)).toJson(QJsonDocument::Indented);
        if (check) {
            if (std::optional<Error> refused = check(i, document))
                return refused;
        }
        appendEntry(piece, document, i + 1 == count);
        if (piece.size() >= kPieceBytes) {
            if (!write(piece))
                return std::nullopt;
            piece.clear();
        }
    }
    piece.append(text.sliced(split));
    write(piece);
    return std::nullopt;
}

}  // namespace ridgeline
