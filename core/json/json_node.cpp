// The value tree of core/json/json_reader.h: what an importer asks of a parsed node.
#include "core/json/json_reader.h"

#include "core/message_text.h"

#include <QLocale>

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString& emptyString()
{
    static const QString empty;
    return empty;
}

}  // namespace

const QString& JsonNode::string() const
{
    return m_type == Type::String && m_payload ? m_payload->text : emptyString();
}

qsizetype JsonNode::size() const
{
    if (!m_payload)
        return 0;
    if (m_skipped)
        return m_payload->skippedCount;
    if (m_type == Type::Array)
        return static_cast<qsizetype>(m_payload->items.size());
    if (m_type == Type::Object)
        return static_cast<qsizetype>(m_payload->members.size());
    return 0;
}

const std::vector<JsonNode>& JsonNode::items() const
{
    static const std::vector<JsonNode> none;
    return m_type == Type::Array && m_payload ? m_payload->items : none;
}

const std::vector<JsonNode::Member>& JsonNode::members() const
{
    static const std::vector<Member> none;
    return m_type == Type::Object && m_payload ? m_payload->members : none;
}

const JsonNode* JsonNode::find(QStringView key) const
{
    for (const Member& member : members()) {
        if (member.first == key)
            return &member.second;
    }
    return nullptr;
}

JsonNode::Payload& JsonNode::payload()
{
    if (!m_payload)
        m_payload = std::make_unique<Payload>();
    return *m_payload;
}

QString JsonNode::location() const
{
    return u"line "_s + QString::number(m_line) + u", column "_s + QString::number(m_column) + u": "_s;
}

QString JsonNode::describe() const
{
    switch (m_type) {
        case Type::Null:
            return u"null"_s;
        case Type::Bool:
            return m_flag ? u"true"_s : u"false"_s;
        case Type::Number:
            if (std::isnan(m_number))
                return u"NaN"_s;
            if (std::isinf(m_number))
                return m_number > 0 ? u"Infinity"_s : u"-Infinity"_s;
            return u"the number "_s + QString::number(m_number, 'g', QLocale::FloatingPointShortest);
        case Type::String: {
            const QString& text = string();
            const QString cut = text.size() > 40 ? text.left(40) + u"..."_s : text;
            return u"the string \""_s + oneLine(cut) + u'"';
        }
        case Type::Array:
            return u"a list"_s;
        case Type::Object:
            return u"an object"_s;
    }
    return {};
}

}  // namespace ridgeline
