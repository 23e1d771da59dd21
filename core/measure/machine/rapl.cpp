#include "core/measure/machine/rapl.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

const QString kZoneFilter = QStringLiteral("intel-rapl:*");

// The numbers of "intel-rapl:1:2" ({1, 2}), for ordering zones as the kernel numbers them; empty for another name
// (the control type "intel-rapl" itself, "intel-rapl-mmio:0", which repeats package 0 through MMIO).
std::vector<int> zoneNumbers(const QString& zone)
{
    static const QRegularExpression pattern(QStringLiteral("^intel-rapl:(\\d+)(?::(\\d+))?$"));
    const QRegularExpressionMatch match = pattern.match(zone);
    if (!match.hasMatch())
        return {};
    std::vector<int> numbers{match.captured(1).toInt()};
    if (match.hasCaptured(2))
        numbers.push_back(match.captured(2).toInt());
    return numbers;
}

struct TextFile {
    bool exists = false;
    bool readable = false;
    QString text;
};

TextFile readText(const QString& path)
{
    TextFile out;
    QFile file(path);
    out.exists = file.exists();
    if (!out.exists || !file.open(QIODevice::ReadOnly))
        return out;
    out.readable = true;
    out.text = QString::fromLatin1(file.readAll()).trimmed();
    return out;
}

std::optional<std::uint64_t> parseMicrojoules(const QString& text)
{
    bool ok = false;
    const qulonglong value = text.toULongLong(&ok);
    return ok ? std::optional<std::uint64_t>(value) : std::nullopt;
}

QString namesOf(const std::vector<RaplDomain>& domains)
{
    QStringList names;
    for (const RaplDomain& d : domains)
        names << d.name;
    return names.join(QStringLiteral(" + "));
}

}  // namespace

RaplCounters::RaplCounters(const QString& sysfsRoot) : m_root(sysfsRoot + QStringLiteral("/class/powercap"))
{
    const QString shown = sysfsRoot == QLatin1String("/sys") ? QStringLiteral("/sys/class/powercap") : m_root;
    if (!QFileInfo(m_root).isDir()) {
        m_problem = QStringLiteral("this machine exposes no RAPL counters (no %1)").arg(shown);
        return;
    }
    QStringList zones = QDir(m_root).entryList({kZoneFilter}, QDir::Dirs | QDir::NoDotAndDotDot);
    zones.erase(std::remove_if(zones.begin(), zones.end(), [](const QString& z) { return zoneNumbers(z).empty(); }),
                zones.end());
    std::sort(zones.begin(), zones.end(),
              [](const QString& a, const QString& b) { return zoneNumbers(a) < zoneNumbers(b); });
    for (const QString& zone : zones) {
        const QString dir = m_root + QLatin1Char('/') + zone;
        const TextFile name = readText(dir + QStringLiteral("/name"));
        if (name.text.isEmpty())
            continue;
        RaplDomain domain{zone, name.text, 0};
        domain.maxRangeUj = parseMicrojoules(readText(dir + QStringLiteral("/max_energy_range_uj")).text).value_or(0);
        const bool top = zoneNumbers(zone).size() == 1;
        const bool counted = (top && name.text.startsWith(QLatin1String("package-"))) || name.text == u"dram";
        (counted ? m_counted : m_others).push_back(domain);
    }
    if (std::none_of(m_counted.begin(), m_counted.end(),
                     [](const RaplDomain& d) { return d.name.startsWith(QLatin1String("package-")); })) {
        m_problem =
            QStringLiteral("this machine exposes no RAPL counters (%1 has no intel-rapl package zone)").arg(shown);
        m_counted.clear();
        return;
    }
    for (const RaplDomain& d : m_counted) {
        const TextFile energy = readText(m_root + QLatin1Char('/') + d.zone + QStringLiteral("/energy_uj"));
        if (energy.exists && !energy.readable) {
            m_problem = QStringLiteral(
                            "RAPL present (%1) but energy_uj is not readable: run as root, or let this "
                            "user read %2/intel-rapl:*/energy_uj (root-only since CVE-2020-8694)")
                            .arg(namesOf(m_counted), shown);
            return;
        }
        if (!parseMicrojoules(energy.text)) {
            m_problem =
                QStringLiteral("RAPL present (%1) but %2/energy_uj %3")
                    .arg(namesOf(m_counted), d.zone,
                         energy.exists ? QStringLiteral("reads \"%1\", not microjoules").arg(energy.text.left(40))
                                       : QStringLiteral("is missing"));
            return;
        }
    }
}

QString RaplCounters::basis() const
{
    if (!available())
        return m_problem;
    std::vector<RaplDomain> packages, dram;
    for (const RaplDomain& d : m_counted)
        (d.name == u"dram" ? dram : packages).push_back(d);
    QString text = QStringLiteral("RAPL %1").arg(namesOf(packages));
    if (!dram.empty())
        text += dram.size() == 1 ? QStringLiteral(" and dram") : QStringLiteral(" and dram x%1").arg(dram.size());
    text += QStringLiteral(" (whole sockets: idle cores and other processes count too)");
    return text;
}

std::optional<RaplReading> RaplCounters::read() const
{
    if (!available())
        return std::nullopt;
    RaplReading reading;
    reading.reserve(m_counted.size());
    for (const RaplDomain& d : m_counted) {
        const std::optional<std::uint64_t> uj =
            parseMicrojoules(readText(m_root + QLatin1Char('/') + d.zone + QStringLiteral("/energy_uj")).text);
        if (!uj)
            return std::nullopt;
        reading.push_back(*uj);
    }
    return reading;
}

std::optional<RaplEnergy> RaplCounters::between(const RaplReading& before, const RaplReading& after) const
{
    if (before.size() != m_counted.size() || after.size() != m_counted.size())
        return std::nullopt;
    RaplEnergy energy;
    for (std::size_t i = 0; i < m_counted.size(); ++i) {
        const RaplDomain& d = m_counted[i];
        std::uint64_t uj = 0;
        if (after[i] >= before[i])
            uj = after[i] - before[i];
        else if (d.maxRangeUj > 0 && before[i] <= d.maxRangeUj)
            uj = (d.maxRangeUj - before[i]) + after[i];  // wrapped once past its range
        else
            return std::nullopt;
        const double joules = static_cast<double>(uj) * 1e-6;
        if (d.name == u"dram") {
            energy.dramJoules += joules;
            energy.hasDram = true;
        } else {
            energy.packageJoules += joules;
        }
    }
    return energy;
}

KernelEnergy kernelEnergy(const RaplEnergy& energy, double seconds, double tokensPerSecond)
{
    auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
    if (!positive(energy.packageJoules) || !positive(seconds) || !positive(tokensPerSecond))
        return {};
    KernelEnergy out;
    out.seconds = seconds;
    out.packageWatts = energy.packageJoules / seconds;
    out.dramWatts = energy.hasDram && std::isfinite(energy.dramJoules) ? energy.dramJoules / seconds : 0.0;
    out.joulesPerToken = (out.packageWatts + out.dramWatts) / tokensPerSecond;
    return out;
}

}  // namespace ridgeline
