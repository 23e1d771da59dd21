#include "app/cli/model_config_option.h"

#include <QJsonArray>

namespace ridgeline::cli {

using namespace Qt::Literals::StringLiterals;

namespace {

struct FormatSource {
    const char* option;
    const std::optional<NumberFormat>* fromFile;
    const QString* basis;
    const char* what;
};

std::array<FormatSource, 3> formatSources(const HfModelConfig& c)
{
    return {FormatSource{"weights", &c.weights, &c.weightsBasis, "weights"},
            FormatSource{"attention-weights", &c.attentionWeights, &c.attentionBasis, "attention weights"},
            FormatSource{"kv", &c.kv, &c.kvBasis, "KV cache"}};
}

// "weights fp8 (quantization_config: fp8, ...)", or "weights: --weights bf16 (the file says fp8)".
QString formatLine(const FormatSource& source, const QCommandLineParser& parser)
{
    const QString option = QLatin1String(source.option);
    if (parser.isSet(option))
        return QLatin1String(source.what) + u" "_s + parser.value(option) + u" (--"_s + option +
               (*source.fromFile ? u"; the file says "_s + numberFormatName(**source.fromFile) : QString()) + u')';
    if (*source.fromFile)
        return QLatin1String(source.what) + u" "_s + numberFormatName(**source.fromFile) + u" ("_s + *source.basis +
               u')';
    return {};
}

}  // namespace

std::optional<QString> applyModelConfig(const HfModelConfig& config, const QCommandLineParser& parser,
                                        InferenceRequest& request)
{
    const KeptFormats given{parser.isSet(u"weights"_s), parser.isSet(u"kv"_s), parser.isSet(u"attention-weights"_s)};
    if (const std::optional<QString> refused = applyHfConfig(config, request, given))
        return *refused + u"; give --weights"_s;
    return std::nullopt;
}

QStringList modelConfigLines(const HfModelConfig& config, const QCommandLineParser& parser)
{
    QStringList lines{u"Model config: "_s + config.file + u", read as "_s + config.architecture};
    for (const FormatSource& source : formatSources(config))
        if (const QString line = formatLine(source, parser); !line.isEmpty())
            lines << u"  "_s + line;
    for (const QString& note : config.notes)
        lines << u"  note: "_s + note;
    return lines;
}

QJsonObject modelConfigJson(const HfModelConfig& config, const QCommandLineParser& parser)
{
    QJsonObject formats;
    for (const FormatSource& source : formatSources(config))
        if (const QString line = formatLine(source, parser); !line.isEmpty())
            formats.insert(QLatin1String(source.option), line);
    return QJsonObject{{u"file"_s, config.file},
                       {u"architecture"_s, config.architecture},
                       {u"formats"_s, formats},
                       {u"notes"_s, QJsonArray::fromStringList(config.notes)}};
}

}  // namespace ridgeline::cli
