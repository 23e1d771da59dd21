#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include "core/session/format/session_json.h"
#include "core/session/session_compare.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace ridgeline::cli {

namespace {

constexpr int kRegression = kExitFailed;  // a regression leaves as a failed check does

// Enough digits to see a few per cent at any magnitude: 229.7, 41.25, 0.0812.
QString figure(double value)
{
    const double size = std::abs(value);
    if (size >= 100.0)
        return QString::number(value, 'f', 1);
    if (size >= 1.0)
        return QString::number(value, 'f', 2);
    return QString::number(value, 'g', 3);
}

QString side(const std::optional<ComparedSide>& compared)
{
    if (!compared)
        return QStringLiteral("-");
    QString text = figure(compared->value);
    if (compared->noisePercent())
        text += QStringLiteral(" (%1..%2)").arg(figure(compared->spread.min), figure(compared->spread.max));
    return text;
}

QString percent(double value)
{
    return QString::number(value, 'f', 1) + QStringLiteral(" %");
}

QString describe(const QString& path, const Session& session)
{
    return QStringLiteral("%1: %2, %3 CPUs, %4 run, %5")
        .arg(path, session.machine.cpuModel, QString::number(session.machine.cores),
             session.quick ? QStringLiteral("quick") : QStringLiteral("full"),
             session.created.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
}

void printTable(const SessionComparison& comparison, Streams io)
{
    std::optional<ComparisonSection> section;
    for (const ComparisonRow& row : comparison.rows) {
        if (row.section != section) {
            section = row.section;
            const QString title = row.section == ComparisonSection::Kernel
                                      ? QStringLiteral("kernels (%1)").arg(row.unit)
                                      : QStringLiteral("%1 ceilings (%2)").arg(sectionName(row.section), row.unit);
            io.out << '\n'
                   << title.leftJustified(30) << QStringLiteral("baseline (min..max)").leftJustified(26)
                   << QStringLiteral("new (min..max)").leftJustified(26) << QStringLiteral("change").rightJustified(9)
                   << QStringLiteral("noise").rightJustified(9) << "   verdict\n";
        }
        const bool both = row.baseline && row.candidate;
        QString verdict = verdictName(row.verdict);
        if (row.verdict == ComparisonVerdict::Regression || row.verdict == ComparisonVerdict::Improvement)
            verdict = verdict.toUpper();
        io.out << row.key.leftJustified(29) << ' ' << side(row.baseline).leftJustified(25) << ' '
               << side(row.candidate).leftJustified(25) << ' '
               << (both ? percent(row.changePercent) : QStringLiteral("-")).rightJustified(9)
               << (row.noisePercent ? percent(*row.noisePercent) : QStringLiteral("n/a")).rightJustified(9) << "   "
               << verdict << '\n';
    }
}

// One session as the comparison reads it. Its kernels are dropped as soon as their figures are taken, so that the
// second file is read beside the first one's figures rather than beside the whole first session.
struct Side {
    Session session;  // the machine and run the header describes; no kernels
    ComparedSession figures;
};

std::optional<Side> loadSide(const QString& path, Streams io)
{
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        io.err << "ridgeline compare: " << loaded.error().message << '\n';
        return std::nullopt;
    }
    Side side{std::move(loaded).value(), {}};
    side.figures = comparedSession(side.session);
    std::vector<KernelResult>().swap(side.session.kernels);
    return side;
}

}  // namespace

// `ridgeline compare BASELINE.json NEW.json [--threshold PERCENT] [--json]`: a regression check for CI.
int runCompare(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare two sessions per ceiling and per kernel: the change, each side's spread (min..max over its "
        "repetitions) and the noise (the larger (max - min) / median of the two). A change is a regression or an "
        "improvement only when it is at least the threshold and larger than the noise. Exit status: 1 when "
        "anything regressed, 0 when nothing did, 2 on bad input."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("compare"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("baseline"), QStringLiteral("the session to compare against"),
                                 QStringLiteral("BASELINE.json"));
    parser.addPositionalArgument(QStringLiteral("new"), QStringLiteral("the session to judge"),
                                 QStringLiteral("NEW.json"));
    const QCommandLineOption threshold(
        QStringLiteral("threshold"),
        QStringLiteral("smallest change that counts, in per cent (default %1)").arg(kDefaultCompareThresholdPercent),
        QStringLiteral("PERCENT"), QString::number(kDefaultCompareThresholdPercent));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print JSON instead of the table"));
    parser.addOptions({threshold, json});
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"compare", io))
        return *answered;
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.size() != 2) {
        io.err << "ridgeline compare: usage: ridgeline compare BASELINE.json NEW.json [--threshold PERCENT] "
                  "[--json]\n";
        return kExitBadInput;
    }
    QString typed = parser.value(threshold).trimmed();
    if (typed.endsWith(u'%'))
        typed.chop(1);
    bool ok = false;
    const double thresholdPercent = typed.toDouble(&ok);
    if (!ok || !std::isfinite(thresholdPercent) || thresholdPercent < 0.0 || thresholdPercent > 1000.0) {
        io.err << "ridgeline compare: --threshold takes a percentage from 0 to 1000, got '" << parser.value(threshold)
               << "'\n";
        return kExitBadInput;
    }
    std::optional<Side> baseline = loadSide(files[0], io);
    if (!baseline)
        return kExitBadInput;
    std::optional<Side> candidate = loadSide(files[1], io);
    if (!candidate)
        return kExitBadInput;

    const SessionComparison comparison = compareSessions(baseline->figures, candidate->figures, thresholdPercent);
    // The rows hold what is printed: the figures go before the output is written.
    baseline->figures = {};
    candidate->figures = {};
    if (parser.isSet(json)) {
        const QJsonObject sides{{QStringLiteral("baseline"), files[0]}, {QStringLiteral("new"), files[1]}};
        writeComparisonJson(comparison, sides, [&io](const QByteArray& text) { io.out << text; });
        return comparison.hasRegression() ? kRegression : kExitOk;
    }
    io.out << "baseline  " << describe(files[0], baseline->session) << '\n'
           << "new       " << describe(files[1], candidate->session) << '\n'
           << "A change counts when it is at least " << QString::number(thresholdPercent, 'g', 6)
           << " % and larger than the noise, the larger spread ((max - min) / median over the repetitions) of the "
              "two runs; n/a: no spread recorded, the threshold alone decides.\n";
    for (const QString& note : comparison.notes)
        io.out << "note: " << note << '\n';
    printTable(comparison, io);
    io.out << '\n'
           << comparison.count(ComparisonVerdict::Regression) << " regressed, "
           << comparison.count(ComparisonVerdict::Improvement) << " improved, "
           << comparison.count(ComparisonVerdict::WithinNoise) << " within noise, "
           << comparison.count(ComparisonVerdict::Unchanged) << " unchanged, "
           << comparison.count(ComparisonVerdict::OnlyInBaseline) << " only in the baseline, "
           << comparison.count(ComparisonVerdict::OnlyInNew) << " only in the new session\n";
    return comparison.hasRegression() ? kRegression : kExitOk;
}

}  // namespace ridgeline::cli
