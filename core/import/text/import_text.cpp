#include "core/import/text/import_text.h"

#include "core/read_file.h"
#include "core/utf8_text.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// "line L, column C" of a byte offset, the column counted in characters as an editor shows it.
QString byteLocation(const QByteArray& bytes, qsizetype offset)
{
    const QByteArray before = bytes.left(offset);
    const int line = static_cast<int>(before.count('\n')) + 1;
    const QByteArray lineStart = before.mid(before.lastIndexOf('\n') + 1);
    const int column = static_cast<int>(QString::fromUtf8(lineStart).size()) + 1;
    return lineColumn(line, column);
}

}  // namespace

QString lineColumn(int line, int column)
{
    return u"line "_s + QString::number(line) + u", column "_s + QString::number(column);
}

Result<QByteArray> readImportFile(const QString& path)
{
    return readFileUpTo(path, u"file to import"_s, kMaxImportFileBytes,
                        u"files larger than 100 MB are refused (export only the kernels you need)"_s);
}

Result<QString> decodeImportText(const QByteArray& bytes)
{
    if (isBlank(bytes))
        return makeError(Error::Code::Parse, u"the file is empty"_s);
    if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF"))
        return makeError(Error::Code::Parse, u"the file is UTF-16 text; save it as UTF-8"_s);
    const qsizetype bom = bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    const qsizetype nul = bytes.indexOf('\0');
    if (nul >= 0)
        return makeError(Error::Code::Parse,
                         byteLocation(bytes, nul) + u": a NUL byte: this is a binary file, not text"_s);
    for (qsizetype i = bom; i < bytes.size();) {
        const int length = utf8SequenceLength(bytes, i);
        if (length == 0)
            return makeError(Error::Code::Parse, byteLocation(bytes, i) + u": the byte 0x"_s +
                                                     QString::number(static_cast<unsigned char>(bytes.at(i)), 16) +
                                                     u" is not UTF-8 text (a binary file, or another encoding?)"_s);
        i += length;
    }
    return QString::fromUtf8(bytes.mid(bom));
}

Result<double> parseNumber(QStringView text, Thousands thousands)
{
    static const QRegularExpression plain(u"^\\+?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"_s);
    static const QRegularExpression grouped(u"^\\+?\\d{1,3}(,\\d{3})+(\\.\\d*)?([eE][+-]?\\d+)?$"_s);
    static const QRegularExpression decimalComma(u"^[+-]?[\\d.]*\\d,\\d+$"_s);
    const QString value = text.trimmed().toString();
    const auto quoted = [&value]() -> QString {
        return u"\""_s + (value.size() > 40 ? value.left(40) + u"..."_s : value) + u'"';
    };
    if (value.isEmpty())
        return makeError(Error::Code::Parse, u"an empty value where a number is expected"_s);
    const QString lower = value.toLower();
    if (lower.contains(u"nan"_s) || lower.contains(u"inf"_s))
        return makeError(Error::Code::Range, u"not a finite number: "_s + quoted());
    if (value.startsWith(u'-'))
        return makeError(Error::Code::Range, u"a negative value: "_s + quoted());

    QString digits = value;
    if (value.contains(u',')) {
        if (thousands == Thousands::Comma && grouped.match(value).hasMatch()) {
            digits.remove(u',');
        } else if (decimalComma.match(value).hasMatch()) {
            return makeError(Error::Code::Parse, u"a decimal comma in "_s + quoted() +
                                                     u"; export with a '.' decimal point (e.g. LC_NUMERIC=C)"_s);
        } else {
            return makeError(Error::Code::Parse,
                             u"not a number: "_s + quoted() +
                                 (thousands == Thousands::Comma ? u" (thousands separators must group 3 digits)"_s
                                                                : u" (no thousands separators allowed)"_s));
        }
    }
    if (!plain.match(digits).hasMatch())
        return makeError(Error::Code::Parse, u"not a number: "_s + quoted());
    bool ok = false;
    const double number = digits.toDouble(&ok);
    if (!ok || !std::isfinite(number))
        return makeError(Error::Code::Range, u"a number out of range: "_s + quoted());
    return number;
}

namespace {

std::optional<double> simpleUnitScale(QStringView unit, QStringView baseUnit);

// "hz", "Khz", "MHz", "Ghz": cycles per second.
std::optional<double> hertzScale(const QString& unit)
{
    static const QStringList kHertz = {u"hz"_s, u"khz"_s, u"mhz"_s, u"ghz"_s, u"thz"_s};
    const qsizetype index = kHertz.indexOf(unit.toLower());
    if (index < 0)
        return std::nullopt;
    return std::pow(1000.0, static_cast<double>(index));
}

}  // namespace

std::optional<double> unitScale(QStringView unit, QStringView baseUnit)
{
    const qsizetype slash = baseUnit.indexOf(u'/');
    if (slash < 0)
        return simpleUnitScale(unit, baseUnit);
    const QString u = unit.trimmed().toString();
    if (baseUnit == u"cycle/second"_s) {
        if (const auto hertz = hertzScale(u))
            return hertz;
    }
    const qsizetype unitSlash = u.indexOf(u'/');
    if (unitSlash < 0)
        return std::nullopt;
    const auto numerator = simpleUnitScale(QStringView(u).left(unitSlash), baseUnit.left(slash));
    const auto denominator = simpleUnitScale(QStringView(u).mid(unitSlash + 1), baseUnit.mid(slash + 1));
    if (!numerator || !denominator || *denominator <= 0.0 || QStringView(u).left(unitSlash).isEmpty())
        return std::nullopt;
    return *numerator / *denominator;
}

namespace {

std::optional<double> simpleUnitScale(QStringView unit, QStringView baseUnit)
{
    const QString u = unit.trimmed().toString();
    if (u.isEmpty())
        return baseUnit == u"inst"_s ? std::optional<double>(1.0) : std::nullopt;
    if (u == baseUnit)
        return 1.0;
    if (baseUnit == u"second"_s) {
        if (u == u"s"_s)
            return 1.0;
        if (u == u"msecond"_s || u == u"ms"_s)
            return 1e-3;
        if (u == u"usecond"_s || u == u"us"_s)
            return 1e-6;
        if (u == u"nsecond"_s || u == u"ns"_s)
            return 1e-9;
        return std::nullopt;
    }
    if (baseUnit == u"byte"_s) {  // newer tools write B, KB, MB (decimal, as Nsight Compute's Kbyte)
        static const QStringList kShort = {u"B"_s, u"KB"_s, u"MB"_s, u"GB"_s, u"TB"_s};
        const qsizetype index = kShort.indexOf(u);
        if (index >= 0)
            return std::pow(1000.0, static_cast<double>(index));
    }
    if (u.size() != baseUnit.size() + 1 || !u.endsWith(baseUnit))
        return std::nullopt;
    switch (u.at(0).unicode()) {
        case 'K':
            return 1e3;
        case 'M':
            return 1e6;
        case 'G':
            return 1e9;
        case 'T':
            return 1e12;
        case 'P':
            return 1e15;
        default:
            return std::nullopt;
    }
}

}  // namespace

}  // namespace ridgeline
