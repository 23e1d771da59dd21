#pragma once
// The JSON of a session's kernels, one entry each: what was run, its rate, and where an imported kernel ran.
// Beside session_json.cpp, which reads the entries one at a time.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QSet>
#include <QString>

#include <QJsonObject>

namespace ridgeline {

// One copy of each text many kernels repeat (kind, size, precision, source, level, group): a QString read from JSON
// is an allocation of its own, and in a session of half a million kernels those copies took a third of its memory.
class SharedTexts {
public:
    QString operator()(const QString& text)
    {
        if (text.isEmpty())
            return text;
        const auto found = m_texts.constFind(text);
        if (found != m_texts.constEnd())
            return *found;
        m_texts.insert(text);
        return text;
    }

private:
    QSet<QString> m_texts;
};

QJsonObject kernelToJson(const KernelResult& kernel);
KernelResult kernelFromJson(ObjectReader& in, int schema, SharedTexts& shared);

}  // namespace ridgeline
