#pragma once
// The facts a scene computes, as they are collected: each number with the text a caption shows for it, in the
// one style every scene uses ("1.04x", "83 %", "12.6 GiB").

#include <QString>
#include "core/model/units.h"

#include <vector>

namespace ridgeline {

struct SceneFact {
    QString key;         // "kv_total_gib"
    double value = 0.0;  // in the unit its key names
    QString text;        // for people: "64 GiB"
};

class FactList {
public:
    void add(const QString& key, double value, const QString& text) { m_facts.push_back({key, value, text}); }

    void add(const QString& key, double value, int decimals, const QString& unit = {})
    {
        // "1.04x" and "83 %": a multiplier hugs its number, other units stand apart.
        const QString separator = unit == QLatin1String("x") ? QString() : QStringLiteral(" ");
        add(key, value,
            unit.isEmpty() ? formatGrouped(value, decimals) : formatGrouped(value, decimals) + separator + unit);
    }
    // "7.5x" under 10, "26x" above.
    void addTimes(const QString& key, double value) { add(key, value, value < 10.0 ? 1 : 0, QStringLiteral("x")); }
    std::vector<SceneFact> take() { return std::move(m_facts); }

private:
    std::vector<SceneFact> m_facts;
};

}  // namespace ridgeline
