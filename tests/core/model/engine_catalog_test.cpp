// Engines of the user's own: engines.json in $XDG_CONFIG_HOME/ridgeline beside their GPUs and models, a calibration
// saved as one, chosen by name like a built-in engine (with the terms it was saved with on every card), and read as
// strictly as the other user catalogs: every defect refuses the file in one line naming it and the field, the
// built-in engines stay, and a save never overwrites a file that does not read. Each test has an XDG_CONFIG_HOME of
// its own.
#include "core/model/llm/engine_catalog.h"
#include "core/bench/calibration/calibration_engine.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/engine_catalog_json.h"
#include "core/model/llm/inference_request.h"
#include "core/session/format/session_json.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace ridgeline;

namespace {

class UserEngineCatalog : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_home.isValid());
        m_previous = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", m_home.path().toLocal8Bit());
        reloadUserCatalogs();
    }
    void TearDown() override
    {
        qputenv("XDG_CONFIG_HOME", m_previous);
        reloadUserCatalogs();
    }
    QString path() const { return m_home.path() + QStringLiteral("/ridgeline/engines.json"); }
    // A file put there by hand (or by another program): the catalogs are read again, as on the next start.
    void write(const QByteArray& bytes) const
    {
        QDir().mkpath(m_home.path() + QStringLiteral("/ridgeline"));
        QFile file(path());
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        reloadUserCatalogs();
    }
    QByteArray read() const
    {
        QFile file(path());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QTemporaryDir m_home;
    QByteArray m_previous;
};

// The calibration `ridgeline calibrate --out` wrote into tests/data/sessions/calibrated.json.
Calibration storedCalibration()
{
    const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated.json"));
    EXPECT_TRUE(session.ok()) << session.error().message.toStdString();
    EXPECT_FALSE(session.value().calibrations.empty());
    return session.value().calibrations.front();
}

// One engine with one entry of `overrides`, as a file.
QByteArray oneEngine(const QByteArray& id, const QByteArray& overrideEntry)
{
    return R"({"format": "ridgeline-engine-catalog", "schema_version": 1, "engines": [{"id": )" + id +
           R"(, "name": "mine", "coverage": "my runs", "overrides": [)" + overrideEntry + "]}]}";
}

}  // namespace

TEST_F(UserEngineCatalog, ACalibrationSavedAsAnEngineIsChosenByItsNameWithTheFittedTerms)
{
    const Calibration calibration = storedCalibration();
    const Result<EngineProfile> engine = engineFromCalibration(calibration, QStringLiteral("my-mi300x"));
    ASSERT_TRUE(engine.ok()) << engine.error().message.toStdString();
    EXPECT_FALSE(engine.value().overrides.empty());
    for (const TermOverride& o : engine.value().overrides) {
        EXPECT_FALSE(o.family.has_value());
        EXPECT_TRUE(o.source.contains(u"your calibration")) << o.source.toStdString();
    }
    EXPECT_FALSE(selectEngine(u"my-mi300x").ok());

    const Result<QString> saved = saveUserEngine(engine.value());
    ASSERT_TRUE(saved.ok()) << saved.error().message.toStdString();
    EXPECT_EQ(saved.value(), path());
    EXPECT_TRUE(read().contains("\"ridgeline-engine-catalog\""));

    // Chosen like a built-in engine, by any case, with a version it is not tied to: on every card the fitted terms.
    const Result<EngineSelection> chosen = selectEngine(u"My-MI300X@1.2");
    ASSERT_TRUE(chosen.ok()) << chosen.error().message.toStdString();
    EXPECT_EQ(chosen.value().profile->id, QStringLiteral("my-mi300x"));
    EXPECT_TRUE(chosen.value().fallbackNote.contains(u"not tied to versions"));
    const EngineTerms fitted = fittedTerms(calibration).value();
    for (const char* gpu : {"mi300x", "rtx-4090", "m2-max"})
        EXPECT_EQ(chosen.value().profile->termsFor(findGpu(QString::fromLatin1(gpu)).value()), fitted) << gpu;
    EXPECT_TRUE(isUserEngine(QStringLiteral("MY-mi300x")));
    EXPECT_FALSE(isUserEngine(QStringLiteral("vllm")));
    EXPECT_TRUE(engineIds().endsWith(u", my-mi300x"));
    EXPECT_EQ(allEngines().size(), builtinEngines().size() + 1);

    // The model evaluates a request naming it: the fitted terms.
    InferenceRequest request;
    request.gpuId = QStringLiteral("mi300x");
    request.engine = QStringLiteral("my-mi300x");
    ASSERT_TRUE(resolveInference(request).ok());
    EXPECT_EQ(resolveInference(request).value().efficiency, fitted);

    // A second save under the same id (any case) writes nothing.
    const QByteArray before = read();
    EngineProfile again = engine.value();
    again.id = QStringLiteral("MY-MI300X");
    const Result<QString> twice = saveUserEngine(again);
    ASSERT_FALSE(twice.ok());
    EXPECT_TRUE(twice.error().message.contains(u"your catalog already has an engine with the id \"MY-MI300X\""))
        << twice.error().message.toStdString();
    EXPECT_EQ(read(), before);
}

TEST_F(UserEngineCatalog, EachDefectRefusesTheFileInOneLineNamingTheField)
{
    struct Case {
        QByteArray json;
        const char* says;
    };
    const QByteArray layer = R"({"term": "layer_seconds", "value": 4e-5, "source": "my runs"})";
    const std::vector<Case> cases = {
        {oneEngine("\"vllm\"", layer), "engines[0].id \"vllm\" is the built-in engine vLLM"},
        {oneEngine("\"trtllm\"", layer), "is the built-in engine TensorRT-LLM"},
        {oneEngine("\"mine@2\"", layer), "engines[0].id \"mine@2\" must be 1 to 64 letters"},
        {oneEngine("\"\"", layer), "engines[0].id"},
        {oneEngine("\"mine\"", R"({"term": "warp_speed", "value": 0.5, "source": "s"})"),
         "engines[0].overrides[0].term \"warp_speed\" is no engine term"},
        {oneEngine("\"mine\"", R"({"term": "weight_bandwidth.bf16", "value": 1.5, "source": "s"})"),
         "engines[0].overrides[0].value"},
        {oneEngine("\"mine\"", R"({"term": "weight_bandwidth.bf16", "value": 0, "source": "s"})"),
         "engines[0].overrides[0].value is a share of a datasheet peak: above 0, at most 1"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": -1e-6, "source": "s"})"),
         "engines[0].overrides[0].value"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": 2, "source": "s"})"),
         "engines[0].overrides[0].value"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": "fast", "source": "s"})"),
         "engines[0].overrides[0].value"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": 1e-5, "source": ""})"),
         "engines[0].overrides[0].source must not be empty"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": 1e-5, "source": "s", "memory_family": "HBM4"})"),
         "engines[0].overrides[0].memory_family \"HBM4\" is none of HBM, GDDR, unified, other"},
        {oneEngine("\"mine\"", layer + "," + layer), "engines[0].overrides[1] sets layer_seconds a second time"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": 1e-5, "source": "s", "speed": 1})"), "speed"},
        {oneEngine("\"mine\"", R"({"term": "layer_seconds", "value": NaN, "source": "s"})"), "engines.json: "},
        {R"({"format": "ridgeline-engine-catalog", "schema_version": 1, "engines": [{"id": "a", "name": "a", )"
         R"("coverage": "c", "overrides": []}, {"id": "A", "name": "b", "coverage": "c", "overrides": []}]})",
         "engines[1].id \"A\" is used twice"},
        {R"({"format": "ridgeline-gpu-catalog", "schema_version": 1, "gpus": []})", "not a Ridgeline engine catalog"},
        {R"({"format": "ridgeline-engine-catalog", "schema_version": 2, "engines": []})", "newer Ridgeline"},
        {"{\"format\": \"ridgeline-engi\nne-catalog\", \"schema_version\": 1, \"engines\": []}",
         "line 1, column 27: a raw control character (U+000a) inside a string"},
    };
    for (const Case& c : cases) {
        const Result<std::vector<EngineProfile>> read = parseUserEngineCatalog(c.json, QStringLiteral("engines.json"));
        ASSERT_FALSE(read.ok()) << c.json.constData();
        const QString message = read.error().message;
        EXPECT_TRUE(message.startsWith(u"engines.json: ")) << message.toStdString();
        EXPECT_TRUE(message.contains(QLatin1String(c.says))) << message.toStdString();
        EXPECT_FALSE(message.contains(u'\n'));
    }
    // Zero is a time (a fixed cost an engine does not have), and a family may be named.
    EXPECT_TRUE(parseUserEngineCatalog(oneEngine("\"mine\"", R"({"term": "sequence_seconds", "value": 0, )"
                                                             R"("source": "s", "memory_family": "GDDR"})"),
                                       QStringLiteral("engines.json"))
                    .ok());
}

TEST_F(UserEngineCatalog, ABadFileIsSaidWhereEnginesAreChosenAndNeverOverwritten)
{
    const QByteArray bad = oneEngine("\"vllm\"", R"({"term": "layer_seconds", "value": 4e-5, "source": "s"})");
    write(bad);
    const Result<EngineSelection> unknown = selectEngine(u"mine");
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(unknown.error().message.contains(u"your engines were not read: " + path() + u": engines[0].id"))
        << unknown.error().message.toStdString();
    EXPECT_FALSE(unknown.error().message.contains(u'\n'));
    EXPECT_TRUE(selectEngine(u"llama.cpp").ok());  // the built-in engines are used alone
    EXPECT_EQ(allEngines().size(), builtinEngines().size());
    ASSERT_EQ(userEngines()->problems.size(), 1);

    const Result<EngineProfile> engine = engineFromCalibration(storedCalibration(), QStringLiteral("mine"));
    ASSERT_TRUE(engine.ok());
    const Result<QString> refused = saveUserEngine(engine.value());
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains(u"nothing written")) << refused.error().message.toStdString();
    EXPECT_EQ(read(), bad);

    // An id --engine could not take is refused before anything is written.
    write(QByteArray());
    QFile::remove(path());
    reloadUserCatalogs();
    const Result<QString> badId =
        saveUserEngine(engineFromCalibration(storedCalibration(), QStringLiteral("my engine")).value());
    ASSERT_FALSE(badId.ok());
    EXPECT_TRUE(badId.error().message.contains(u"engines[0].id \"my engine\" must be"))
        << badId.error().message.toStdString();
    EXPECT_FALSE(QFile::exists(path()));
}

TEST_F(UserEngineCatalog, WhatIsWrittenReadsBackFieldForField)
{
    EngineProfile e;
    e.id = QStringLiteral("lab.box_2");
    e.name = QStringLiteral("lab box 2");
    e.coverage = QStringLiteral("llama-bench on our RTX 4090");
    e.overrides = {
        TermOverride{parseTermName(u"layer_seconds").value(), 9.5e-6, std::nullopt, QStringLiteral("a")},
        TermOverride{parseTermName(u"weight_bandwidth.int4").value(), 0.69, MemoryFamily::Gddr, QStringLiteral("b")}};
    const QByteArray json = engineCatalogToJson({e});
    const Result<std::vector<EngineProfile>> back = parseEngineCatalog(json);
    ASSERT_TRUE(back.ok()) << back.error().message.toStdString();
    ASSERT_EQ(back.value().size(), 1u);
    const EngineProfile& r = back.value().front();
    EXPECT_EQ(r.id, e.id);
    EXPECT_EQ(r.name, e.name);
    EXPECT_EQ(r.coverage, e.coverage);
    ASSERT_EQ(r.overrides.size(), 2u);
    EXPECT_EQ(r.overrides[1].term, e.overrides[1].term);
    EXPECT_EQ(r.overrides[1].value, 0.69);
    EXPECT_EQ(r.overrides[1].family, MemoryFamily::Gddr);
    EXPECT_EQ(r.overrides[0].family, std::nullopt);
    EXPECT_EQ(engineCatalogToJson(back.value()), json);
}
