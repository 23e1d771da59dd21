// `ridgeline catalog gpus|models [--json]`: the built-in catalogs, with the figures computed from them. The GPUs'
// JSON is a GPU catalog file; the models' JSON lists the computed figures (parameters, KV bytes) beside the shapes.
#include "app/cli/catalog_engines.h"
#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/catalog_json.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/inference_config_check.h"
#include "core/model/units.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace ridgeline::cli {

namespace {

std::int64_t kvBytesPerTokenBf16(const ModelSpec& m)
{
    const std::int64_t values = m.isMla() ? std::int64_t{m.kvLoraRank} + m.qkRopeHeadDim : 2LL * m.kvHeads * m.headDim;
    return values * m.layers * 2;
}

QString attentionKind(const ModelSpec& m)
{
    if (m.isMla())
        return QStringLiteral("MLA");
    if (m.kvHeads == m.heads)
        return QStringLiteral("MHA");
    return m.kvHeads == 1 ? QStringLiteral("MQA") : QStringLiteral("GQA");
}

// The entries to list: the bundled ones and the user's, or (mine) the user's alone.
template <typename Spec>
std::vector<Spec> listed(const Result<std::vector<Spec>>& bundled, const std::vector<Spec>& user, bool mine)
{
    std::vector<Spec> specs = mine ? std::vector<Spec>() : bundled.value();
    specs.insert(specs.end(), user.begin(), user.end());
    return specs;
}

// "*" after a user's own id in the tables, and the footer saying where they come from.
QString marked(const QString& id, bool user)
{
    return user ? id + QLatin1Char('*') : id;
}

void printUserFooter(Streams io, qsizetype count, const QString& path)
{
    if (count > 0)
        io.out << "* yours: " << path << '\n';
    else
        io.out << "Your own entries would come from " << path << " (none there).\n";
}

int printGpus(Streams io, bool json, bool mine)
{
    const Result<std::vector<GpuSpec>>& bundled = builtinGpus();
    if (!bundled) {
        io.err << "ridgeline catalog: " << bundled.error().message << '\n';
        return kExitFailed;
    }
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    const std::vector<GpuSpec> gpus = listed(bundled, user->gpus, mine);
    if (json) {  // a catalog file: what the catalog reader reads (a user's own catalog can start from --mine's)
        io.out << gpuCatalogToJson(gpus);
        return 0;
    }
    io.out << "GPUs (dense peaks, never with sparsity; TB/s = 1e12 B/s; memory in GiB = 2^30 B)\n\n";
    io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                  .arg(QStringLiteral("id"), -15)
                  .arg(QStringLiteral("memory"), -18)
                  .arg(QStringLiteral("TB/s"), 6)
                  .arg(QStringLiteral("bf16 TF"), 8)
                  .arg(QStringLiteral("fp8 TF"), 7)
                  .arg(QStringLiteral("ridge"), 6)
                  .arg(QStringLiteral("link (GB/s/dir)"), -24)
                  .arg(QStringLiteral("name"));
    bool fp16Only = false;
    for (const GpuSpec& g : gpus) {
        const double fp8 = g.peakTflops(NumberFormat::Fp8);
        // Cards without bf16 (T4, V100) show their fp16 peak, marked: bf16 weights run at that rate there.
        const NumberFormat sixteen = sixteenBitPrecision(g);
        const double peak = g.peakTflops(sixteen);
        const bool fp16 = sixteen == NumberFormat::Fp16 && peak > 0;
        fp16Only = fp16Only || fp16;
        io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                      .arg(marked(g.id, isUserGpu(g.id)), -15)
                      .arg(QStringLiteral("%1 GiB %2").arg(g.memoryGib).arg(g.memoryType), -18)
                      .arg(g.bandwidthTbs, 6, 'f', 3)
                      .arg(QString::number(peak, 'f', 1) + (fp16 ? QStringLiteral("*") : QString()), 8)
                      .arg(fp8 > 0 ? QString::number(fp8, 'f', 1) : QStringLiteral("-"), 7)
                      .arg(peak / g.bandwidthTbs, 6, 'f', 0)
                      .arg(g.interconnect.isEmpty()
                               ? g.hostLink + QStringLiteral(" only")
                               : QStringLiteral("%1 (%2)").arg(g.interconnect).arg(g.interconnectGbPerDirection),
                           -24)
                      .arg(g.name);
    }
    io.out << "\nridge = bf16 dense peak / bandwidth, FLOP/byte. Sources: `ridgeline catalog gpus --json`.\n";
    if (fp16Only)
        io.out << "* fp16: the card has no bf16 tensor path; bf16 weights are multiplied in fp16 there.\n";
    printUserFooter(io, static_cast<qsizetype>(user->gpus.size()), userGpuCatalogPath());
    return 0;
}

int printModels(Streams io, bool json, bool mine)
{
    const Result<std::vector<ModelSpec>>& bundled = builtinModels();
    if (!bundled) {
        io.err << "ridgeline catalog: " << bundled.error().message << '\n';
        return kExitFailed;
    }
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    const std::vector<ModelSpec> models = listed(bundled, user->models, mine);
    if (json) {
        QJsonArray array;
        for (const ModelSpec& m : models) {
            const ParamCounts counts = countParams(m).value();  // validated when the catalog was loaded
            QJsonObject o;
            o[QStringLiteral("id")] = m.id;
            o[QStringLiteral("name")] = m.name;
            o[QStringLiteral("params")] = static_cast<qint64>(counts.total);
            o[QStringLiteral("active_params")] = static_cast<qint64>(counts.activePerToken);
            o[QStringLiteral("layers")] = m.layers;
            o[QStringLiteral("hidden")] = m.hidden;
            o[QStringLiteral("heads")] = m.heads;
            o[QStringLiteral("kv_heads")] = m.kvHeads;
            o[QStringLiteral("head_dim")] = m.headDim;
            o[QStringLiteral("ffn")] = m.ffn;
            o[QStringLiteral("vocab")] = m.vocab;
            o[QStringLiteral("tied_embeddings")] = m.tiedEmbeddings;
            o[QStringLiteral("attention")] = attentionKind(m);
            o[QStringLiteral("kv_bytes_per_token_bf16")] = static_cast<qint64>(kvBytesPerTokenBf16(m));
            o[QStringLiteral("sliding_window")] = m.slidingWindow;
            if (m.isMoe()) {
                o[QStringLiteral("experts")] = m.experts;
                o[QStringLiteral("active_experts")] = m.activeExperts;
                o[QStringLiteral("shared_experts")] = m.sharedExperts;
            }
            if (m.isMla()) {
                o[QStringLiteral("kv_lora_rank")] = m.kvLoraRank;
                o[QStringLiteral("qk_rope_head_dim")] = m.qkRopeHeadDim;
            }
            o[QStringLiteral("source")] = m.source;
            o[QStringLiteral("yours")] = isUserModel(m.id);
            array.append(o);
        }
        io.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return 0;
    }
    io.out << "Models (parameters computed from the shapes; KV per token in bf16)\n\n";
    io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                  .arg(QStringLiteral("id"), -14)
                  .arg(QStringLiteral("params"), 17)
                  .arg(QStringLiteral("active"), 9)
                  .arg(QStringLiteral("L x hidden"), 12)
                  .arg(QStringLiteral("heads/KV"), -13)
                  .arg(QStringLiteral("KV/token"), 11)
                  .arg(QStringLiteral("name"));
    for (const ModelSpec& m : models) {
        const ParamCounts counts = countParams(m).value();
        io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7%8\n")
                      .arg(marked(m.id, isUserModel(m.id)), -14)
                      .arg(formatGrouped(counts.total), 17)
                      .arg(QStringLiteral("%1 B").arg(static_cast<double>(counts.activePerToken) / 1e9, 0, 'f', 1), 9)
                      .arg(QStringLiteral("%1 x %2").arg(m.layers).arg(m.hidden), 12)
                      .arg(QStringLiteral("%1/%2 %3")
                               .arg(m.heads)
                               .arg(m.isMla() ? QStringLiteral("-") : QString::number(m.kvHeads))
                               .arg(attentionKind(m)),
                           -13)
                      .arg(formatBinaryBytes(static_cast<double>(kvBytesPerTokenBf16(m))), 11)
                      .arg(m.name)
                      .arg(m.slidingWindow > 0 ? QStringLiteral(" (window %1)").arg(m.slidingWindow) : QString());
    }
    io.out << "\nSources: `ridgeline catalog models --json`.\n";
    printUserFooter(io, static_cast<qsizetype>(user->models.size()), userModelCatalogPath());
    return 0;
}

// A user catalog that was refused: said on stderr, and the exit status is 1, so that a script checking its own
// catalog with `ridgeline catalog gpus` notices.
int reportUserProblems(Streams io, int status)
{
    const QStringList problems = userCatalogs()->problems;
    for (const QString& problem : problems)
        io.err << "ridgeline catalog: your catalog was not read: " << problem << '\n';
    return problems.isEmpty() || status != 0 ? status : 1;
}

}  // namespace

int runCatalog(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("List the GPU, model or engine catalog: the bundled entries and your own, from "
                       "$XDG_CONFIG_HOME/ridgeline/gpus.json, models.json and engines.json (default "
                       "~/.config/ridgeline; GPUs and models in the format of `ridgeline catalog gpus --json`, "
                       "engines as `ridgeline calibrate --save-engine` writes them; ids of their own, never a "
                       "bundled one)."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("json"), QStringLiteral("print JSON instead of a table")));
    parser.addOption(QCommandLineOption(QStringLiteral("mine"), QStringLiteral("only your own entries")));
    parser.addPositionalArgument(QStringLiteral("which"), QStringLiteral("gpus, models or engines"));
    if (const std::optional<int> answered = parseCommandLine(parser, arguments.mid(1), u"catalog", io))
        return *answered;
    const QStringList which = parser.positionalArguments();
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool mine = parser.isSet(QStringLiteral("mine"));
    if (which.size() == 1 && which.constFirst() == QLatin1String("gpus"))
        return reportUserProblems(io, printGpus(io, json, mine));
    if (which.size() == 1 && which.constFirst() == QLatin1String("models"))
        return reportUserProblems(io, printModels(io, json, mine));
    if (which.size() == 1 && which.constFirst() == QLatin1String("engines"))
        return printEngines(io, json, mine);
    io.err << "ridgeline catalog: say which catalog: `ridgeline catalog gpus`, `ridgeline catalog models` or "
              "`ridgeline catalog engines`\n";
    return kExitBadInput;
}

}  // namespace ridgeline::cli
