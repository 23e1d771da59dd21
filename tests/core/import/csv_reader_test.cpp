// The shared RFC 4180 reader: quotes, CRLF, embedded newlines, and where each field starts.
#include "core/import/csv_reader.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(ImportCsvReader, QuotedFieldsWithEscapedQuotesCommasAndNewlines)
{
    const auto records = readCsv(QStringLiteral("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",x,\r\n"));
    ASSERT_TRUE(records.ok()) << records.error().message.toStdString();
    ASSERT_EQ(records.value().size(), 2u);
    const CsvRecord& first = records.value()[0];
    ASSERT_EQ(first.size(), 3);
    EXPECT_EQ(first.value(1), QStringLiteral("b,c"));
    EXPECT_EQ(first.value(2), QStringLiteral("say \"hi\""));
    const CsvRecord& second = records.value()[1];
    EXPECT_EQ(second.line, 2);
    ASSERT_EQ(second.size(), 3);
    EXPECT_EQ(second.value(0), QStringLiteral("two\nlines"));
    EXPECT_EQ(second.fields[1].line, 3);  // after the embedded newline
    EXPECT_EQ(second.fields[1].column, 8);
    EXPECT_EQ(second.value(2), QString());
}

TEST(ImportCsvReader, ColumnsCountCharactersNotBytes)
{
    const auto records = readCsv(QStringLiteral("é€,x"));
    ASSERT_TRUE(records.ok());
    EXPECT_EQ(records.value()[0].fields[1].column, 4);
}

TEST(ImportCsvReader, BlankAndSkippedLinesAreDropped)
{
    CsvOptions options;
    options.skipLine = [](QStringView line, int) { return line.startsWith(u'#'); };
    const auto records = readCsv(QStringLiteral("# comment\n\na,b\n\n# more\nc,d"), options);
    ASSERT_TRUE(records.ok());
    ASSERT_EQ(records.value().size(), 2u);
    EXPECT_EQ(records.value()[0].line, 3);
    EXPECT_EQ(records.value()[1].line, 6);
}

TEST(ImportCsvReader, UnterminatedQuoteNamesWhereItOpened)
{
    const auto records = readCsv(QStringLiteral("a,b\nc,\"d,e\nf\n"));
    ASSERT_FALSE(records.ok());
    EXPECT_EQ(records.error().message,
              QStringLiteral("line 2, column 3: the quoted field starting here is never closed (truncated file?)"));
}

TEST(ImportCsvReader, TextAfterAClosingQuoteIsAnError)
{
    const auto records = readCsv(QStringLiteral("\"ab\"c,d"));
    ASSERT_FALSE(records.ok());
    EXPECT_TRUE(records.error().message.startsWith(QStringLiteral("line 1, column 5: text after the closing quote")));
}

TEST(ImportCsvReader, OversizedFieldIsRefused)
{
    CsvOptions options;
    options.maxFieldChars = 10;
    const auto records = readCsv(QStringLiteral("ok,0123456789abc"), options);
    ASSERT_FALSE(records.ok());
    EXPECT_TRUE(records.error().message.startsWith(QStringLiteral("line 1, column 4: a field longer than 10")));
}
