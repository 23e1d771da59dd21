#include "core/message_text.h"

namespace ridgeline {

QString oneLine(const QString& text)
{
    QString result;
    result.reserve(text.size());
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        if (code < 0x20 || code == 0x7f || code == 0x85 || code == 0x2028 || code == 0x2029)
            result += QStringLiteral("\\u") + QString::number(code, 16).rightJustified(4, u'0');
        else
            result += c;
    }
    return result;
}

}  // namespace ridgeline
