#include "app/cli/command_line.h"
#include "app/cli/commands.h"
#include "core/session/measure_report.h"

#include "core/measure/engine.h"
#include "core/measure/run/repeatability.h"
#include "core/session/format/session_json.h"

#include <QCommandLineParser>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>

namespace ridgeline::cli {

namespace {

// Measures `runs` times and prints, per ceiling, each run's value and how far apart they are.
int runRepeated(const MeasureOptions& options, int runs, Streams io)
{
    std::vector<Session> sessions;
    for (int run = 0; run < runs; ++run) {
        Result<Session> result = measureMachine(options);
        if (!result) {
            io.err << "ridgeline measure: " << result.error().message << '\n';
            return kExitFailed;
        }
        sessions.push_back(std::move(result).value());
    }
    io.out << "ceiling                  unit     ";
    for (int run = 0; run < runs; ++run)
        io.out << QStringLiteral("run %1").arg(run + 1).rightJustified(10);
    io.out << "   max - min\n";
    double worst = 0.0;
    for (const CeilingAgreement& row : compareRuns(sessions)) {
        io.out << row.name.leftJustified(24) << ' ' << row.unit.leftJustified(8);
        for (double value : row.values)
            io.out << QString::number(value, 'f', 1).rightJustified(10);
        io.out << QString::number(100.0 * row.relativeDifference(), 'f', 1).rightJustified(10) << " %\n";
        worst = std::max(worst, row.relativeDifference());
    }
    io.out << "largest difference between runs: " << QString::number(100.0 * worst, 'f', 1) << " %\n";
    return 0;
}

// Each step from its announcement to the next one's (the last to `finished`), then the total.
void printStepTimings(const std::vector<std::pair<QString, std::chrono::steady_clock::time_point>>& starts,
                      std::chrono::steady_clock::time_point finished, std::chrono::steady_clock::time_point started,
                      Streams io)
{
    auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
    io.err << "step                                         seconds\n";
    if (!starts.empty())
        io.err << QStringLiteral("(probe)").leftJustified(44)
               << QString::number(seconds(started, starts.front().second), 'f', 3).rightJustified(9) << '\n';
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const auto end = i + 1 < starts.size() ? starts[i + 1].second : finished;
        io.err << starts[i].first.leftJustified(44)
               << QString::number(seconds(starts[i].second, end), 'f', 3).rightJustified(9) << '\n';
    }
    io.err << QStringLiteral("total").leftJustified(44)
           << QString::number(seconds(started, finished), 'f', 3).rightJustified(9) << '\n';
}

// The session as the table (or JSON), and into outPath when one is given.
int printAndSave(const Session& session, bool asJson, const QString& outPath, Streams io)
{
    if (asJson)
        io.out << sessionToJson(session);
    else
        printMeasureReport(session, io.out);
    if (!outPath.isEmpty()) {
        if (const auto error = saveSession(session, outPath)) {
            io.err << "ridgeline measure: " << error->message << '\n';
            return kExitFailed;
        }
        if (!asJson)
            io.out << "session written to " << outPath << '\n';
    }
    return 0;
}

}  // namespace

int runMeasure(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measure this machine's roofline and place real kernels on it."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("measure"), QStringLiteral("the command"));
    const QCommandLineOption quick(QStringLiteral("quick"),
                                   QStringLiteral("a few seconds: fewer sizes and repetitions"));
    const QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("threads to use (default: all CPUs)"),
                                     QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("write the session to FILE"),
                                 QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("print the session as JSON instead of the table"));
    const QCommandLineOption cancelAfter(QStringLiteral("cancel-after"),
                                         QStringLiteral("cancel after SECONDS and report how long cancelling took"),
                                         QStringLiteral("SECONDS"));
    const QCommandLineOption repeat(QStringLiteral("repeat"),
                                    QStringLiteral("measure N times and report how well the ceilings agree"),
                                    QStringLiteral("N"));
    const QCommandLineOption timings(QStringLiteral("timings"),
                                     QStringLiteral("print how long each step took (wall seconds) to stderr"));
    parser.addOptions({quick, threads, out, json, cancelAfter, repeat, timings});
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"measure", io))
        return *answered;

    MeasureOptions options;
    options.quick = parser.isSet(quick);
    bool threadsOk = false;
    options.threads = parser.value(threads).toInt(&threadsOk);
    if (!threadsOk) {
        io.err << "ridgeline measure: --threads takes a whole number, got '" << parser.value(threads) << "'\n";
        return kExitBadInput;
    }
    options.generator = QStringLiteral("ridgeline %1 %2")
                            .arg(QStringLiteral(RIDGELINE_VERSION), arguments.mid(1).join(QLatin1Char(' ')));
    std::optional<double> cancelSeconds;
    if (parser.isSet(cancelAfter))
        cancelSeconds = parser.value(cancelAfter).toDouble();

    if (parser.isSet(repeat)) {
        bool repeatOk = false;
        const int runs = parser.value(repeat).toInt(&repeatOk);
        if (!repeatOk || runs < 2 || runs > 20) {
            io.err << "ridgeline measure: --repeat takes a whole number from 2 to 20, got '" << parser.value(repeat)
                   << "'\n";
            return kExitBadInput;
        }
        return runRepeated(options, runs, io);
    }

    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    std::optional<Clock::time_point> cancelRequested;
    const bool interactive = isatty(STDERR_FILENO) != 0;
    QString lastStage;
    std::vector<std::pair<QString, Clock::time_point>> stageStarts;
    auto progress = [&](const MeasureProgress& p) {
        if (p.stage != lastStage) {
            lastStage = p.stage;
            stageStarts.emplace_back(p.stage, Clock::now());
            const QString line = QStringLiteral("[%1/%2] %3").arg(p.done + 1).arg(p.total).arg(p.stage);
            if (interactive)
                io.err << "\r\x1b[K" << line << Qt::flush;
        }
        if (cancelSeconds && std::chrono::duration<double>(Clock::now() - started).count() >= *cancelSeconds) {
            if (!cancelRequested)
                cancelRequested = Clock::now();
            return false;
        }
        return true;
    };

    const Result<Session> result = measureMachine(options, progress);
    if (interactive)
        io.err << "\r\x1b[K" << Qt::flush;
    if (parser.isSet(timings))
        printStepTimings(stageStarts, Clock::now(), started, io);
    if (cancelRequested) {
        const double latencyMs = std::chrono::duration<double, std::milli>(Clock::now() - *cancelRequested).count();
        io.out << "cancelled during \"" << lastStage << "\"; returned " << QString::number(latencyMs, 'f', 1)
               << " ms after the request\n";
        return result.ok() ? 0 : 3;
    }
    if (!result) {
        io.err << "ridgeline measure: " << result.error().message << '\n';
        return kExitFailed;
    }
    return printAndSave(result.value(), parser.isSet(json), parser.value(out), io);
}

}  // namespace ridgeline::cli
