// The JSON reader of the benchmark importers: Python's NaN / Infinity tokens, positions, and what it refuses.
#include "core/json/json_reader.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

std::vector<JsonNode> read(const QByteArray& text, const JsonReadOptions& options = {})
{
    auto values = readJsonValues(text, options);
    EXPECT_TRUE(values.ok()) << (values.ok() ? "" : values.error().message.toStdString());
    return values.ok() ? std::move(values).value() : std::vector<JsonNode>{};
}

QString refusal(const QByteArray& text, const JsonReadOptions& options = {})
{
    const auto values = readJsonValues(text, options);
    EXPECT_FALSE(values.ok()) << "accepted: " << text.left(80).toStdString();
    return values.ok() ? QString() : values.error().message;
}

TEST(BenchJson, ReadsPythonsNanAndInfinityTokensAsNumbers)
{
    const auto values = read(R"({"request_rate": Infinity, "low": -Infinity, "mean": NaN, "n": 3})");
    ASSERT_EQ(values.size(), 1u);
    const JsonNode& root = values.front();
    ASSERT_TRUE(root.find(u"request_rate")->isNumber());
    EXPECT_TRUE(std::isinf(root.find(u"request_rate")->number()));
    EXPECT_GT(root.find(u"request_rate")->number(), 0);
    EXPECT_LT(root.find(u"low")->number(), 0);
    EXPECT_TRUE(std::isnan(root.find(u"mean")->number()));
    EXPECT_TRUE(root.find(u"n")->isInteger());
    EXPECT_EQ(root.find(u"n")->number(), 3.0);
}

TEST(BenchJson, KeepsTheLineAndColumnOfEveryValueCountingCharactersNotBytes)
{
    const auto values = read("{\n  \"\xC3\xA9t\xC3\xA9\": 1,\n  \"b\": [true, null]\n}");
    ASSERT_EQ(values.size(), 1u);
    const JsonNode* a = values.front().find(u"\u00e9t\u00e9");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->line(), 2);
    EXPECT_EQ(a->column(), 10);  // "  "été": 1: the 1 is the 10th character, the 12th byte
    const JsonNode* b = values.front().find(u"b");
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->items().size(), 2u);
    EXPECT_EQ(b->items()[1].line(), 3);
    EXPECT_EQ(b->items()[1].column(), 15);
    EXPECT_TRUE(b->items()[1].isNull());
}

TEST(BenchJson, ReadsOneValuePerLineAsJsonLines)
{
    const auto values = read("{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": 3}\n");
    ASSERT_EQ(values.size(), 3u);
    EXPECT_EQ(values[2].find(u"a")->number(), 3.0);
    EXPECT_EQ(values[2].line(), 4);
}

TEST(BenchJson, DecodesEscapesAndSurrogatePairsAndReplacesLoneSurrogates)
{
    const auto values = read(R"(["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00", "x\ud800y", "\udc00"])");
    ASSERT_EQ(values.size(), 1u);
    const auto& items = values.front().items();
    ASSERT_EQ(items.size(), 4u);
    EXPECT_EQ(items[0].string(), QStringLiteral("a\"b\\c/\n\t"));
    EXPECT_EQ(items[1].string(), QString::fromUtf8("\xC3\xA9\xF0\x9F\x98\x80"));
    EXPECT_EQ(items[2].string(), QStringView(u"x\uFFFDy").toString());
    EXPECT_EQ(items[3].string(), QStringView(u"\uFFFD").toString());
}

TEST(BenchJson, SkippedKeysAreCheckedAndCountedButNotStored)
{
    JsonReadOptions options;
    options.skipKeys = {QStringLiteral("itls")};
    const auto values = read(R"({"itls": [[0.1, 0.2], [0.3]], "n": 1})", options);
    ASSERT_EQ(values.size(), 1u);
    const JsonNode* itls = values.front().find(u"itls");
    ASSERT_NE(itls, nullptr);
    EXPECT_TRUE(itls->isSkipped());
    EXPECT_TRUE(itls->isArray());
    EXPECT_EQ(itls->size(), 2);
    EXPECT_TRUE(itls->items().empty());
    // ... but their syntax is still checked.
    EXPECT_TRUE(refusal(R"({"itls": [[0.1, 0.2], [0.3,]], "n": 1})", options).contains(u"trailing comma"));
}

TEST(BenchJson, RefusesDuplicateKeysInSmallAndLargeObjects)
{
    EXPECT_EQ(refusal(R"({"a": 1, "b": 2, "a": 3})"), QStringLiteral("line 1, column 18: duplicate key a"));
    QByteArray large = "{";
    for (int i = 0; i < 40; ++i)
        large += "\"k" + QByteArray::number(i) + "\": 0, ";
    large += "\"k33\": 1}";
    EXPECT_TRUE(refusal(large).contains(u"duplicate key k33"));
}

TEST(BenchJson, RefusesWhatJsonForbidsWithItsPosition)
{
    EXPECT_TRUE(refusal("{\"a\": \"x\ny\"}").contains(u"line 1, column 9: a raw control character (U+000a)"));
    EXPECT_TRUE(refusal(R"({"a": 01})").contains(u"leading zero"));
    EXPECT_TRUE(refusal(R"({"a": 1e999})").contains(u"the number 1e999 is out of the range of a double"));
    EXPECT_TRUE(refusal(R"({"a": 1.})").contains(u"a '.' that is not followed by digits"));
    EXPECT_TRUE(refusal(R"({"a": -})").contains(u"a '-' that is not followed by digits"));
    EXPECT_TRUE(refusal(R"({"a": inf})").contains(u"unknown word \"inf\""));
    EXPECT_TRUE(refusal(R"({"a": 'x'})").contains(u"unexpected '''"));
    EXPECT_TRUE(refusal(R"({"a": "\x41"})").contains(u"an unknown escape \\x"));
    EXPECT_TRUE(refusal(R"({"a": "\u12"})").contains(u"four hexadecimal digits"));
    EXPECT_TRUE(refusal(R"({a: 1})").contains(u"expected a key in quotes"));
    EXPECT_TRUE(refusal(R"({"a" 1})").contains(u"expected ':' after the key \"a\""));
    EXPECT_TRUE(refusal(R"([1 2])").contains(u"expected ',' or ']' in a list"));
    EXPECT_TRUE(refusal(R"({"a": 1,})").contains(u"trailing comma"));
    EXPECT_TRUE(refusal(R"({"a": 12abc})").contains(u"right after a number"));
    EXPECT_TRUE(refusal(R"({"a": truex})").contains(u"unknown word \"truex\""));
}

TEST(BenchJson, RefusesTruncatedFilesNamingWhatIsOpen)
{
    EXPECT_TRUE(refusal(R"({"a": [1, 2)").contains(u"line 1, column 7: a list that is never closed"));
    EXPECT_TRUE(refusal(R"({"a": "abc)").contains(u"line 1, column 7: a string that is never closed"));
    EXPECT_TRUE(refusal(R"({"a": )").contains(u"the file ends where a value should be"));
    EXPECT_TRUE(refusal(R"({"a": 1)").contains(u"an object that is never closed"));
}

TEST(BenchJson, RefusesDeepNestingAndTooManyValuesInsteadOfExhaustingMemory)
{
    EXPECT_TRUE(refusal(QByteArray(300, '[') + QByteArray(300, ']')).contains(u"nested deeper than 256 levels"));
    JsonReadOptions options;
    options.maxValues = 1000;
    QByteArray many = "[";
    for (int i = 0; i < 1000; ++i)
        many += "0,";
    many += "0]";
    EXPECT_TRUE(refusal(many, options).contains(u"more than 1,000 JSON values"));
}

TEST(BenchJson, AnEmptyOrBlankInputHoldsNoValue)
{
    EXPECT_EQ(refusal("  \n\t "), QStringLiteral("line 1, column 1: the file holds no JSON value"));
    EXPECT_TRUE(refusal("]").contains(u"unexpected ']'"));
}

TEST(BenchJson, DescribesValuesForMessages)
{
    const auto values =
        read(R"([null, true, 2.5, NaN, -Infinity, "a long string that goes on and on and on forever", {}, []])");
    ASSERT_EQ(values.size(), 1u);
    const auto& items = values.front().items();
    EXPECT_EQ(items[0].describe(), QStringLiteral("null"));
    EXPECT_EQ(items[1].describe(), QStringLiteral("true"));
    EXPECT_EQ(items[2].describe(), QStringLiteral("the number 2.5"));
    EXPECT_EQ(items[3].describe(), QStringLiteral("NaN"));
    EXPECT_EQ(items[4].describe(), QStringLiteral("-Infinity"));
    EXPECT_EQ(items[5].describe(), QStringLiteral("the string \"a long string that goes on and on and on...\""));
    EXPECT_EQ(items[6].describe(), QStringLiteral("an object"));
    EXPECT_EQ(items[7].describe(), QStringLiteral("a list"));
}

}  // namespace
}  // namespace ridgeline
