#include "ui/panels/batching_catalog_actions.h"

#include "core/model/catalog/model_shapes.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/hf/hf_config.h"
#include "core/model/units.h"
#include "ui/panels/batching_controls.h"
#include "ui/panels/catalog_entry_dialog.h"

#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>

namespace ridgeline::ui {

namespace {

// What `--gpu ID` and `--model ID` take without quoting.
std::optional<QString> checkId(const QString& id)
{
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._+-]*$"));
    if (!word.match(id).hasMatch())
        return QObject::tr(
                   "The id \"%1\" is not one word: use letters, digits, '.', '_', '-' and '+', as "
                   "`ridgeline model --gpu ID` takes it")
            .arg(id);
    return std::nullopt;
}

// "Llama-3.1-8B" -> "llama-3.1-8b": a default id from a name.
QString idFrom(const QString& name)
{
    QString id = name.toLower();
    id.replace(QRegularExpression(QStringLiteral("[^a-z0-9._+-]+")), QStringLiteral("-"));
    id.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    return id.isEmpty() ? QStringLiteral("my-entry") : id;
}

QString enteredHere()
{
    return QObject::tr("entered in the Ridgeline window on %1").arg(QDate::currentDate().toString(Qt::ISODate));
}

// "weights fp8 (quantization_config: ...)": the formats the file stated and where they came from.
QString formatsRead(const HfModelConfig& config)
{
    QStringList parts;
    if (config.weights)
        parts << QObject::tr("weights %1 (%2)").arg(numberFormatName(*config.weights), config.weightsBasis);
    if (config.attentionWeights)
        parts
            << QObject::tr("attention %1 (%2)").arg(numberFormatName(*config.attentionWeights), config.attentionBasis);
    if (config.kv)
        parts << QObject::tr("KV %1 (%2)").arg(numberFormatName(*config.kv), config.kvBasis);
    return parts.join(QStringLiteral("; "));
}

}  // namespace

BatchingCatalogActions::BatchingCatalogActions(QWidget* parent, ShownRequest shown, BatchingControls* controls)
    : QObject(parent),
      m_parent(parent),
      m_shown(std::move(shown)),
      m_controls(controls),
      m_lastDirectory(QDir::homePath())
{
    connect(controls, &BatchingControls::loadModelConfigRequested, this, &BatchingCatalogActions::loadModelConfig);
    connect(controls, &BatchingControls::saveModelRequested, this, &BatchingCatalogActions::saveModel);
    connect(controls, &BatchingControls::saveGpuRequested, this, &BatchingCatalogActions::saveGpu);
}

void BatchingCatalogActions::loadModelConfig()
{
    auto* dialog = new QFileDialog(m_parent, tr("Load Model Config"), m_lastDirectory,
                                   tr("Hugging Face model config (config.json *.json);;All files (*)"));
    dialog->setObjectName(QStringLiteral("LoadModelConfigDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);  // the same dialog everywhere, and one tests can type into
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &BatchingCatalogActions::loadModelConfigFrom);
    dialog->open();
}

void BatchingCatalogActions::loadModelConfigFrom(const QString& path)
{
    m_lastDirectory = QFileInfo(path).absolutePath();
    const Result<HfModelConfig> loaded = loadHfConfig(path);
    if (!loaded) {
        m_controls->showModelStatus(tr("Not loaded: %1").arg(loaded.error().message), true);
        return;
    }
    const HfModelConfig& config = loaded.value();
    InferenceRequest request = m_shown.get();
    QString status;
    bool problem = false;
    if (const std::optional<QString> refused = applyHfConfig(config, request)) {
        // A weight format Ridgeline cannot model: the shape still loads, the weights keep the format shown.
        applyHfConfig(config, request, KeptFormats{true, false, false});
        status = tr("%1; the weights stay %2: choose their format").arg(*refused, numberFormatName(request.weights));
        problem = true;
    } else {
        const QString formats = formatsRead(config);
        status =
            tr("Loaded %1 as %2%3")
                .arg(config.file, config.architecture, formats.isEmpty() ? QString() : QStringLiteral(": ") + formats);
    }
    for (const QString& note : config.notes)
        status += QStringLiteral("\n") + tr("Note: %1").arg(note);
    m_shown.set(request);
    m_controls->showModelStatus(status, problem);
}

void BatchingCatalogActions::saveModel()
{
    const InferenceRequest request = m_shown.get();
    Result<ModelSpec> resolved = resolveModelSpec(request);
    if (request.modelId != kCustomId || !resolved) {
        m_controls->showModelStatus(resolved
                                        ? tr("Only a custom model is saved: the catalog's models are there already")
                                        : tr("Not saved: %1").arg(resolved.error().message),
                                    true);
        return;
    }
    ModelSpec model = std::move(resolved).value();
    QString what = tr("%1 goes into %2 and is offered beside the bundled models here and by `ridgeline model "
                      "--model ID`.")
                       .arg(model.name, userModelCatalogPath());
    if (model.paramsOverride > 0) {
        // The catalog holds shapes: a model of a given count is kept as the shape derived from it.
        const double asked = static_cast<double>(model.paramsOverride);
        model.paramsOverride = 0;
        const Result<ParamCounts> counts = countParams(model);
        what += QStringLiteral(" ") +
                tr("It is kept as its shape (%1 layers, hidden %2, %3 heads), which has %4 "
                   "billion parameters against the %5 asked for.")
                    .arg(model.layers)
                    .arg(model.hidden)
                    .arg(model.heads)
                    .arg(counts ? formatSignificant(double(counts.value().total) / 1e9, 4) : QStringLiteral("\u2013"),
                         formatSignificant(asked / 1e9, 4));
    }
    auto save = [this, model](const CatalogEntry& typed) -> std::optional<QString> {
        if (const std::optional<QString> bad = checkId(typed.id))
            return bad;
        ModelSpec entry = model;
        entry.id = typed.id;
        entry.name = typed.name;
        entry.source = typed.source;
        const Result<QString> saved = saveUserModel(entry);
        if (!saved)
            return saved.error().message;
        m_controls->reloadCatalogs();
        InferenceRequest shown = m_shown.get();
        shown.modelId = typed.id;
        m_shown.set(shown);
        m_controls->showModelStatus(tr("Saved \"%1\" to %2").arg(typed.id, saved.value()), false);
        return std::nullopt;
    };
    const QString source = model.source.isEmpty() ? enteredHere() : model.source;
    (new CatalogEntryDialog(m_parent, tr("Save Model to My Catalog"), what,
                            CatalogEntry{idFrom(model.name), model.name, source, std::nullopt},
                            CatalogEntryDialog::Price::NotAsked, save))
        ->open();
}

void BatchingCatalogActions::saveGpu()
{
    const InferenceRequest request = m_shown.get();
    Result<GpuSpec> custom = customGpu(request.customPeakTflops, request.customBandwidthTbs, request.customMemoryGib);
    if (request.gpuId != kCustomId || !custom) {
        m_controls->showGpuStatus(custom ? tr("Only a custom GPU is saved: the catalog's cards are there already")
                                         : tr("Not saved: %1").arg(custom.error().message),
                                  true);
        return;
    }
    GpuSpec gpu = std::move(custom).value();
    // The catalog lists tensor-core precisions only; a custom card has one peak for each of them.
    for (const NumberFormat precision : kAllNumberFormats)
        if (tensorPrecisionOf(precision) != precision)
            gpu.setPeakTflops(precision, 0.0);
    const QString what =
        tr("A card of %1 TFLOP/s (every precision), %2 TB/s and %3 GiB goes into %4 and is offered "
           "beside the bundled GPUs here and by `ridgeline model --gpu ID`.")
            .arg(formatSignificant(request.customPeakTflops), formatSignificant(request.customBandwidthTbs),
                 formatSignificant(request.customMemoryGib), userGpuCatalogPath());
    auto save = [this, gpu](const CatalogEntry& typed) -> std::optional<QString> {
        if (const std::optional<QString> bad = checkId(typed.id))
            return bad;
        GpuSpec entry = gpu;
        entry.id = typed.id;
        entry.name = typed.name;
        entry.source = typed.source;
        entry.gpuHourPrice = typed.gpuHourPrice.value_or(0.0);
        const Result<QString> saved = saveUserGpu(entry);
        if (!saved)
            return saved.error().message;
        m_controls->reloadCatalogs();
        InferenceRequest shown = m_shown.get();
        shown.gpuId = typed.id;
        shown.linkId.clear();
        m_shown.set(shown);
        m_controls->showGpuStatus(tr("Saved \"%1\" to %2").arg(typed.id, saved.value()), false);
        return std::nullopt;
    };
    (new CatalogEntryDialog(m_parent, tr("Save GPU to My Catalog"), what,
                            CatalogEntry{QStringLiteral("my-gpu"), tr("My GPU"), enteredHere(), std::nullopt},
                            CatalogEntryDialog::Price::Asked, save))
        ->open();
}

}  // namespace ridgeline::ui
