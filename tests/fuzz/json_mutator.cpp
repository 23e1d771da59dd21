#include "tests/fuzz/json_mutator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <array>
#include <cmath>
#include <limits>
#include <random>

namespace ridgeline::fuzz {

namespace {

using Random = std::minstd_rand;

qsizetype pick(Random& random, qsizetype count)
{
    return static_cast<qsizetype>(random() % static_cast<unsigned long>(count));
}

// The numbers that broke or could break a loader or the chart: zero, signs, denormals, the ends of double's range,
// values just past the physical bounds (core/physical_limits.h).
double extremeNumber(Random& random, double current)
{
    static constexpr std::array kExtremes{0.0,   -0.0,  -1.0,   1.0,  5e-324, 1e-305, 1e-300,
                                          1e-13, 1e-12, 1e-9,   1e-6, 9.9e-7, 1e7,    1e9,
                                          1.1e9, 1e12,  1.1e12, 1e15, 1e300,  1e308,  1.7976931348623157e308};
    switch (random() % 4) {
        case 0:
            return kExtremes[static_cast<std::size_t>(pick(random, static_cast<qsizetype>(kExtremes.size())))];
        case 1:
            return -current;
        case 2:
            return current * std::pow(10.0, static_cast<double>(pick(random, 61)) - 30.0);
        default:
            return std::nextafter(current, random() % 2 ? std::numeric_limits<double>::max() : 0.0);
    }
}

// A count (threads, batch, a cache level): mostly another count, so the file stays loadable and goes on to be drawn.
double extremeCount(Random& random, double current)
{
    static constexpr std::array kCounts{0.0,
                                        1.0,
                                        2.0,
                                        3.0,
                                        16.0,
                                        17.0,
                                        255.0,
                                        4096.0,
                                        65536.0,
                                        65537.0,
                                        2147483647.0,
                                        2147483648.0,
                                        9007199254740993.0};
    if (random() % 4 == 0)
        return current + 1.0;
    return kCounts[static_cast<std::size_t>(pick(random, static_cast<qsizetype>(kCounts.size())))];
}

// Strings the loaders know (kinds, precisions, levels, GPU and scene names), and a few they must refuse.
QString knownString(Random& random)
{
    static const QStringList kStrings{QStringLiteral("sgemm"),
                                      QStringLiteral("dgemm"),
                                      QStringLiteral("add"),
                                      QStringLiteral("decode"),
                                      QStringLiteral("bf16-gemm"),
                                      QStringLiteral("decode-bf16"),
                                      QStringLiteral("decode-int8"),
                                      QStringLiteral("imported"),
                                      QStringLiteral("fusion-fused"),
                                      QStringLiteral("fp32"),
                                      QStringLiteral("fp64"),
                                      QStringLiteral("bf16"),
                                      QStringLiteral("int8"),
                                      QStringLiteral("fp16"),
                                      QStringLiteral("fp8"),
                                      QStringLiteral("DRAM"),
                                      QStringLiteral("L1"),
                                      QStringLiteral("L2"),
                                      QStringLiteral("L3"),
                                      QStringLiteral("HBM"),
                                      QStringLiteral("h100-sxm"),
                                      QStringLiteral("a100-sxm-80gb"),
                                      QStringLiteral("rtx-4090"),
                                      QStringLiteral("roofline"),
                                      QStringLiteral("batching"),
                                      QStringLiteral("kv-cache"),
                                      QStringLiteral("cpu-experiment"),
                                      QStringLiteral("two-kinds"),
                                      QStringLiteral(""),
                                      QStringLiteral("nan"),
                                      QStringLiteral("inf"),
                                      QStringLiteral("-1"),
                                      QString(300, QLatin1Char('x'))};
    return kStrings[pick(random, kStrings.size())];
}

// The keys that name the file's kind and version: edited, the file is refused before anything is drawn.
bool isHeaderKey(const QString& key)
{
    return key == QLatin1String("format") || key == QLatin1String("schema_version");
}

// Values of the document depth first, with or without the containers (numbers and strings are what reach a chart).
qsizetype countValues(const QJsonValue& value, bool leavesOnly)
{
    qsizetype count = (leavesOnly && (value.isArray() || value.isObject())) ? 0 : 1;
    if (value.isArray())
        for (const QJsonValue& item : value.toArray())
            count += countValues(item, leavesOnly);
    else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            if (!isHeaderKey(it.key()))
                count += countValues(it.value(), leavesOnly);
    }
    return count;
}

QJsonValue mutatedHere(const QJsonValue& value, Random& random)
{
    if (value.isDouble()) {
        const double number = value.toDouble();
        const bool count = std::trunc(number) == number && std::abs(number) < 1e15;
        return count && random() % 4 != 0 ? extremeCount(random, number) : extremeNumber(random, number);
    }
    if (value.isString())
        return knownString(random);
    if (value.isBool())
        return !value.toBool();
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        if (array.isEmpty())
            return array;
        const qsizetype i = pick(random, array.size());
        switch (random() % 3) {
            case 0:
                array.insert(i, array.at(i));  // a kernel, ceiling or scene twice
                break;
            case 1:
                array.removeAt(i);
                break;
            default:
                for (int copies = 0; copies < 8; ++copies)
                    array.append(array.at(i));
        }
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        if (!object.isEmpty())
            object.remove(object.keys().at(pick(random, object.size())));
        return object;
    }
    return extremeNumber(random, 1.0);  // null becomes a number
}

// The value `target` counts down to (depth first, as countValues counts), mutated; the rest as it was.
QJsonValue mutatedAt(const QJsonValue& value, qsizetype& target, bool leavesOnly, Random& random)
{
    const bool container = value.isArray() || value.isObject();
    if (!(leavesOnly && container) && target-- == 0)
        return mutatedHere(value, random);
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size() && target >= 0; ++i)
            array[i] = mutatedAt(array.at(i), target, leavesOnly, random);
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end() && target >= 0; ++it)
            if (!isHeaderKey(it.key()))
                it.value() = mutatedAt(it.value(), target, leavesOnly, random);
        return object;
    }
    return value;
}

}  // namespace

std::optional<QByteArray> mutateJson(const QByteArray& json, unsigned int seed)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    Random random(seed);
    QJsonValue root = document.object();
    // Mostly one value, mostly a leaf: a file edited once often still loads and is drawn; now and then a few edits
    // at once (a denormal bandwidth beside a huge peak) or an entry copied or dropped.
    const int edits = random() % 4 == 0 ? 2 + static_cast<int>(random() % 2) : 1;
    for (int edit = 0; edit < edits; ++edit) {
        const bool leavesOnly = random() % 5 != 0;
        const qsizetype count = countValues(root, leavesOnly);
        if (count == 0)
            break;
        qsizetype target = pick(random, count);
        root = mutatedAt(root, target, leavesOnly, random);
    }
    return QJsonDocument(root.toObject()).toJson(QJsonDocument::Compact);
}

}  // namespace ridgeline::fuzz
