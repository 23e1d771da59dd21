#include "core/import/import_session.h"

#include "core/import/kernel/known_cpus.h"

#include <QDateTime>

#include <algorithm>
#include <iterator>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

enum class Home {
    Base,      // the base, or the new session of kernels that name no machine
    Cpu,       // the session of the CPU likwid named
    Ceilings,  // a session of the file's own ceilings
};

Home homeOf(const ImportResult& import, const std::optional<Session>& base)
{
    if (import.hasCeilings())
        return Home::Ceilings;
    if (import.cpuName.isEmpty() || (base && sameCpuName(import.cpuName, base->machine.cpuModel)))
        return Home::Base;
    return Home::Cpu;
}

Session newSession(const QString& title, const QString& cpuModel)
{
    Session session;
    session.title = title;
    session.created = QDateTime::currentDateTimeUtc();
    session.generator = u"ridgeline import"_s;
    session.machine.cpuModel = cpuModel;
    session.machine.cores = 1;  // a session names at least one CPU; nothing was measured here
    return session;
}

QString quoted(const QString& text)
{
    return u'"' + text + u'"';
}

QString titleOf(const Session& session)
{
    return session.title.isEmpty() ? session.machine.cpuModel : session.title;
}

// Where an import that joined the first session went, and why.
QString intoFirst(const ImportResult& import, const std::optional<Session>& base, const Session& first)
{
    if (!base)
        return u"a new session "_s + quoted(titleOf(first)) + u" of the kernels that name no machine"_s;
    const QString session = u"the session imported into, "_s + quoted(titleOf(first));
    if (!import.cpuName.isEmpty())
        return session + u": measured on its CPU (" + import.cpuName + u"), so held to its roofs";
    if (import.format == ImportFormat::Likwid)
        return session + u": the file names no CPU, so its kernels are held to that session's roofs";
    return session;
}

QString intoCpu(const Session& cpuSession, const std::optional<Session>& base)
{
    const QString session = u"a session of its own CPU, "_s + quoted(cpuSession.machine.cpuModel);
    const QString notThis = base ? u", not "_s + quoted(titleOf(*base)) + u"'s" : QString();
    if (const std::optional<KnownCpu> cpu = knownCpu(cpuSession.machine.cpuModel))
        return session + u", with the roofs of "_s + cpu->name +
               u" from the table of known CPUs (one socket at base "
               "clock)"_s +
               notThis;
    return session + u", without roofs: no roofs known for "_s + cpuSession.machine.cpuModel + notThis;
}

Session ceilingsSession(const ImportResult& import)
{
    Session session = newSession(import.machineName, import.machineName);
    session.computeCeilings = import.computeCeilings;
    session.bandwidthCeilings = import.bandwidthCeilings;
    return session;
}

// The placement, the kernels copied from `imports` or, when `movable` is the same vector, moved out of it.
PlacedImports place(const std::optional<Session>& base, const std::vector<ImportResult>& imports,
                    std::vector<ImportResult>* movable)
{
    PlacedImports placed;
    std::vector<Home> homes;
    QStringList firstNames;  // the files whose kernels name no machine, for a new session's title
    for (const ImportResult& import : imports) {
        homes.push_back(homeOf(import, base));
        if (homes.back() == Home::Base)
            firstNames.append(import.fileName);
    }
    if (base) {
        placed.sessions.push_back(*base);
        placed.firstIsBase = true;
    } else if (!firstNames.isEmpty()) {
        placed.sessions.push_back(newSession(u"Imported from "_s + firstNames.join(u", "_s),
                                             u"not measured (imported: "_s + firstNames.join(u", "_s) + u')'));
    }
    std::vector<std::pair<QString, int>> cpus;  // normalised CPU name, its session
    for (std::size_t i = 0; i < imports.size(); ++i) {
        const ImportResult& import = imports[i];
        int index = 0;
        if (homes[i] == Home::Ceilings) {
            index = static_cast<int>(placed.sessions.size());
            placed.sessions.push_back(ceilingsSession(import));
            placed.into.append(u"a session of its own ceilings, "_s + quoted(import.machineName) +
                               u" (ceilings of another machine never join a session)"_s);
        } else if (homes[i] == Home::Cpu) {
            const QString key = normalizedCpuName(import.cpuName);
            const auto found = std::find_if(cpus.begin(), cpus.end(), [&](const auto& c) { return c.first == key; });
            if (found != cpus.end()) {
                index = found->second;
            } else {
                index = static_cast<int>(placed.sessions.size());
                placed.sessions.push_back(withKnownCpuRoofs(newSession(import.cpuName, import.cpuName)));
                cpus.emplace_back(key, index);
            }
            placed.into.append(intoCpu(placed.sessions[static_cast<std::size_t>(index)], base));
        } else {
            placed.into.append(intoFirst(import, base, placed.sessions.front()));
        }
        placed.sessionOf.push_back(index);
        Session& session = placed.sessions[static_cast<std::size_t>(index)];
        placed.kernelsAt.emplace_back(session.kernels.size(), import.kernels.size());
        if (movable) {
            // Into a session without kernels the import's table itself moves: moving the kernels one by one would
            // hold two tables at once.
            std::vector<KernelResult>& kernels = (*movable)[i].kernels;
            if (session.kernels.empty())
                session.kernels.swap(kernels);
            else
                session.kernels.insert(session.kernels.end(), std::make_move_iterator(kernels.begin()),
                                       std::make_move_iterator(kernels.end()));
            kernels = {};
        } else {
            session.kernels.insert(session.kernels.end(), import.kernels.cbegin(), import.kernels.cend());
        }
    }
    return placed;
}

}  // namespace

std::span<const KernelResult> PlacedImports::kernelsOf(std::size_t i) const
{
    const auto [first, count] = kernelsAt[i];
    return std::span<const KernelResult>(sessions[static_cast<std::size_t>(sessionOf[i])].kernels)
        .subspan(first, count);
}

PlacedImports placeImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports)
{
    return place(base, imports, nullptr);
}

PlacedImports placeImportsMovingKernels(const std::optional<Session>& base, std::vector<ImportResult>& imports)
{
    return place(base, imports, &imports);
}

QString oneSessionRefusal(const std::vector<ImportResult>& imports, const PlacedImports& placed)
{
    QString text = u"the imports need "_s + QString::number(placed.sessions.size()) +
                   u" sessions, not one: kernels are held only to the roofs of the machine they ran on, and "
                   "ceilings never join another machine's session"_s;
    for (std::size_t i = 0; i < imports.size() && i < static_cast<std::size_t>(placed.into.size()); ++i)
        text += u"\n  "_s + imports[i].fileName + u" -> "_s + placed.into[static_cast<qsizetype>(i)];
    const bool baseJoined = std::find(placed.sessionOf.begin(), placed.sessionOf.end(), 0) != placed.sessionOf.end();
    if (placed.firstIsBase && !baseJoined && !placed.sessions.empty())
        text += u"\n  nothing joins the session imported into, "_s + quoted(titleOf(placed.sessions.front()));
    return text;
}

Result<Session> sessionWithImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports)
{
    PlacedImports placed = placeImports(base, imports);
    if (placed.sessions.size() == 1)
        return std::move(placed.sessions.front());
    if (placed.sessions.empty())
        return makeError(Error::Code::InvalidArgument, u"nothing to import"_s);
    return makeError(Error::Code::InvalidArgument, oneSessionRefusal(imports, placed));
}

}  // namespace ridgeline
