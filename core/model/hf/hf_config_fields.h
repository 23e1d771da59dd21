#pragma once
// The field reader behind parseHfConfig (core/model/hf/hf_config.cpp and hf_config_formats.cpp): a config.json's
// fields by name, null read as absent, every problem one line naming the file and the field's path.

#include "core/json/strict_reader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>
#include <cstdint>
#include <optional>

namespace ridgeline::hf {

using namespace Qt::Literals::StringLiterals;

// The first problem met while reading a config; every Fields of one file reports to the same one.
struct ConfigProblem {
    QString label;  // the file, as messages name it
    std::optional<QString> message;
};

// Fields of one config object. transformers writes Python's None as null, so null reads as absent; keys Ridgeline
// does not read are the config's business (rope scaling, token ids, ...). The first problem wins.
class Fields {
public:
    Fields(QJsonObject object, QString prefix, ConfigProblem& problem)
        : m_object(std::move(object)), m_prefix(std::move(prefix)), m_problem(&problem)
    {
    }
    Fields nested(const QJsonObject& object, QLatin1StringView key) const
    {
        return Fields(object, field(key) + u'.', *m_problem);
    }

    QString field(QLatin1StringView key) const { return m_prefix + key; }
    QString field(const QString& key) const { return m_prefix + key; }
    bool has(QLatin1StringView key) const { return !value(key).isNull() && !value(key).isUndefined(); }
    QJsonValue value(QLatin1StringView key) const { return m_object.value(key); }
    const QJsonObject& object() const { return m_object; }
    ConfigProblem& problem() const { return *m_problem; }

    void refuse(const QString& what)
    {
        if (!m_problem->message)
            m_problem->message = m_problem->label + u": "_s + what;
    }
    bool failed() const { return m_problem->message.has_value(); }

    // A whole number in min..max; `fallback` when absent, unless it is required.
    int whole(QLatin1StringView key, std::int64_t min, std::int64_t max, int fallback, bool required = false)
    {
        if (!has(key)) {
            if (required)
                refuse(u"missing "_s + field(key));
            return fallback;
        }
        const QJsonValue v = value(key);
        const double number = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(number) || std::trunc(number) != number ||
            number < static_cast<double>(min) || number > static_cast<double>(max)) {
            refuse(field(key) + u" must be a whole number from "_s + QString::number(min) + u" to "_s +
                   QString::number(max) + u", got "_s + describeJson(v));
            return fallback;
        }
        return static_cast<int>(number);
    }
    bool flag(QLatin1StringView key, bool fallback)
    {
        if (!has(key))
            return fallback;
        if (!value(key).isBool())
            refuse(field(key) + u" must be true or false, got "_s + describeJson(value(key)));
        return value(key).toBool(fallback);
    }
    QString word(QLatin1StringView key)
    {
        if (!has(key))
            return {};
        if (!value(key).isString()) {
            refuse(field(key) + u" must be a string, got "_s + describeJson(value(key)));
            return {};
        }
        return value(key).toString();
    }
    std::optional<QJsonObject> child(QLatin1StringView key)
    {
        if (!has(key))
            return std::nullopt;
        if (!value(key).isObject()) {
            refuse(field(key) + u" must be an object, got "_s + describeJson(value(key)));
            return std::nullopt;
        }
        return value(key).toObject();
    }
    std::optional<QJsonArray> list(QLatin1StringView key, qsizetype maxEntries)
    {
        if (!has(key))
            return std::nullopt;
        if (!value(key).isArray() || value(key).toArray().size() > maxEntries) {
            refuse(field(key) + u" must be a list of at most "_s + QString::number(maxEntries) + u" entries, got "_s +
                   describeJson(value(key)));
            return std::nullopt;
        }
        return value(key).toArray();
    }

private:
    QJsonObject m_object;
    QString m_prefix;
    ConfigProblem* m_problem;
};

}  // namespace ridgeline::hf
