// The split reader of a file's one large array (a session's kernels): for every input, split or not, it accepts
// what parseStrictObject accepts, refuses what it refuses with the same message, and reads the same entries.
#include "core/json/split_object.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

// The whole document the split one stands for: the entries put back into the root.
QJsonObject reassembled(const SplitObject& file)
{
    if (!file.isSplit())
        return file.root();
    QJsonArray entries;
    for (qsizetype i = 0; i < file.entryCount(); ++i)
        entries.append(file.entry(i));
    QJsonObject root = file.root();
    root.insert("kernels"_L1, entries);
    return root;
}

void expectSameAsWhole(const QByteArray& json)
{
    SCOPED_TRACE(json.toStdString());
    const Result<QJsonObject> whole = parseStrictObject(json);
    const Result<SplitObject> split = parseStrictObjectSplit(json, "kernels"_L1);
    ASSERT_EQ(whole.ok(), split.ok());
    if (!whole.ok()) {
        EXPECT_EQ(whole.error().message, split.error().message);
        EXPECT_EQ(whole.error().code, split.error().code);
        return;
    }
    EXPECT_EQ(reassembled(split.value()), whole.value());
}

TEST(SplitObject, SplitsAPlainArrayOfObjectsAndReadsEachEntry)
{
    const QByteArray json = R"({"title": "t", "kernels": [ {"name": "a", "gflops": 1},
        {"name": "b ]}, \"[{", "gflops": 2.5e3} ], "tail": [1, {"x": "]"}]})";
    const Result<SplitObject> split = parseStrictObjectSplit(json, "kernels"_L1);
    ASSERT_TRUE(split.ok()) << split.error().message.toStdString();
    ASSERT_TRUE(split.value().isSplit());
    EXPECT_EQ(split.value().root().value("kernels"_L1), QJsonValue(QJsonArray()));
    ASSERT_EQ(split.value().entryCount(), 2);
    EXPECT_EQ(split.value().entry(1).value("name"_L1).toString(), uR"(b ]}, "[{)"_s);
    EXPECT_EQ(split.value().entry(1).value("gflops"_L1).toDouble(), 2500.0);
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
