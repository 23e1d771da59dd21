#include "app/cli/commands.h"

#include "core/import/import_session.h"
#include "core/import/importer.h"
#include "core/session/session_json.h"

#include <QCommandLineParser>

#include <optional>
#include <vector>

namespace ridgeline::cli {

namespace {

QString number(double value) { return QString::number(value, 'g', 4); }

void printImport(const ImportResult& import, Streams io)
{
    io.out << import.fileName << " (" << formatName(import.format) << "): ";
    if (import.hasCeilings())
        io.out << import.computeCeilings.size() << " compute and " << import.bandwidthCeilings.size()
               << " bandwidth ceilings for " << import.machineName << ", ";
    io.out << import.kernels.size() << (import.kernels.size() == 1 ? " kernel" : " kernels") << ", "
           << import.skipped.size() << " skipped\n";
    for (const ComputeCeiling& ceiling : import.computeCeilings)
        io.out << "  ceiling  " << ceiling.name << ": " << number(ceiling.gflops) << " GFLOP/s\n";
    for (const BandwidthCeiling& ceiling : import.bandwidthCeilings)
        io.out << "  ceiling  " << ceiling.level << ": " << number(ceiling.gbps) << " GB/s\n";
    for (const KernelResult& kernel : import.kernels) {
        io.out << "  kernel   " << kernel.name;
        if (!kernel.group.isEmpty())
            io.out << " [" << kernel.group << ']';
        io.out << ": " << number(kernel.gflops) << " GFLOP/s, " << number(kernel.intensity) << " FLOP/byte";
        if (!kernel.level.isEmpty())
            io.out << " (" << kernel.level << ')';
        for (const LevelPoint& point : kernel.levels)
            io.out << ", " << number(point.intensity) << " (" << point.level << ')';
        io.out << ", " << number(kernel.seconds * 1e6) << " us";
        if (kernel.tensorFlopsCounted)
            io.out << ", tensor FLOPs counted";
        io.out << '\n';
    }
    for (const SkippedRow& row : import.skipped) {
        io.out << "  skipped  ";
        if (row.line > 0)
            io.out << "line " << row.line << ' ';
        if (!row.what.isEmpty())
            io.out << row.what << ' ';
        io.out << "- " << row.reason << '\n';
    }
    for (const QString& note : import.notes)
        io.out << "  note     " << note << '\n';
}

}  // namespace

// `ridgeline import FILE... [--into SESSION.json] --out NEW.json [--format ...]`: profiler output into a
// session. All or nothing: any bad file writes nothing, and --into is only ever read.
int runImport(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Import kernels (Nsight Compute CSV, likwid-perfctr CSV, plain name,flops,bytes,seconds CSV) or ceilings "
        "(ERT roofline.json) into a new session, or into a copy of an existing one."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("import"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("files to import"), QStringLiteral("FILE..."));
    const QCommandLineOption into(QStringLiteral("into"),
                                  QStringLiteral("start from a copy of this session (it is not modified)"),
                                  QStringLiteral("SESSION.json"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("the session file to write"),
                                 QStringLiteral("NEW.json"));
    const QCommandLineOption format(QStringLiteral("format"),
                                    QStringLiteral("auto (default), ncu, ert, likwid or csv; applies to every file"),
                                    QStringLiteral("FORMAT"), QStringLiteral("auto"));
    parser.addOptions({into, out, format});
    if (!parser.parse(arguments)) {
        io.err << "ridgeline import: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        io.out << parser.helpText();
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() || !parser.isSet(out) || parser.value(out).isEmpty()) {
        io.err << "ridgeline import: usage: ridgeline import FILE... [--into SESSION.json] --out NEW.json "
                  "[--format auto|ncu|ert|likwid|csv]\n";
        return 2;
    }
    const auto chosen = formatFromName(parser.value(format));
    if (!chosen.ok()) {
        io.err << "ridgeline import: --format: " << chosen.error().message << '\n';
        return 2;
    }

    std::optional<Session> base;
    if (parser.isSet(into)) {
        auto loaded = loadSession(parser.value(into));
        if (!loaded.ok()) {
            io.err << "ridgeline import: " << loaded.error().message << '\n';
            return 1;
        }
        base = std::move(loaded).value();
    }
    std::vector<ImportResult> imports;
    for (const QString& file : files) {
        auto imported = importFile(file, chosen.value());
        if (!imported.ok()) {
            io.err << "ridgeline import: " << imported.error().message << "\nnothing was written\n";
            return 1;
        }
        imports.push_back(std::move(imported).value());
    }
    const auto session = sessionWithImports(base, imports);
    if (!session.ok()) {
        io.err << "ridgeline import: " << session.error().message << "\nnothing was written\n";
        return 1;
    }
    for (const ImportResult& import : imports)
        printImport(import, io);
    if (const auto error = saveSession(session.value(), parser.value(out))) {
        io.err << "ridgeline import: " << error->message << '\n';
        return 1;
    }
    const std::size_t kept = base ? base->kernels.size() : 0;
    io.out << "wrote " << parser.value(out) << ": " << session.value().kernels.size() << " kernels ("
           << (session.value().kernels.size() - kept) << " imported"
           << (base ? QStringLiteral(", %1 from %2").arg(kept).arg(parser.value(into)) : QString()) << ")\n";
    return 0;
}

}  // namespace ridgeline::cli
