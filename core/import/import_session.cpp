#include "core/import/import_session.h"

#include <QDateTime>
#include <QStringList>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

Result<Session> sessionWithImports(const std::optional<Session>& base, const std::vector<ImportResult>& imports)
{
    Session session;
    QStringList names;
    for (const ImportResult& import : imports)
        names.append(import.fileName);
    if (base) {
        session = *base;
    } else {
        session.title = u"Imported from "_s + names.join(u", "_s);
        session.created = QDateTime::currentDateTimeUtc();
        session.generator = u"ridgeline import"_s;
        session.machine.cpuModel = u"not measured (imported: "_s + names.join(u", "_s) + u')';
        session.machine.cores = 1;  // a session names at least one CPU; nothing was measured here
    }
    const ImportResult* ceilings = nullptr;
    for (const ImportResult& import : imports) {
        if (!import.hasCeilings())
            continue;
        if (ceilings)
            return makeError(Error::Code::InvalidArgument, import.fileName + u": a second set of ceilings (after "_s +
                                                               ceilings->fileName +
                                                               u"); one session holds the ceilings of one machine"_s);
        if (!session.computeCeilings.empty() || !session.bandwidthCeilings.empty())
            return makeError(Error::Code::InvalidArgument,
                             import.fileName +
                                 u": ceilings of another machine cannot join a session that has "
                                 "its own; import them into a new session"_s);
        ceilings = &import;
    }
    if (ceilings) {
        session.computeCeilings = ceilings->computeCeilings;
        session.bandwidthCeilings = ceilings->bandwidthCeilings;
        session.machine.cpuModel = ceilings->machineName;
        if (!base)
            session.title = ceilings->machineName;
    }
    for (const ImportResult& import : imports)
        session.kernels.insert(session.kernels.end(), import.kernels.cbegin(), import.kernels.cend());
    return session;
}

}  // namespace ridgeline
