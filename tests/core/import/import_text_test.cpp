// Numbers, units and text decoding shared by the importers.
#include "core/import/text/import_text.h"

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

QString parseError(const char* text, Thousands thousands = Thousands::Refuse)
{
    const auto number = parseNumber(QString::fromUtf8(text), thousands);
    return number.ok() ? QString() : number.error().message;
}

}  // namespace

TEST(ImportNumbers, PlainAndScientificNumbersParse)
{
    EXPECT_DOUBLE_EQ(parseNumber(u"12", Thousands::Refuse).value(), 12.0);
    EXPECT_DOUBLE_EQ(parseNumber(u" 1.5e3 ", Thousands::Refuse).value(), 1500.0);
    EXPECT_DOUBLE_EQ(parseNumber(u".25", Thousands::Refuse).value(), 0.25);
    EXPECT_DOUBLE_EQ(parseNumber(u"+3.", Thousands::Refuse).value(), 3.0);
}

TEST(ImportNumbers, ThousandsSeparatorsOnlyWhereAllowedAndWellGrouped)
{
    EXPECT_DOUBLE_EQ(parseNumber(u"1,234,567", Thousands::Comma).value(), 1234567.0);
    EXPECT_DOUBLE_EQ(parseNumber(u"50,331.65", Thousands::Comma).value(), 50331.65);
    EXPECT_TRUE(parseError("1,04,8576", Thousands::Comma).contains(QStringLiteral("must group 3 digits")));
    EXPECT_TRUE(parseError("1,234").contains(QStringLiteral("decimal comma")));
}

TEST(ImportNumbers, DecimalCommasAreNamedNotMisread)
{
    EXPECT_TRUE(parseError("1.234,5", Thousands::Comma).startsWith(QStringLiteral("a decimal comma in \"1.234,5\"")));
    EXPECT_TRUE(parseError("0,5", Thousands::Comma).startsWith(QStringLiteral("a decimal comma")));
    EXPECT_TRUE(parseError("0,5").startsWith(QStringLiteral("a decimal comma")));
}

TEST(ImportNumbers, NanInfNegativeEmptyAndOverflowAreRefused)
{
    EXPECT_TRUE(parseError("nan").startsWith(QStringLiteral("not a finite number")));
    EXPECT_TRUE(parseError("-inf").startsWith(QStringLiteral("not a finite number")));
    EXPECT_TRUE(parseError("Infinity").startsWith(QStringLiteral("not a finite number")));
    EXPECT_TRUE(parseError("-1").startsWith(QStringLiteral("a negative value")));
    EXPECT_TRUE(parseError("").startsWith(QStringLiteral("an empty value")));
    EXPECT_TRUE(parseError("1e999").startsWith(QStringLiteral("a number out of range")));
    EXPECT_TRUE(parseError("12 MB").startsWith(QStringLiteral("not a number")));
    EXPECT_TRUE(parseError("0x10").startsWith(QStringLiteral("not a number")));
}

TEST(ImportNumbers, ProfilerUnitsScaleToBaseUnits)
{
    EXPECT_EQ(unitScale(u"byte", u"byte"), 1.0);
    EXPECT_EQ(unitScale(u"Kbyte", u"byte"), 1e3);
    EXPECT_EQ(unitScale(u"Mbyte", u"byte"), 1e6);
    EXPECT_EQ(unitScale(u"Gbyte", u"byte"), 1e9);
    EXPECT_EQ(unitScale(u"Tbyte", u"byte"), 1e12);
    EXPECT_EQ(unitScale(u"nsecond", u"second"), 1e-9);
    EXPECT_EQ(unitScale(u"usecond", u"second"), 1e-6);
    EXPECT_EQ(unitScale(u"msecond", u"second"), 1e-3);
    EXPECT_EQ(unitScale(u"second", u"second"), 1.0);
    EXPECT_EQ(unitScale(u"inst", u"inst"), 1.0);
    EXPECT_EQ(unitScale(u"Kinst", u"inst"), 1e3);
    EXPECT_EQ(unitScale(u"Minst", u"inst"), 1e6);
    EXPECT_EQ(unitScale(u"", u"inst"), 1.0);
    EXPECT_EQ(unitScale(u"MB", u"byte"), 1e6);
    EXPECT_EQ(unitScale(u"B", u"byte"), 1.0);
    EXPECT_FALSE(unitScale(u"MB", u"inst").has_value());
    EXPECT_FALSE(unitScale(u"", u"byte").has_value());
    EXPECT_FALSE(unitScale(u"byte/second", u"byte").has_value());
    EXPECT_FALSE(unitScale(u"cycle", u"second").has_value());
    EXPECT_FALSE(unitScale(u"Xbyte", u"byte").has_value());
}

TEST(ImportText, BomIsDroppedAndBinaryOrOtherEncodingsAreNamed)
{
    EXPECT_EQ(decodeImportText(QByteArray("\xEF\xBB\xBF"
                                          "a,b"))
                  .value(),
              QStringLiteral("a,b"));
    EXPECT_EQ(decodeImportText(QByteArray(" \n\t")).error().message, QStringLiteral("the file is empty"));
    EXPECT_TRUE(decodeImportText(QByteArray("\xFF\xFE"
                                            "a\0",
                                            4))
                    .error()
                    .message.contains(QStringLiteral("UTF-16")));
    EXPECT_EQ(decodeImportText(QByteArray("ab\ncd\0e", 7)).error().message,
              QStringLiteral("line 2, column 3: a NUL byte: this is a binary file, not text"));
    EXPECT_EQ(decodeImportText(QByteArray("name\nk\xE9")).error().message,
              QStringLiteral("line 2, column 2: the byte 0xe9 is not UTF-8 text (a binary file, or another "
                             "encoding?)"));
}
