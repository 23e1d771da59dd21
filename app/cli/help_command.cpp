// `ridgeline help`: the commands, one command's --help, or the manual page. Its own unit so that the manual page,
// which runs every command's --help through commands.h, and the command table depend on each other in one direction.
#include "app/cli/command_line.h"
#include "app/cli/commands.h"
#include "app/cli/man_page.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>

namespace ridgeline::cli {

namespace {

// The man page's date: SOURCE_DATE_EPOCH when the build sets it (reproducible builds), else today, in UTC.
QString manPageDate()
{
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    const QDateTime when =
        ok ? QDateTime::fromSecsSinceEpoch(epoch, QTimeZone::utc()) : QDateTime::currentDateTimeUtc();
    return when.date().toString(Qt::ISODate);
}

}  // namespace

// `ridgeline help` lists the commands; `ridgeline help COMMAND` is `ridgeline COMMAND --help`;
// `ridgeline help --man` prints the manual page.
int runHelp(const QStringList& arguments, Streams io)
{
    const QString topic = arguments.value(2);
    if (topic == QLatin1String("--man")) {
        io.out << manPage(QStringLiteral(RIDGELINE_VERSION), manPageDate());
        return 0;
    }
    if (topic.isEmpty() || topic == QLatin1String("help") || isHelpOption(topic)) {
        printUsage(io.out);
        return 0;
    }
    const std::vector<CommandSummary> commands = commandSummaries();
    if (std::none_of(commands.begin(), commands.end(), [&](const CommandSummary& c) { return c.name == topic; })) {
        io.err << "ridgeline help: unknown command '" << topic << "'\n\n";
        printUsage(io.err);
        return kExitBadInput;
    }
    return run({arguments.value(0), topic, QStringLiteral("--help")}, io);
}

}  // namespace ridgeline::cli
