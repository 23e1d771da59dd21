#pragma once
// Whether bytes are UTF-8 text: the one check the JSON tokenizer and the importers' text reader share.

#include <QByteArrayView>

namespace ridgeline {

// Length of the valid UTF-8 sequence at bytes[i], or 0 when it is not one (overlong, surrogate, truncated...).
int utf8SequenceLength(QByteArrayView bytes, qsizetype i);

}  // namespace ridgeline
