#include "core/bench/formats/llama_bench_import.h"

#include "core/bench/formats/serving_fields.h"
#include "core/import/text/csv_reader.h"
#include "core/import/text/import_text.h"
#include "core/json/json_reader.h"
#include "core/json/strict_reader.h"
#include "core/message_text.h"

#include <QHash>
#include <QRegularExpression>

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr std::int64_t kMaxTokens = 100'000'000;  // n_prompt, n_gen, n_depth of one test

// The fields of one CSV row by header name, with the interface of ObjectReader that readTest() uses.
class CsvFields {
public:
    CsvFields(const QHash<QString, qsizetype>& columns, const CsvRecord& row) : m_columns(columns), m_row(row) {}

    bool knows(QStringView key) const { return m_columns.contains(key.toString()); }
    bool has(QStringView key) const { return !raw(key).trimmed().isEmpty(); }

    std::optional<double> quantity(QStringView key, Quantity quantity)
    {
        if (failed() || !has(key))
            return std::nullopt;
        const Result<double> parsed = parseNumber(raw(key).trimmed(), Thousands::Refuse);
        if (!parsed) {
            refuseKey(key, u"\""_s + key.toString() + u"\": "_s + parsed.error().message);
            return std::nullopt;
        }
        const Result<double> checked = checkQuantity(parsed.value(), quantity);
        if (!checked) {
            refuseKey(key, u"\""_s + key.toString() + u"\" "_s + checked.error().message + u"; expected "_s +
                               quantityName(quantity));
            return std::nullopt;
        }
        return checked.value();
    }

    std::optional<std::int64_t> count(QStringView key, std::int64_t max = std::int64_t{1} << 50)
    {
        if (failed() || !has(key))
            return std::nullopt;
        const Result<double> parsed = parseNumber(raw(key).trimmed(), Thousands::Refuse);
        if (!parsed || parsed.value() != std::floor(parsed.value()) || parsed.value() > static_cast<double>(max)) {
            refuseKey(key, u"\""_s + key.toString() + u"\" is \""_s + oneLine(raw(key).left(40)) +
                               u"\"; expected a whole number from 0 to "_s + QString::number(max));
            return std::nullopt;
        }
        return static_cast<std::int64_t>(parsed.value());
    }

    std::optional<bool> flag(QStringView key)
    {
        if (failed() || !has(key))
            return std::nullopt;
        const QString value = raw(key).trimmed();
        if (value == u"1" || value == u"true")
            return true;
        if (value == u"0" || value == u"false")
            return false;
        refuseKey(key, u"\""_s + key.toString() + u"\" is \""_s + oneLine(value.left(40)) + u"\"; expected 0 or 1"_s);
        return std::nullopt;
    }

    QString text(QStringView key) const { return raw(key); }

    void refuseKey(QStringView key, const QString& what)
    {
        const auto index = m_columns.value(key.toString(), -1);
        const int column = index >= 0 ? m_row.columnOf(index) : 1;
        const int line =
            index >= 0 && index < m_row.size() ? m_row.fields[static_cast<std::size_t>(index)].line : m_row.line;
        if (!m_error)
            m_error = makeError(Error::Code::Schema, lineColumn(line, column) + u": "_s + what);
    }
    void refuseMissing(QStringView key, const QString& why)
    {
        if (!m_error)
            m_error = makeError(Error::Code::Schema, lineColumn(1, 1) + u": the header has no \""_s + key.toString() +
                                                         u"\" column ("_s + why + u')');
    }
    bool failed() const { return m_error.has_value(); }
    const Error& error() const { return *m_error; }

private:
    QString raw(QStringView key) const
    {
        const auto index = m_columns.value(key.toString(), -1);
        return index >= 0 ? m_row.value(index) : QString();
    }

    const QHash<QString, qsizetype>& m_columns;
    const CsvRecord& m_row;
    std::optional<Error> m_error;
};

// ObjectReader with the questions readTest() asks. 2024 builds wrote "rpc" as the string "0" or "1" among the
// boolean backend flags, so a flag may be such a string here.
class JsonTestFields : public ObjectReader {
public:
    using ObjectReader::ObjectReader;
    bool knows(QStringView key) const { return get(key) != nullptr; }
    QString text(QStringView key) { return ObjectReader::text(key); }
    std::optional<bool> flag(QStringView key)
    {
        const JsonNode* node = get(key);
        if (node && node->isString() && (node->string() == u"0" || node->string() == u"1"))
            return node->string() == u"1";
        return ObjectReader::flag(key);
    }
};

// "llama 8B Q4_K - Medium" -> "Q4_K - Medium": what follows the size token ("8B", "1.1B", "8x7B", "?B").
QString weightFormatOf(const QString& modelType)
{
    static const QRegularExpression size(u"^(\\?|[0-9.]+(x[0-9.]+)?)[KMBT]$"_s);
    const QStringList words = modelType.split(u' ', Qt::SkipEmptyParts);
    for (qsizetype i = 0; i + 1 < words.size(); ++i) {
        if (size.match(words[i]).hasMatch())
            return words.mid(i + 1).join(u' ');
    }
    return {};
}

// The backend: 2025's "backends" string, or the first of 2023-2024's per-backend flags that is set.
template <typename Fields>
QString backendOf(Fields& fields)
{
    if (fields.knows(u"backends"))
        return fields.text(u"backends").left(80);
    static const std::pair<QStringView, QStringView> flags[] = {
        {u"cuda", u"CUDA"},         {u"vulkan", u"Vulkan"}, {u"kompute", u"Kompute"},
        {u"metal", u"Metal"},       {u"sycl", u"SYCL"},     {u"opencl", u"OpenCL"},
        {u"gpu_blas", u"GPU BLAS"}, {u"rpc", u"RPC"},       {u"blas", u"BLAS"},
    };
    for (const auto& [key, name] : flags) {
        if (fields.flag(key).value_or(false))
            return name.toString();
    }
    return u"CPU"_s;
}

template <typename Fields>
QString versionOf(Fields& fields)
{
    if (fields.knows(u"backends"))
        return u"llama-bench of 2025 or later (\"backends\", n_depth, integer flash_attn)"_s;
    if (fields.knows(u"f16_kv") || fields.knows(u"mul_mat_q"))
        return u"llama-bench of 2023 (f16_kv, mul_mat_q, per-backend flags)"_s;
    return u"llama-bench of 2024 (per-backend flags, type_k / type_v)"_s;
}

// What one test records, read and checked, before it becomes a point.
struct TestRecord {
    std::int64_t prompt = 0;     // n_prompt
    std::int64_t generated = 0;  // n_gen
    std::optional<std::int64_t> depth;
    double seconds = 0;  // avg_ns, in seconds
    double rate = 0;     // avg_ts
    QString modelType;
    QString gpuInfo;
    QString cpuInfo;
    QString typeK;
    QString typeV;
    std::optional<bool> f16Kv;
    QString splitMode;
    std::optional<std::int64_t> ubatch;
    QString build;
    std::optional<std::int64_t> buildNumber;
};

// Reads every field of one test (the model's size, parameters and backend straight into the point); nullopt on an
// error, which `fields` then holds.
template <typename Fields>
std::optional<TestRecord> readTestRecord(Fields& fields, BenchPoint& point)
{
    for (QStringView key : {u"n_prompt", u"n_gen", u"avg_ns", u"avg_ts", u"model_type"}) {
        if (!fields.knows(key)) {
            fields.refuseMissing(key, u"every llama-bench test has n_prompt, n_gen, avg_ns, avg_ts and model_type"_s);
            return std::nullopt;
        }
    }
    TestRecord t;
    const std::optional<std::int64_t> prompt = fields.count(u"n_prompt", kMaxTokens);
    const std::optional<std::int64_t> generated = fields.count(u"n_gen", kMaxTokens);
    t.depth = fields.count(u"n_depth", kMaxTokens);
    const std::optional<double> seconds = fields.quantity(u"avg_ns", Quantity::Nanoseconds);
    const std::optional<double> rate = fields.quantity(u"avg_ts", Quantity::TokensPerSecond);
    (void)fields.quantity(u"stddev_ns", Quantity::Nanoseconds);
    (void)fields.quantity(u"stddev_ts", Quantity::TokensPerSecond);
    t.modelType = fields.text(u"model_type").left(200);
    t.gpuInfo = fields.text(u"gpu_info").left(200);
    t.cpuInfo = fields.text(u"cpu_info").left(200);
    point.weightBytes = fields.count(u"model_size");
    point.params = fields.count(u"model_n_params");
    point.backend = backendOf(fields);
    t.typeK = fields.text(u"type_k").left(40);
    t.typeV = fields.text(u"type_v").left(40);
    t.f16Kv = fields.flag(u"f16_kv");
    t.splitMode = fields.text(u"split_mode").left(40);
    t.ubatch = fields.count(u"n_ubatch", 1 << 24);
    t.build = fields.text(u"build_commit").left(40);
    t.buildNumber = fields.count(u"build_number", 1 << 30);
    if (fields.failed())
        return std::nullopt;
    if (!prompt || !generated || !seconds || !rate) {
        const QStringView missing = !prompt ? u"n_prompt" : !generated ? u"n_gen" : !seconds ? u"avg_ns" : u"avg_ts";
        fields.refuseKey(missing, u"\""_s + missing.toString() + u"\" is empty; expected a number"_s);
        return std::nullopt;
    }
    t.prompt = *prompt;
    t.generated = *generated;
    t.seconds = *seconds;
    t.rate = *rate;
    return t;
}

// "pp512", "tg128", "pp512+tg128", "tg128 @ d4096".
QString testLabel(const TestRecord& t)
{
    QString label;
    if (t.prompt > 0)
        label = u"pp"_s + QString::number(t.prompt);
    if (t.prompt > 0 && t.generated > 0)
        label += u'+';
    if (t.generated > 0 || t.prompt == 0)
        label += u"tg"_s + QString::number(t.generated);
    if (t.depth && *t.depth > 0)
        label += u" @ d"_s + QString::number(*t.depth);
    return label;
}

// The model, its formats, the device and the load: one sequence on one GPU (or the CPU).
void describeSetup(const TestRecord& t, BenchPoint& point)
{
    point.model = t.modelType;
    point.weightFormat = weightFormatOf(t.modelType);
    point.kvFormat = !t.typeK.isEmpty() ? t.typeK : t.f16Kv ? (*t.f16Kv ? u"f16"_s : u"f32"_s) : QString();
    if (!t.typeV.isEmpty() && t.typeV != t.typeK)
        point.notes << u"keys cached as "_s + oneLine(t.typeK) + u", values as "_s + oneLine(t.typeV);
    const bool onCpu = point.backend == u"CPU" || point.backend == u"BLAS";
    if (!onCpu)
        point.gpu = t.gpuInfo;
    else if (!t.cpuInfo.isEmpty())
        point.notes << u"ran on the CPU: "_s + oneLine(t.cpuInfo);
    point.load = BenchLoad::StaticBatch;
    point.batch = 1;  // llama-bench times one sequence
    point.contextDepth = t.depth.value_or(0);
    point.tensorParallel = 1;
    if (t.splitMode == u"row")
        point.notes << u"split_mode row: matrices split by rows over the visible GPUs (their number is not recorded)"_s;
}

// What was timed: a prefill (pp), a decode (tg, after n_depth tokens) or both in one (pp+tg).
void setTimings(const TestRecord& t, BenchPoint& point)
{
    if (t.prompt > 0 && t.generated == 0) {
        point.inputTokens = static_cast<double>(t.prompt);
        point.outputTokens = 0.0;
        point.prefill.mean = t.seconds;
        point.prefillTokensPerSecond = t.rate;
        if (t.ubatch)
            point.notes << u"the prompt was processed in chunks of "_s + QString::number(*t.ubatch) +
                               u" tokens (n_ubatch)"_s;
    } else if (t.prompt == 0) {
        point.inputTokens = static_cast<double>(point.contextDepth.value_or(0));
        point.outputTokens = static_cast<double>(t.generated);
        point.outputTokensPerSecond = t.rate;
        point.tpot.mean = t.seconds / static_cast<double>(t.generated);
        point.latency.mean = t.seconds;
    } else {
        point.inputTokens = static_cast<double>(t.prompt);
        point.outputTokens = static_cast<double>(t.generated);
        point.latency.mean = t.seconds;
        point.outputTokensPerSecond = static_cast<double>(t.generated) / t.seconds;
        point.notes << u"pp+tg test: output tokens per second = n_gen / avg_ns, prefill included (avg_ts counts "
                       "prompt and generated tokens together)"_s;
    }
}

// The weights' bits per parameter, the llama.cpp build and what the test does not record.
void addBuildNotes(const TestRecord& t, BenchPoint& point)
{
    if (point.weightBytes && point.params && *point.params > 0)
        point.notes << u"weights "_s +
                           shortNumber(8.0 * static_cast<double>(*point.weightBytes) /
                                       static_cast<double>(*point.params)) +
                           u" bits per parameter (model_size / model_n_params)"_s;
    if (!t.build.isEmpty())
        point.notes << u"llama.cpp build "_s + (t.buildNumber ? QString::number(*t.buildNumber) + u' ' : QString()) +
                           u'(' + oneLine(t.build) + u')';
    if (point.model.isEmpty())
        point.unknown << u"model"_s;
    if (point.gpu.isEmpty())
        point.unknown << u"GPU"_s;
    if (point.weightFormat.isEmpty())
        point.unknown << u"weight format"_s;
}

// One test into a point; nullopt when it was skipped (added to result) or on error (fields not ok).
template <typename Fields>
std::optional<BenchPoint> readTest(Fields& fields, int record, int line, BenchImport& result)
{
    const QString version = versionOf(fields);
    if (!result.versions.contains(version))
        result.versions << version;
    BenchPoint point;
    point.record = record;
    point.line = line;
    const std::optional<TestRecord> test = readTestRecord(fields, point);
    if (!test)
        return std::nullopt;
    point.label = testLabel(*test);
    const QString what = u"test "_s + QString::number(record) + u" ("_s + point.label + u')';
    if (test->prompt == 0 && test->generated == 0) {
        result.skipped.push_back({record, line, what, u"neither prompt nor generated tokens (n_prompt = n_gen = 0)"_s});
        return std::nullopt;
    }
    if (test->seconds <= 0 || test->rate <= 0) {
        result.skipped.push_back({record, line, what, u"avg_ns or avg_ts is 0: nothing was timed"_s});
        return std::nullopt;
    }
    describeSetup(*test, point);
    setTimings(*test, point);
    addBuildNotes(*test, point);
    return point;
}

BenchImport emptyImport(BenchFormat format)
{
    BenchImport result;
    result.format = format;
    result.engine = u"llama.cpp"_s;
    return result;
}

}  // namespace

Result<BenchImport> parseLlamaBenchJson(const QByteArray& utf8)
{
    JsonReadOptions options;
    options.skipKeys = {u"samples_ns"_s, u"samples_ts"_s};
    auto values = readJsonValues(utf8, options);
    if (!values)
        return values.error();
    // -o json: one list of tests; -o jsonl: one test object per line.
    std::vector<const JsonNode*> tests;
    const std::vector<JsonNode>& top = values.value();
    if (top.size() == 1 && top.front().isArray()) {
        for (const JsonNode& item : top.front().items())
            tests.push_back(&item);
    } else {
        for (const JsonNode& item : top)
            tests.push_back(&item);
    }
    BenchImport result = emptyImport(BenchFormat::LlamaBenchJson);
    int record = 0;
    for (const JsonNode* test : tests) {
        ++record;
        if (!test->isObject())
            return makeError(Error::Code::Schema, test->location() + u"test "_s + QString::number(record) + u" is "_s +
                                                      test->describe() + u"; llama-bench writes one object per test"_s);
        Problem problem;
        JsonTestFields fields(*test, QString(), problem, ReadMode::Located);
        std::optional<BenchPoint> point = readTest(fields, record, test->line(), result);
        if (fields.failed())
            return fields.error();
        if (const JsonNode* samples = test->find(u"samples_ns"); point && samples && samples->isArray())
            point->requests = static_cast<std::int64_t>(samples->size());
        if (point)
            result.points.push_back(std::move(*point));
    }
    if (tests.empty())
        result.notes << u"the list of tests is empty"_s;
    return result;
}

Result<BenchImport> parseLlamaBenchCsv(const QString& text)
{
    const auto records = readCsv(text);
    if (!records)
        return records.error();
    const std::vector<CsvRecord>& rows = records.value();
    if (rows.empty())
        return makeError(Error::Code::Parse, lineColumn(1, 1) + u": no header line"_s);
    const CsvRecord& header = rows.front();
    QHash<QString, qsizetype> columns;
    for (qsizetype i = 0; i < header.size(); ++i) {
        const QString name = header.value(i).trimmed();
        if (columns.contains(name))
            return makeError(Error::Code::Parse, lineColumn(header.line, header.columnOf(i)) + u": the column \""_s +
                                                     oneLine(name.left(40)) + u"\" appears twice in the header"_s);
        columns.insert(name, i);
    }
    for (const QString& required : {u"n_prompt"_s, u"n_gen"_s, u"avg_ns"_s, u"avg_ts"_s, u"model_type"_s}) {
        if (!columns.contains(required))
            return makeError(Error::Code::Schema, lineColumn(header.line, 1) + u": the header has no \""_s + required +
                                                      u"\" column; llama-bench -o csv writes n_prompt, n_gen, "
                                                      "avg_ns, avg_ts and model_type"_s);
    }
    BenchImport result = emptyImport(BenchFormat::LlamaBenchCsv);
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const CsvRecord& row = rows[r];
        const int record = static_cast<int>(r);
        if (row.size() != header.size())
            return makeError(Error::Code::Parse,
                             lineColumn(row.line, row.columnOf(std::min(row.size(), header.size()))) +
                                 u": the row has "_s + QString::number(row.size()) + u" fields, the header "_s +
                                 QString::number(header.size()));
        CsvFields fields(columns, row);
        std::optional<BenchPoint> point = readTest(fields, record, row.line, result);
        if (fields.failed())
            return fields.error();
        if (point)
            result.points.push_back(std::move(*point));
    }
    if (rows.size() == 1)
        result.notes << u"the file has a header and no tests"_s;
    return result;
}

}  // namespace ridgeline
