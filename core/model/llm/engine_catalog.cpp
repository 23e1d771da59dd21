#include "core/model/llm/engine_catalog.h"

#include <QStringList>
#include <QVersionNumber>

#include <algorithm>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// A name or version quoted in a message: a hostile file's megabyte of text must not make a megabyte of message.
constexpr qsizetype kMaxQuotedChars = 80;

bool answersTo(const EngineProfile& e, QStringView name)
{
    if (name.compare(e.id, Qt::CaseInsensitive) == 0)
        return true;
    return std::any_of(e.aliases.begin(), e.aliases.end(),
                       [&](const QString& alias) { return name.compare(alias, Qt::CaseInsensitive) == 0; });
}

// A built-in engine lives as long as the program: nothing to own.
std::shared_ptr<const EngineProfile> builtinProfile(const EngineProfile& e)
{
    return std::shared_ptr<const EngineProfile>(std::shared_ptr<const EngineProfile>(), &e);
}

}  // namespace

std::vector<EngineProfile> allEngines()
{
    return builtinEngines();
}

QString engineIds()
{
    QStringList ids;
    for (const EngineProfile& e : allEngines())
        ids << e.id;
    return ids.join(u", "_s);
}

EngineSelection genericEngine()
{
    return EngineSelection{builtinProfile(builtinEngines().front()), QString(), QString()};
}

Result<EngineSelection> selectEngine(QStringView spec)
{
    const qsizetype at = spec.indexOf(u'@');
    const QStringView name = (at < 0 ? spec : spec.left(at)).trimmed();
    const QString version = at < 0 ? QString() : spec.mid(at + 1).trimmed().toString();
    std::shared_ptr<const EngineProfile> found;
    for (const EngineProfile& e : builtinEngines())
        if (!found && answersTo(e, name))
            found = builtinProfile(e);
    if (!found)
        return makeError(Error::Code::InvalidArgument, u"no engine \""_s + name.left(kMaxQuotedChars).toString() +
                                                           u"\"; known: "_s + engineIds() +
                                                           u" (as NAME or NAME@VERSION)"_s);
    // "v0.6.3" as releases are tagged, "b4732" as llama.cpp numbers its builds.
    const bool prefixed =
        version.startsWith(u'v', Qt::CaseInsensitive) || version.startsWith(u'b', Qt::CaseInsensitive);
    const QString number = prefixed ? version.mid(1) : version;
    qsizetype suffix = 0;
    if (at >= 0 &&
        (number.isEmpty() || QVersionNumber::fromString(number, &suffix).isNull() || suffix != number.size()))
        return makeError(Error::Code::InvalidArgument,
                         u"engine "_s + found->id +
                             u": the version must be dotted numbers such as 0.6, v0.10.2 or "_s
                             u"b4732; got \""_s +
                             version.left(kMaxQuotedChars) + u'"');
    EngineSelection selection{found, version, QString()};
    if (!version.isEmpty())
        selection.fallbackNote = versionNote(*found, version, number);
    return selection;
}

}  // namespace ridgeline
