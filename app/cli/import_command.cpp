#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include "core/bench/bench_importer.h"
#include "core/import/import_session.h"
#include "core/import/import_summary.h"
#include "core/import/importer.h"
#include "core/import/kernel/import_device.h"
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/session/format/session_json.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <optional>
#include <vector>

namespace ridgeline::cli {

// `ridgeline import FILE... [--into SESSION.json] --out NEW.json [--format ...] [--device ID]`: profiler output
// into a session. All or nothing: any bad file writes nothing, and --into is only ever read. GPU kernels whose file
// names no catalog GPU take --device's; without it they are kept without a roof, and said so.
int runImport(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Import kernels (Nsight Compute CSV, likwid-perfctr output, plain name,flops,bytes,seconds CSV) or ceilings "
        "(ERT roofline.json, rocprof-compute roofline.csv) into a new session, or into a copy of an existing one. "
        "likwid files with a group each of one program's run are read as one run. GPU kernels are drawn on their "
        "GPU's catalog roofline (DRAM, L2, L1), never this CPU's: the GPU comes from the file's device name, else "
        "from --device. likwid kernels of a CPU other than --into's make a session of that CPU (its datasheet roofs "
        "when Ridgeline knows it, else none), and ceilings always make their own: files that need more than one "
        "session are refused with where each would go."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("import"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("files to import"), QStringLiteral("FILE..."));
    const QCommandLineOption into(QStringLiteral("into"),
                                  QStringLiteral("start from a copy of this session (it is not modified)"),
                                  QStringLiteral("SESSION.json"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("the session file to write"),
                                 QStringLiteral("NEW.json"));
    const QCommandLineOption format(
        QStringLiteral("format"),
        QStringLiteral("auto (default), ncu, ert, likwid, rocprof or csv; applies to every file"),
        QStringLiteral("FORMAT"), QStringLiteral("auto"));
    const QCommandLineOption device(
        QStringLiteral("device"),
        QStringLiteral("the catalog GPU (ridgeline catalog gpus) that GPU kernels ran on when their file names none "
                       "or one the catalog lacks; a GPU the file names and the catalog knows is kept"),
        QStringLiteral("ID"));
    parser.addOptions({into, out, format, device});
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"import", io))
        return *answered;
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty() || !parser.isSet(out) || parser.value(out).isEmpty()) {
        io.err << "ridgeline import: usage: ridgeline import FILE... [--into SESSION.json] --out NEW.json "
                  "[--format auto|ncu|ert|likwid|rocprof|csv] [--device ID]\n";
        return kExitBadInput;
    }
    const auto chosen = formatFromName(parser.value(format));
    if (!chosen.ok()) {
        io.err << "ridgeline import: --format: " << chosen.error().message << '\n';
        return kExitBadInput;
    }

    std::optional<GpuSpec> gpu;
    if (parser.isSet(device)) {
        const Result<GpuSpec> found = findGpu(parser.value(device));
        if (!found) {
            io.err << "ridgeline import: --device: " << found.error().message << '\n';
            return kExitBadInput;
        }
        gpu = found.value();
    }

    std::optional<Session> base;
    if (parser.isSet(into)) {
        auto loaded = loadSession(parser.value(into));
        if (!loaded.ok()) {
            io.err << "ridgeline import: " << loaded.error().message << '\n';
            return kExitFailed;
        }
        base = std::move(loaded).value();
    }
    auto imported = importFiles(files, chosen.value());
    if (!imported.ok()) {
        io.err << "ridgeline import: " << imported.error().message << "\nnothing was written\n";
        // A serving engine's benchmark result is no profile: say where it goes.
        for (const QString& file : files)
            if (const std::optional<BenchFormat> bench = benchFormatOfFile(file))
                io.err << QFileInfo(file).fileName() << " is a " << describeBenchFormat(*bench)
                       << ": fit the LLM model to it with `ridgeline calibrate` (in the window: File > Calibrate the "
                          "Model on Benchmark Results…)\n";
        return kExitFailed;
    }
    std::vector<ImportResult> imports = std::move(imported).value();
    if (gpu && assignGpu(imports, *gpu, QStringLiteral("--device")) == 0)
        io.out << "note: --device " << gpu->id << " was not needed: no GPU kernel lacks a catalog GPU\n";
    PlacedImports placed = placeImportsMovingKernels(base, imports);
    if (placed.sessions.size() != 1) {
        // One file holds one session: writing them merged would hold kernels to another machine's roofs.
        io.err << "ridgeline import: " << oneSessionRefusal(imports, placed)
               << "\nimport each group on its own (one --out each), or open them together in the window, which "
                  "shows the extra sessions as overlays\nnothing was written\n";
        return kExitBadInput;
    }
    const Session& session = placed.sessions.front();
    for (std::size_t i = 0; i < imports.size(); ++i)
        for (const QString& line :
             importSummaryLines(imports[i], placed.kernelsOf(i), placed.into.value(static_cast<qsizetype>(i))))
            io.out << line << '\n';
    if (const auto error = saveSession(session, parser.value(out))) {
        io.err << "ridgeline import: " << error->message << '\n';
        return kExitFailed;
    }
    const std::size_t kept = base ? base->kernels.size() : 0;
    io.out << "wrote " << parser.value(out) << ": " << session.kernels.size() << " kernels ("
           << (session.kernels.size() - kept) << " imported"
           << (base ? QStringLiteral(", %1 from %2").arg(kept).arg(parser.value(into)) : QString()) << ")\n";
    return 0;
}

}  // namespace ridgeline::cli
