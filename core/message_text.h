#pragma once
// Error messages quote keys and values from the files people send each other.

#include <QString>

namespace ridgeline {

// The text with line breaks and other control characters escaped (\u000a), so a message that quotes a
// hostile file stays on one line: a JSON string may hold them escaped, and other formats raw.
QString oneLine(const QString& text);

}  // namespace ridgeline
