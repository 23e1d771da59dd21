#include "core/bench/calibration/calibration_engine.h"

#include "core/bench/calibration/calibration_record_builder.h"

#include <QSet>
#include <QStringList>

namespace ridgeline {

namespace {

QString percent(double share)
{
    return QString::number(share * 100.0, 'f', 1) + QStringLiteral(" %");
}

// "3 runs of llama-3.1-8b on h100-sxm (sweep.json, tg.json), 2026-12-06": what the profile rests on.
QString runsText(const Calibration& c)
{
    QStringList files, setups;
    for (const CalibrationPoint& p : c.points) {
        if (!files.contains(p.file))
            files << p.file;
        const QString setup = QStringLiteral("%1 on %2").arg(p.model, p.gpu);
        if (!setups.contains(setup))
            setups << setup;
    }
    return QStringLiteral("%1 %2 of %3 (%4), %5")
        .arg(c.points.size())
        .arg(c.points.size() == 1 ? QStringLiteral("run") : QStringLiteral("runs"), setups.join(QStringLiteral(", ")),
             files.join(QStringLiteral(", ")), c.created.toUTC().date().toString(Qt::ISODate));
}

}  // namespace

Result<EngineProfile> engineFromCalibration(const Calibration& calibration, const QString& id)
{
    const Result<EngineTerms> fitted = fittedTerms(calibration);
    if (!fitted)
        return fitted.error();
    const QString runs = runsText(calibration);
    const QString source = QStringLiteral("your calibration (%1): fitted to %2; median |error| %3 before, %4 after")
                               .arg(calibration.generator, runs, percent(calibration.before.medianAbs),
                                    percent(calibration.after.medianAbs));
    EngineProfile engine;
    engine.id = id;
    engine.name = id;
    engine.coverage = QStringLiteral("your calibration: %1; on every card").arg(runs);
    const EngineTerms measured = EngineTerms::measured();
    for (const EngineTerm& term : allTerms())
        if (termValue(fitted.value(), term) != termValue(measured, term))
            engine.overrides.push_back(TermOverride{term, termValue(fitted.value(), term), std::nullopt, source});
    return engine;
}

}  // namespace ridgeline
