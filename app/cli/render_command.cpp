#include "app/cli/command_line.h"
#include "app/cli/commands.h"
#include "app/cli/render_deck.h"

#include "core/model/catalog/gpu_roofs.h"
#include "core/physical_limits.h"
#include "core/save_file.h"
#include "core/session/format/session_json.h"
#include "ui/chart/chart_export.h"

#include <QCommandLineParser>

#include <utility>

namespace ridgeline::cli {

namespace {

// The --roof NAME:TFLOPS:TBS and --gpu ID roofs drawn beside the sessions; the first bad one's message, or "".
QString addExtraRoofs(const QStringList& roofSpecs, const QStringList& gpuIds, const QString& gpuFormat,
                      std::vector<NamedRoof>* roofs)
{
    for (const QString& spec : roofSpecs) {
        const QStringList parts = spec.split(QLatin1Char(':'));
        bool peakOk = false;
        bool bandwidthOk = false;
        const double tflops = parts.value(1).toDouble(&peakOk);
        const double tbs = parts.value(2).toDouble(&bandwidthOk);
        if (parts.size() != 3 || !peakOk || !bandwidthOk || tflops <= 0.0 || tbs <= 0.0)
            return QStringLiteral("--roof takes NAME:TFLOPS:TBS, got '%1'").arg(spec);
        // The physical rule of every roof, so that its ridge and the chart's axes stay finite.
        if (const auto bad = physicalProblem(PhysicalQuantity::ComputeGflops, tflops, 1000.0, u"TFLOP/s"))
            return QStringLiteral("--roof '%1': the peak %2").arg(spec, *bad);
        if (const auto bad = physicalProblem(PhysicalQuantity::BandwidthGbps, tbs, 1000.0, u"TB/s"))
            return QStringLiteral("--roof '%1': the bandwidth %2").arg(spec, *bad);
        roofs->push_back(NamedRoof{parts[0], Roof{tflops * 1000.0, tbs * 1000.0}});
    }
    const std::optional<NumberFormat> format = parseNumberFormat(gpuFormat);
    if (!format)
        return QStringLiteral("unknown --gpu-format '%1'").arg(gpuFormat);
    for (const QString& id : gpuIds) {
        Result<NamedRoof> gpuRoof = catalogGpuRoof(id, *format);
        if (!gpuRoof)
            return gpuRoof.error().message;
        roofs->push_back(gpuRoof.value());
    }
    return {};
}

// Loads every session (the first is primary) and writes the chart of them to outPath.
int renderSessions(const QStringList& files, ui::ChartContent content, const QString& outPath, QSize pixels,
                   double ratio, const QString& layoutPath, Streams io)
{
    for (const QString& file : files) {
        Result<Session> session = loadSession(file);
        if (!session) {
            io.err << "ridgeline render: " << session.error().message << '\n';
            return kExitFailed;
        }
        content.sessions.push_back(std::move(session).value());
    }
    ui::ChartLayout layout;
    if (auto error =
            ui::exportChart(std::move(content), outPath, pixels, ratio, layoutPath.isEmpty() ? nullptr : &layout)) {
        io.err << "ridgeline render: " << error->message << '\n';
        return kExitFailed;
    }
    io.out << "wrote " << outPath << '\n';
    if (layoutPath.isEmpty())
        return 0;
    if (auto error = saveFile(layoutPath, ui::chartLayoutJson(&layout))) {
        io.err << "ridgeline render: " << error->message << '\n';
        return kExitFailed;
    }
    io.out << "wrote " << layoutPath << '\n';
    return 0;
}

}  // namespace

// `ridgeline render SESSION.json --out FILE.{png,svg,pdf,csv}`: the window's chart without a window.
// main() gives this command a QApplication on the offscreen platform when there is no display.
int runRender(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Render a session's roofline chart to PNG, SVG, PDF or CSV."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("render"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("session"), QStringLiteral("session files (the first is primary)"),
                                 QStringLiteral("SESSION.json..."));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("output file; the suffix picks the format"),
                                 QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("WIDTHxHEIGHT in pixels (default 1920x1080)"),
                                  QStringLiteral("WxH"), QStringLiteral("1920x1080"));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light or dark (default light)"),
                                   QStringLiteral("THEME"), QStringLiteral("light"));
    const QCommandLineOption dpr(QStringLiteral("dpr"), QStringLiteral("PNG device pixel ratio (default 1)"),
                                 QStringLiteral("RATIO"), QStringLiteral("1"));
    const QCommandLineOption shade(QStringLiteral("shade"), QStringLiteral("shade memory- and compute-bound regions"));
    const QCommandLineOption iso(QStringLiteral("iso"), QStringLiteral("draw 50 % and 80 % iso-efficiency lines"));
    const QCommandLineOption roof(QStringLiteral("roof"),
                                  QStringLiteral("add a named roof NAME:TFLOPS:TBS, e.g. \"A100:19.5:1.555\""),
                                  QStringLiteral("ROOF"));
    const QCommandLineOption gpu(
        QStringLiteral("gpu"),
        QStringLiteral("draw a catalog GPU's roofline beside the CPU (see `ridgeline catalog gpus`)"),
        QStringLiteral("ID"));
    const QCommandLineOption gpuFormat(
        QStringLiteral("gpu-format"),
        QStringLiteral("number format of the GPU peaks: fp32, tf32, bf16, fp16, fp8, int8 "
                       "(default bf16)"),
        QStringLiteral("FORMAT"), QStringLiteral("bf16"));
    const QCommandLineOption deck(
        QStringLiteral("deck"),
        QStringLiteral("render a talk deck instead, one page or file per scene (\"default\": the built-in deck); "
                       "the session positional gives the measured scenes their numbers"),
        QStringLiteral("DECK.json"));
    const QCommandLineOption deckFormat(QStringLiteral("format"),
                                        QStringLiteral("with --deck and --out DIR/: png or svg (default png)"),
                                        QStringLiteral("FORMAT"));
    const QCommandLineOption layoutJson(
        QStringLiteral("layout-json"),
        QStringLiteral("also write where every text, dot, line, legend and note is drawn, in pixels of the picture, "
                       "as JSON (with --deck: a directory, one file per scene)"),
        QStringLiteral("FILE"));
    const QCommandLineOption allNames(
        QStringLiteral("all-names"),
        QStringLiteral("name every kernel where it has room, not only the points that matter (up to 150 names)"));
    parser.addOptions(
        {out, size, theme, dpr, shade, iso, allNames, roof, gpu, gpuFormat, deck, deckFormat, layoutJson});
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"render", io))
        return *answered;
    const QStringList files = parser.positionalArguments().mid(1);
    if (parser.isSet(deck)) {
        const QSize deckPixels = ui::parseSize(parser.value(size));
        if (!parser.isSet(out) || !deckPixels.isValid() || files.size() > 1) {
            io.err << "ridgeline render: usage: ridgeline render --deck DECK.json [SESSION.json] --out talk.pdf|DIR/ "
                      "[--format png|svg] [--size 1920x1080] [--theme talk|dark|light]\n";
            return kExitBadInput;
        }
        // A talk renders in the talk look unless a theme is asked for.
        const QString deckTheme = parser.isSet(theme) ? parser.value(theme) : QStringLiteral("talk");
        return renderDeck(parser.value(deck), files.value(0), parser.value(out), parser.value(deckFormat), deckPixels,
                          deckTheme, parser.value(layoutJson), io.out, io.err);
    }
    if (files.isEmpty() || !parser.isSet(out)) {
        io.err << "ridgeline render: usage: ridgeline render SESSION.json... --out FILE.{png,svg,pdf,csv}\n";
        return kExitBadInput;
    }
    const QSize pixels = ui::parseSize(parser.value(size));
    if (!pixels.isValid()) {
        io.err << "ridgeline render: --size takes WIDTHxHEIGHT, e.g. 1920x1080, got '" << parser.value(size) << "'\n";
        return kExitBadInput;
    }
    ui::ChartContent content;
    if (!ui::parseThemeKind(parser.value(theme), &content.options.theme)) {
        io.err << "ridgeline render: --theme is light or dark, got '" << parser.value(theme) << "'\n";
        return kExitBadInput;
    }
    bool dprOk = false;
    const double ratio = parser.value(dpr).toDouble(&dprOk);
    if (!dprOk) {
        io.err << "ridgeline render: --dpr takes a number, got '" << parser.value(dpr) << "'\n";
        return kExitBadInput;
    }
    content.options.shadeRegions = parser.isSet(shade);
    content.options.isoEfficiency = parser.isSet(iso);
    content.options.allKernelNames = parser.isSet(allNames);
    if (const QString error =
            addExtraRoofs(parser.values(roof), parser.values(gpu), parser.value(gpuFormat), &content.extraRoofs);
        !error.isEmpty()) {
        io.err << "ridgeline render: " << error << '\n';
        return kExitBadInput;
    }
    return renderSessions(files, std::move(content), parser.value(out), pixels, ratio, parser.value(layoutJson), io);
}

}  // namespace ridgeline::cli
