// The split reader of a file's one large array (a session's kernels): for every input, split or not, it accepts
// what parseStrictObject accepts, refuses what it refuses with the same message, and reads the same entries.
#include "core/json/split_object.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

// A value as text, members in file order, so that two trees compare; `kernels` stands in for the root's
// "kernels" member when the file was split.
QString text(const JsonNode& value, const QString* kernels = nullptr)
{
    QString out;
    if (value.isArray()) {
        for (const JsonNode& item : value.items())
            out += (out.isEmpty() ? u"["_s : u","_s) + text(item);
        return out.isEmpty() ? u"[]"_s : out + u']';
    }
    if (value.isObject()) {
        for (const JsonNode::Member& member : value.members())
            out += (out.isEmpty() ? u"{"_s : u","_s) + member.first + u':' +
                   (kernels && member.first == "kernels"_L1 ? *kernels : text(member.second));
        return out.isEmpty() ? u"{}"_s : out + u'}';
    }
    return value.isString() ? u'"' + value.string() + u'"' : describeJson(value);
}

// The whole document the split one stands for: the entries put back into the root.
QString reassembled(const SplitObject& file)
{
    if (!file.isSplit())
        return text(file.root());
    QString entries;
    for (qsizetype i = 0; i < file.entryCount(); ++i)
        entries += (i == 0 ? u"["_s : u","_s) + text(file.entry(i));
    entries = entries.isEmpty() ? u"[]"_s : entries + u']';
    return text(file.root(), &entries);
}

void expectSameAsWhole(const QByteArray& json)
{
    SCOPED_TRACE(json.toStdString());
    const Result<JsonNode> whole = parseStrictObject(json);
    const Result<SplitObject> split = parseStrictObjectSplit(json, "kernels"_L1);
    ASSERT_EQ(whole.ok(), split.ok());
    if (!whole.ok()) {
        EXPECT_EQ(whole.error().message, split.error().message);
        EXPECT_EQ(whole.error().code, split.error().code);
        return;
    }
    EXPECT_EQ(reassembled(split.value()), text(whole.value()));
}

TEST(SplitObject, SplitsAPlainArrayOfObjectsAndReadsEachEntry)
{
    const QByteArray json = R"({"title": "t", "kernels": [ {"name": "a", "gflops": 1},
        {"name": "b ]}, \"[{", "gflops": 2.5e3} ], "tail": [1, {"x": "]"}]})";
    const Result<SplitObject> split = parseStrictObjectSplit(json, "kernels"_L1);
    ASSERT_TRUE(split.ok()) << split.error().message.toStdString();
    ASSERT_TRUE(split.value().isSplit());
    const JsonNode* kernels = split.value().root().find(u"kernels");
    ASSERT_TRUE(kernels && kernels->isArray() && kernels->isSkipped());
    EXPECT_EQ(kernels->size(), 2);
    EXPECT_TRUE(kernels->items().empty());
    ASSERT_EQ(split.value().entryCount(), 2);
    const JsonNode entry = split.value().entry(1);
    ASSERT_TRUE(entry.find(u"name") && entry.find(u"gflops"));
    EXPECT_EQ(entry.find(u"name")->string(), uR"(b ]}, "[{)"_s);
    EXPECT_EQ(entry.find(u"gflops")->number(), 2500.0);
    expectSameAsWhole(json);
}

TEST(SplitObject, AcceptsAndRefusesExactlyWhatTheWholeParserDoes)
{
    const QList<QByteArray> inputs{
        R"({"kernels": []})",
        R"({"kernels": [{}], "more": {}})",
        R"({})",
        R"({"kernels": [{"a": 1},]})",                     // a trailing comma
        R"({"kernels": [{"a": 1} {"a": 2}]})",             // a missing comma
        R"({"kernels": [{"a": 1}, 2, {"a": 3}]})",         // an entry that is not an object
        R"({"kernels": [{"a": 1, "a": 2}]})",              // a key twice in an entry
        R"({"kernels": [{"a": 1}], "kernels": []})",       // the array's key twice
        R"({"kern\u0065ls": [{"a": 1}], "kernels": []})",  // the same key, once escaped
        R"({"kern\u0065ls": [{"a": 1}]})",
        R"({"kernels": [{"a": NaN}]})",
        R"({"kernels": [{"a": 1e999}]})",
        R"({"kernels": [{"a": "x)"
        "\x01"
        R"("}]})",  // a raw control character in a string
        R"({"kernels": [{"a": "\u00e9\ud83d\ude00"}]})",
        "{\"kernels\": [{\"a\": 1}\0, {\"a\": 2}]}",
        "{\"kernels\": [{\"a\": \"\xff\"}]}",  // not UTF-8
        R"({"kernels": [{"a": 1}]} trailing)",
        R"({"kernels": [{"a": 1}])",  // cut short
        R"({"kernels": [{"a": [}]})",
        R"({"kernels": {"a": 1}})",                                  // an object where the array goes
        R"({"x": {"kernels": [{"a": 1}]}, "kernels": [{"b": 2}]})",  // the key nested too
        R"(["kernels", {"a": 1}])",
        "\xEF\xBB\xBF{\"kernels\": []}",
        " \t\r\n{ \"kernels\" :\n[\n{\"a\":1}\n,\n{\"a\":2}\n]\n}\n ",
    };
    for (const QByteArray& input : inputs)
        expectSameAsWhole(input);
}

TEST(SplitObject, EveryCutOfAValidFileIsJudgedAsTheWholeParserJudgesIt)
{
    const QByteArray json = R"({"a": 1, "kernels": [{"n": "x", "v": [1, 2]}, {"n": "y\"]", "v": {}}], "z": null})";
    for (qsizetype length = 0; length <= json.size(); ++length)
        expectSameAsWhole(json.left(length));
}

}  // namespace
