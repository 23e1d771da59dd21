// The strict reader of Ridgeline's own files: what it refuses (duplicate and unknown keys, wrong types, numbers out
// of range, too deep or broken nesting) and that every message names the field by its path.
#include "core/json/strict_reader.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

std::string messageOf(const Error& error)
{
    return error.message.toStdString();
}

// Reads {"kernels": [{"name": ..., "gflops": ...}, ...], "note": ...} the way the session reader reads its
// lists: a required name, an optional gflops up to 1e6, an optional note; every object's unknown keys refused.
struct Kernel {
    QString name;
    double gflops = 0.0;
};

std::optional<Error> readKernels(const QByteArray& json, std::vector<Kernel>* out = nullptr)
{
    const Result<JsonNode> root = parseStrictObject(json);
    if (!root)
        return root.error();
    Problem problem;
    ObjectReader in(root.value(), QString(), problem);
    std::vector<Kernel> kernels = readEntries<Kernel>(in, "kernels"_L1, 4, Need::Required, [](ObjectReader& k) {
        Kernel kernel;
        kernel.name = k.text("name"_L1, Need::Required);
        kernel.gflops = k.number("gflops"_L1, 1e6);
        return kernel;
    });
    in.text("note"_L1);
    in.rejectUnknownKeys();
    if (problem.found())
        return problem.error();
    if (out)
        *out = std::move(kernels);
    return std::nullopt;
}

}  // namespace

TEST(StrictJson, ReadsAWellFormedFileFieldByField)
{
    std::vector<Kernel> kernels;
    const auto error = readKernels(R"({"kernels": [{"name": "triad", "gflops": 12.5}, {"name": "gemm"}],
                                       "note": "ok"})",
                                   &kernels);
    ASSERT_FALSE(error) << messageOf(*error);
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].name, u"triad"_s);
    EXPECT_DOUBLE_EQ(kernels[0].gflops, 12.5);
    EXPECT_EQ(kernels[1].name, u"gemm"_s);
    EXPECT_DOUBLE_EQ(kernels[1].gflops, 0.0);  // absent optional number: 0, no problem
}

TEST(StrictJson, RefusesADuplicateKeyWithItsPathAndPlace)
{
    const QByteArray json =
        "{\n  \"kernels\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\", \"name\": \"c\"}\n  ]\n}";
    const Result<JsonNode> parsed = parseStrictJson(json);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().code, Error::Code::Parse);
    EXPECT_EQ(parsed.error().message, u"line 4, column 19: duplicate key kernels[1].name"_s);
}

TEST(StrictJson, SeesAnEscapedKeyAsTheSameKey)
{
    // "\u0067flops" is "gflops": Qt would keep the second silently.
    const Result<JsonNode> parsed = parseStrictJson(R"({"gflops": 1, "\u0067flops": 2})");
    ASSERT_FALSE(parsed);
    EXPECT_TRUE(parsed.error().message.startsWith(u"line 1, column 15: duplicate key gflops"_s))
        << messageOf(parsed.error());
}

TEST(StrictJson, AllowsTheSameKeyInSiblingAndNestedObjects)
{
    const Result<JsonNode> parsed =
        parseStrictJson(R"({"a": {"name": 1, "b": {"name": 2}}, "list": [{"name": 3}, {"name": 4}], "name": 5})");
    EXPECT_TRUE(parsed) << messageOf(parsed.error());
}

TEST(StrictJson, ABraceInsideAStringIsNoNesting)
{
    // Strings holding quotes, braces and commas must not confuse the duplicate scan.
    const Result<JsonNode> parsed = parseStrictJson(R"({"a": "{\"a\": 1, [", "b": "}", "c": ","})");
    EXPECT_TRUE(parsed) << messageOf(parsed.error());
}

TEST(StrictJson, RefusesAnUnknownKeyNamingItsPath)
{
    const auto top = readKernels(R"({"kernels": [], "nite": "typo"})");
    ASSERT_TRUE(top);
    EXPECT_EQ(top->code, Error::Code::Schema);
    EXPECT_EQ(top->message, u"unknown field nite"_s);

    const auto nested = readKernels(R"({"kernels": [{"name": "a"}, {"name": "b", "glops": 3}]})");
    ASSERT_TRUE(nested);
    EXPECT_EQ(nested->message, u"unknown field kernels[1].glops"_s);
}

TEST(StrictJson, CutsALongUnknownKeyInItsMessage)
{
    const QByteArray key(5000, 'k');
    const auto error = readKernels("{\"kernels\": [], \"" + key + "\": 1}");
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, u"unknown field "_s + QString(40, u'k') + u"..."_s);
}

TEST(StrictJson, RefusesWrongTypesSayingWhatWasFound)
{
    struct Case {
        const char* json;
        QString message;
    };
    const Case cases[] = {
        {R"({"kernels": {}})", u"kernels must be an array, got an object"_s},
        {R"({"kernels": [3]})", u"kernels[0] must be an object, got 3"_s},
        {R"({"kernels": [{"name": 7}]})", u"kernels[0].name must be a string, got 7"_s},
        {R"({"kernels": [{"name": "a", "gflops": "fast"}]})",
         u"kernels[0].gflops must be a finite number >= 0, got the string \"fast\""_s},
        {R"({"kernels": [{"name": "a", "gflops": null}]})",
         u"kernels[0].gflops must be a finite number >= 0, got null"_s},
        {R"({"kernels": [], "note": true})", u"note must be a string, got true"_s},
    };
    for (const Case& c : cases) {
        const auto error = readKernels(c.json);
        ASSERT_TRUE(error) << c.json;
        EXPECT_EQ(error->code, Error::Code::Schema) << c.json;
        EXPECT_EQ(error->message, c.message) << c.json;
    }
}

TEST(StrictJson, RefusesAMissingRequiredField)
{
    const auto list = readKernels(R"({"note": "no kernels"})");
    ASSERT_TRUE(list);
    EXPECT_EQ(list->message, u"missing required field kernels"_s);
    const auto name = readKernels(R"({"kernels": [{"name": "a"}, {"gflops": 1}]})");
    ASSERT_TRUE(name);
    EXPECT_EQ(name->message, u"missing required field kernels[1].name"_s);
}

TEST(StrictJson, RefusesNumbersOutOfRange)
{
    const auto negative = readKernels(R"({"kernels": [{"name": "a", "gflops": -1}]})");
    ASSERT_TRUE(negative);
    EXPECT_EQ(negative->code, Error::Code::Range);
    EXPECT_EQ(negative->message, u"kernels[0].gflops must be a finite number >= 0, got -1"_s);

    const auto huge = readKernels(R"({"kernels": [{"name": "a", "gflops": 2000000}]})");
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->code, Error::Code::Range);
    EXPECT_EQ(huge->message, u"kernels[0].gflops must be at most 1000000, got 2000000"_s);

    const auto many = readKernels(R"({"kernels": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"},
                                                  {"name": "e"}]})");
    ASSERT_TRUE(many);
    EXPECT_EQ(many->code, Error::Code::Range);
    EXPECT_EQ(many->message, u"kernels has 5 entries; at most 4 are allowed"_s);
}

TEST(StrictJson, IntegersMustBeWholeAndInRange)
{
    Problem problem;
    const Result<JsonNode> machine = parseStrictObject(R"({"cores": 2.5, "threads": 100000, "level": 2})");
    ObjectReader in(machine.value(), u"machine"_s, problem);
    EXPECT_EQ(in.smallInteger("level"_L1, 1, 4, 0), 2);
    EXPECT_FALSE(problem.found());

    EXPECT_EQ(in.smallInteger("cores"_L1, 1, 1024, -1), -1);  // the fallback, and the problem recorded
    ASSERT_TRUE(problem.found());
    EXPECT_EQ(problem.error().code, Error::Code::Schema);
    EXPECT_EQ(problem.error().message, u"machine.cores must be a whole number from 1 to 1024, got 2.5"_s);

    Problem range;
    const Result<JsonNode> threads = parseStrictObject(R"({"threads": 100000})");
    ObjectReader again(threads.value(), u"machine"_s, range);
    again.integer("threads"_L1, 1, 4096, 1);
    ASSERT_TRUE(range.found());
    EXPECT_EQ(range.error().code, Error::Code::Range);
    EXPECT_EQ(range.error().message, u"machine.threads must be a whole number from 1 to 4096, got 100000"_s);
}

TEST(StrictJson, KeepsTheFirstProblemOnly)
{
    Problem problem;
    const Result<JsonNode> root = parseStrictObject(R"({"a": "x", "b": "y", "c": 1})");
    ObjectReader in(root.value(), QString(), problem);
    in.number("a"_L1, 10.0);
    in.boolean("b"_L1, false);
    in.rejectUnknownKeys();
    ASSERT_TRUE(problem.found());
    EXPECT_EQ(problem.error().message, u"a must be a finite number >= 0, got the string \"x\""_s);
}

TEST(StrictJson, RefusesTextLongerThanAFileHolds)
{
    const QByteArray text(kMaxTextChars + 1, 'x');
    const auto error = readKernels("{\"kernels\": [{\"name\": \"" + text + "\"}]}");
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, Error::Code::Range);
    EXPECT_EQ(error->message, u"kernels[0].name is 4097 characters long; at most 4096 are allowed"_s);
}

TEST(StrictJson, ReadsOnlyRfc3339Times)
{
    Problem problem;
    const Result<JsonNode> root = parseStrictObject(R"({"created": "2026-12-02T16:44:16Z", "edited": "2026-12-02"})");
    ObjectReader in(root.value(), QString(), problem);
    EXPECT_EQ(in.dateTime("created"_L1), QDateTime(QDate(2026, 12, 2), QTime(16, 44, 16), Qt::UTC));
    EXPECT_FALSE(problem.found());
    EXPECT_FALSE(in.dateTime("edited"_L1).isValid());
    ASSERT_TRUE(problem.found());
    EXPECT_EQ(problem.error().message,
              u"edited must be an ISO 8601 date and time such as \"2026-12-02T16:44:16Z\", got the string "
              "\"2026-12-02\""_s);
}

TEST(StrictJson, RefusesBrokenSyntaxWithLineAndColumn)
{
    const Result<JsonNode> truncated = parseStrictJson("{\n  \"kernels\": [\n    {\"name\": \"a\"}\n");
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().code, Error::Code::Parse);
    // Named where the list that is never closed opens.
    EXPECT_EQ(truncated.error().message, u"line 2, column 14: a list that is never closed (truncated file?)"_s);
}

TEST(StrictJson, RefusesNumbersJsonCannotHold)
{
    const QString python = u" is not a JSON number (Python writes NaN and Infinity; they are not allowed here)"_s;
    const std::pair<const char*, QString> cases[] = {
        {R"({"gflops": NaN})", u"line 1, column 12: NaN"_s + python},
        {R"({"gflops": Infinity})", u"line 1, column 12: Infinity"_s + python},
        {R"({"gflops": -Infinity})", u"line 1, column 12: -Infinity"_s + python},
        {R"({"gflops": 1e999})", u"line 1, column 12: the number 1e999 is out of the range of a double"_s},
    };
    for (const auto& [json, message] : cases) {
        const Result<JsonNode> refused = parseStrictJson(json);
        ASSERT_FALSE(refused) << json;
        EXPECT_EQ(refused.error().message, message) << json;
    }
}

TEST(StrictJson, RefusesBytesThatAreNotUtf8AndASecondDocument)
{
    // An overlong "/" (C0 AF), a UTF-8-encoded surrogate (ED A0 80), and a sequence cut short (E2 82).
    for (const QByteArray& bad : {QByteArray("\xC0\xAF"), QByteArray("\xED\xA0\x80"), QByteArray("\xE2\x82")}) {
        const Result<JsonNode> refused = parseStrictJson("{\n  \"name\": \"a" + bad + "\"}");
        ASSERT_FALSE(refused);
        EXPECT_TRUE(refused.error().message.startsWith(u"line 2, column 13: the byte 0x"_s))
            << messageOf(refused.error());
        EXPECT_TRUE(refused.error().message.endsWith(u" is not UTF-8 text (a binary file, or another encoding?)"_s));
    }
    const Result<JsonNode> two = parseStrictJson("{\"a\": 1}\n{\"a\": 2}");
    ASSERT_FALSE(two);
    EXPECT_EQ(two.error().message, u"line 2, column 1: a second JSON value after the end of the document"_s);
}

TEST(StrictJson, RefusesUtf16AndNulBytes)
{
    const QByteArray utf16("\xFF\xFE{\0\"\0a\0\"\0:\0 \0001\0}\0", 18);
    const Result<JsonNode> parsed = parseStrictJson(utf16);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().message, u"not UTF-8 text: it contains NUL bytes (UTF-16 or a binary file?)"_s);
}

TEST(StrictJson, RefusesDeepNestingWithoutCrashing)
{
    const int depth = 5000;
    const QByteArray nested = QByteArray(depth, '[') + QByteArray(depth, ']');
    const Result<JsonNode> parsed = parseStrictJson(nested);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().code, Error::Code::Parse);
    EXPECT_EQ(parsed.error().message, u"line 1, column 1025: lists and objects nested deeper than 1024 levels"_s);
}

TEST(StrictJson, NamesAPathThroughNestedObjectsAndArrays)
{
    Problem problem;
    const Result<JsonNode> file = parseStrictObject(R"({"machine": {"caches": [{"level": 1}, {"level": "L2"}]}})");
    ObjectReader root(file.value(), QString(), problem);
    const JsonNode* machine = root.object("machine"_L1, Need::Required);
    ASSERT_TRUE(machine);
    ObjectReader in(*machine, root.where("machine"_L1), problem);
    readEntries<int>(in, "caches"_L1, 16, Need::Required,
                     [](ObjectReader& cache) { return cache.smallInteger("level"_L1, 1, 4, 0, Need::Required); });
    ASSERT_TRUE(problem.found());
    EXPECT_EQ(problem.error().message,
              u"machine.caches[1].level must be a whole number from 1 to 4, got the string \"L2\""_s);
}

TEST(StrictJson, TheTopLevelMustBeAnObject)
{
    const Result<JsonNode> list = parseStrictObject("[1, 2]");
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().code, Error::Code::Schema);
    EXPECT_EQ(list.error().message, u"the top level must be a JSON object, got an array"_s);
}

TEST(StrictJson, TheHeaderNamesAForeignOrNewerFile)
{
    const auto header = [](const char* json) {
        Problem problem;
        const Result<JsonNode> root = parseStrictObject(json);
        ObjectReader in(root.value(), QString(), problem);
        const int schema = readHeader(in, u"ridgeline-deck"_s, u"deck"_s, 2);
        return std::make_pair(schema, problem.found() ? problem.error().message : QString());
    };
    EXPECT_EQ(header(R"({"format": "ridgeline-deck", "schema_version": 2})"), std::make_pair(2, QString()));
    EXPECT_EQ(header(R"({"schema_version": 1})"),
              std::make_pair(0, u"not a Ridgeline deck: no \"format\": \"ridgeline-deck\" field"_s));
    EXPECT_EQ(header(R"({"format": "ridgeline-session", "schema_version": 1})"),
              std::make_pair(0,
                             u"not a Ridgeline deck: format is the string \"ridgeline-session\", expected "
                             "\"ridgeline-deck\""_s));
    EXPECT_EQ(header(R"({"format": "ridgeline-deck", "schema_version": 3})"),
              std::make_pair(0, u"written by a newer Ridgeline (schema 3); this build reads up to 2"_s));
    EXPECT_EQ(header(R"({"format": "ridgeline-deck", "schema_version": 0})"),
              std::make_pair(0, u"schema_version 0 is not a Ridgeline deck schema; this build reads schemas 1 to 2"_s));
    EXPECT_EQ(header(R"({"format": "ridgeline-deck", "schema_version": 1.5})"),
              std::make_pair(0, u"schema_version must be an integer, got 1.5"_s));
}

// A line break escaped inside a string is a raw one once read; quoted into a message it would make two lines. Each
// reader of these files (sessions, decks, catalogs) gets one-line messages from the reader itself, the controls
// escaped.
TEST(StrictJson, AControlCharacterFromTheFileStaysEscapedInAOneLineMessage)
{
    // JSON writes control characters escaped: a raw one inside a string (a value or a key) is refused where it
    // stands, in one line that names it by code point rather than quoting it.
    for (const QByteArray& json : {QByteArray("{\"format\": \"ridgeline-gpu-cat\nalog\", \"schema_version\": 1}"),
                                   QByteArray("{\"kernels\": [{\"name\": \"a\", \"gflops\x01\r\": 1}]}")}) {
        const Result<JsonNode> parsed = parseStrictObject(json);
        ASSERT_FALSE(parsed) << json.toStdString();
        const QString message = parsed.error().message;
        EXPECT_TRUE(message.contains(u"a raw control character (U+00"_s)) << messageOf(parsed.error());
        for (const QChar c : message)
            EXPECT_GE(c.unicode(), 0x20) << messageOf(parsed.error());
    }

    // Escaped in the file, the character reaches the key; the messages that quote the key escape it again.
    const auto unknown = readKernels("{\"kernels\": [{\"name\": \"a\", \"gflops\\u0001\\r\": 1}]}");
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->message, u"unknown field kernels[0].gflops\\u0001\\u000d"_s);

    const Result<JsonNode> twice = parseStrictJson("{\"a\\tb\": 1, \"a\\tb\": 2}");
    ASSERT_FALSE(twice);
    EXPECT_FALSE(twice.error().message.contains(u'\t')) << messageOf(twice.error());
    EXPECT_TRUE(twice.error().message.contains(u"duplicate key a\\u0009b"_s)) << messageOf(twice.error());
}

// Another program's results: the same reader in Located mode. Null and NaN read as absent (NaN noted), unknown keys
// are that program's business, and a message starts with the bad value's line and column.
TEST(StrictJson, LocatedModeSaysWhereAndWhatWasExpected)
{
    JsonReadOptions python;  // Python's NaN tokens, as a serving benchmark writes them
    const Result<std::vector<JsonNode>> values = readJsonValues(
        "{\"mean_ttft_ms\": NaN, \"model\": null, \"extra\": 1,\n \"metrics\": {\"completed\": 2.5}}", python);
    ASSERT_TRUE(values) << messageOf(values.error());
    Problem problem;
    ObjectReader run(values.value().front(), QString(), problem, ReadMode::Located);
    EXPECT_FALSE(run.quantity(u"mean_ttft_ms", Quantity::Milliseconds));
    EXPECT_EQ(run.text(u"model"), QString());
    EXPECT_FALSE(run.has(u"model"));
    run.rejectUnknownKeys();
    EXPECT_FALSE(problem.found());
    EXPECT_EQ(problem.nanKeys(), QStringList{u"mean_ttft_ms"_s});

    const JsonNode* metrics = run.object(u"metrics");
    ASSERT_TRUE(metrics);
    ObjectReader nested = run.nested(*metrics, u"metrics");
    EXPECT_FALSE(nested.count(u"completed"));
    ASSERT_TRUE(problem.found());
    EXPECT_EQ(problem.error().message,
              u"line 2, column 27: \"metrics.completed\" is the number 2.5; expected a whole number from 0 to "
              "1125899906842624"_s);

    Problem missing;
    ObjectReader again(values.value().front(), QString(), missing, ReadMode::Located);
    again.refuseMissing(u"duration", u"how long the run took"_s);
    EXPECT_EQ(missing.error().message, u"line 1, column 1: the object has no \"duration\" (how long the run took)"_s);
}
