#pragma once
// Whether bytes are UTF-8 text: the one check the JSON tokenizer and the importers' text reader share; and whether
// they hold anything but white space, asked of whole files before they are read.

#include <QByteArrayView>

namespace ridgeline {

// Length of the valid UTF-8 sequence at bytes[i], or 0 when it is not one (overlong, surrogate, truncated...).
int utf8SequenceLength(QByteArrayView bytes, qsizetype i);

// Only ASCII white space (what QByteArray::trimmed() removes), or nothing. Unlike trimmed().isEmpty() it copies
// nothing: a 200 MB file ending in a newline would be copied whole.
bool isBlank(QByteArrayView bytes);

}  // namespace ridgeline
