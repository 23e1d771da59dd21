// `ridgeline catalog gpus|models [--json]`: the built-in catalogs, with the figures computed from them. The GPUs'
// JSON is a GPU catalog file; the models' JSON lists the computed figures (parameters, KV bytes) beside the shapes.
#include "app/cli/commands.h"

#include "core/model/catalog.h"
#include "core/model/catalog_json.h"
#include "core/model/units.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace ridgeline::cli {

namespace {

constexpr int kBadArguments = 2;

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

int printGpus(Streams io, bool json)
{
    const Result<std::vector<GpuSpec>>& gpus = builtinGpus();
    if (!gpus) {
        io.err << "ridgeline catalog: " << gpus.error().message << '\n';
        return 1;
    }
    if (json) {  // a catalog file: what the catalog reader reads (a user's own catalog can start from it)
        io.out << gpuCatalogToJson(gpus.value());
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
    for (const GpuSpec& g : gpus.value()) {
        const double fp8 = g.peakTflops(NumberFormat::Fp8);
        io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                      .arg(g.id, -15)
                      .arg(QStringLiteral("%1 GiB %2").arg(g.memoryGib).arg(g.memoryType), -18)
                      .arg(g.bandwidthTbs, 6, 'f', 3)
                      .arg(g.peakTflops(NumberFormat::Bf16), 8, 'f', 1)
                      .arg(fp8 > 0 ? QString::number(fp8, 'f', 1) : QStringLiteral("-"), 7)
                      .arg(g.peakTflops(NumberFormat::Bf16) / g.bandwidthTbs, 6, 'f', 0)
                      .arg(g.interconnect.isEmpty()
                               ? g.hostLink + QStringLiteral(" only")
                               : QStringLiteral("%1 (%2)").arg(g.interconnect).arg(g.interconnectGbPerDirection),
                           -24)
                      .arg(g.name);
    }
    io.out << "\nridge = bf16 dense peak / bandwidth, FLOP/byte. Sources: `ridgeline catalog gpus --json`.\n";
    return 0;
}

int printModels(Streams io, bool json)
{
    const Result<std::vector<ModelSpec>>& models = builtinModels();
    if (!models) {
        io.err << "ridgeline catalog: " << models.error().message << '\n';
        return 1;
    }
    if (json) {
        QJsonArray array;
        for (const ModelSpec& m : models.value()) {
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
    for (const ModelSpec& m : models.value()) {
        const ParamCounts counts = countParams(m).value();
        io.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7%8\n")
                      .arg(m.id, -14)
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
    return 0;
}

}  // namespace

int runCatalog(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List the built-in GPU or model catalog."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("json"), QStringLiteral("print JSON instead of a table")));
    parser.addPositionalArgument(QStringLiteral("which"), QStringLiteral("gpus or models"));
    if (!parser.parse(arguments.mid(1))) {
        io.err << "ridgeline catalog: " << parser.errorText() << '\n';
        return kBadArguments;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        io.out << parser.helpText();
        return 0;
    }
    const QStringList which = parser.positionalArguments();
    const bool json = parser.isSet(QStringLiteral("json"));
    if (which.size() == 1 && which.constFirst() == QLatin1String("gpus"))
        return printGpus(io, json);
    if (which.size() == 1 && which.constFirst() == QLatin1String("models"))
        return printModels(io, json);
    io.err << "ridgeline catalog: say which catalog: `ridgeline catalog gpus` or `ridgeline catalog models`\n";
    return kBadArguments;
}

}  // namespace ridgeline::cli
