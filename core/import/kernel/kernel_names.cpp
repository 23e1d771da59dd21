#include "core/import/kernel/kernel_names.h"

#include <QStringList>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

QString demangledName(const QString& name)
{
    if (!name.startsWith(u"_Z"_s))
        return name;
    int status = 0;
    const QByteArray mangled = name.toUtf8();
    // __cxa_demangle allocates with malloc; free it with free.
    const std::unique_ptr<char, decltype(&std::free)> demangled(
        abi::__cxa_demangle(mangled.constData(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !demangled)
        return name;
    return QString::fromUtf8(demangled.get());
}

QString shortKernelName(const QString& name)
{
    QString text = demangledName(name).trimmed();
    text.replace(u"(anonymous namespace)"_s, u"{anonymous}"_s);
    text.replace(u"<unnamed>"_s, u"{anonymous}"_s);  // how Nsight Compute writes an anonymous namespace
    // Drop everything nested in <...> or (...) at any depth; keep the rest.
    QString flat;
    int angle = 0;
    int paren = 0;
    for (const QChar c : text) {
        if (c == u'<' && paren == 0) {
            ++angle;
        } else if (c == u'>' && angle > 0 && paren == 0) {
            --angle;
        } else if (c == u'(') {
            ++paren;
        } else if (c == u')' && paren > 0) {
            --paren;
        } else if (angle == 0 && paren == 0) {
            flat.append(c);
        }
    }
    // What is left is "[return type] qualified::name [const]"; the name is the last word with a letter in it.
    const QStringList words = flat.split(u' ', Qt::SkipEmptyParts);
    for (auto it = words.crbegin(); it != words.crend(); ++it) {
        if (*it == u"const"_s || *it == u"volatile"_s || *it == u"&"_s || *it == u"&&"_s)
            continue;
        QString word = *it;
        while (word.startsWith(u'*') || word.startsWith(u'&'))
            word.remove(0, 1);
        if (!word.isEmpty())
            return word;
    }
    return text.isEmpty() ? name : text;
}

}  // namespace ridgeline
