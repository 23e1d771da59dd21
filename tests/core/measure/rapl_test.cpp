// The RAPL reader on powercap trees laid out as real machines lay them out, written here into a temporary
// directory: a two-socket Intel server (packages with DRAM domains), an Intel laptop (core, uncore, psys and the
// MMIO copy of package 0), an AMD Zen desktop (package and core), a virtual machine with no tree, a tree with no
// RAPL zone, root-only energy_uj files, and a counter that wraps between two readings.
#include "core/measure/machine/rapl.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cmath>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

// A directory laid out like /sys, with class/powercap's zones as the kernel's intel_rapl driver names them.
class PowercapTree {
public:
    PowercapTree() { EXPECT_TRUE(m_dir.isValid()); }
    QString root() const { return m_dir.path(); }
    QString powercap() const { return root() + QStringLiteral("/class/powercap"); }

    void zone(const QString& zone, const QString& name, const QString& maxRangeUj, const QString& energyUj)
    {
        const QString dir = powercap() + QLatin1Char('/') + zone;
        ASSERT_TRUE(QDir().mkpath(dir));
        write(dir + QStringLiteral("/name"), name);
        if (!maxRangeUj.isEmpty())
            write(dir + QStringLiteral("/max_energy_range_uj"), maxRangeUj);
        if (!energyUj.isEmpty())
            write(dir + QStringLiteral("/energy_uj"), energyUj);
    }
    void energy(const QString& zone, const QString& energyUj)
    {
        write(powercap() + QLatin1Char('/') + zone + QStringLiteral("/energy_uj"), energyUj);
    }
    // The control type's own directory: no name, no counter.
    void controlType(const QString& type)
    {
        ASSERT_TRUE(QDir().mkpath(powercap() + QLatin1Char('/') + type));
        write(powercap() + QLatin1Char('/') + type + QStringLiteral("/enabled"), QStringLiteral("1"));
    }

private:
    static void write(const QString& path, const QString& text)
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate)) << path.toStdString();
        file.write(text.toLatin1() + '\n');
    }
    QTemporaryDir m_dir;
};

// A Xeon with two sockets (Skylake-SP or Cascade Lake): each package has one subzone, its DRAM; the package
// counters span 262143328850 uJ, the DRAM ones 65712999613 uJ.
void intelServer(PowercapTree& tree)
{
    tree.controlType(QStringLiteral("intel-rapl"));
    tree.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), QStringLiteral("262143328850"),
              QStringLiteral("10000000"));
    tree.zone(QStringLiteral("intel-rapl:0:0"), QStringLiteral("dram"), QStringLiteral("65712999613"),
              QStringLiteral("2000000"));
    tree.zone(QStringLiteral("intel-rapl:1"), QStringLiteral("package-1"), QStringLiteral("262143328850"),
              QStringLiteral("30000000"));
    tree.zone(QStringLiteral("intel-rapl:1:0"), QStringLiteral("dram"), QStringLiteral("65712999613"),
              QStringLiteral("4000000"));
}

std::vector<QString> names(const std::vector<RaplDomain>& domains)
{
    std::vector<QString> out;
    for (const RaplDomain& d : domains)
        out.push_back(d.name);
    return out;
}

}  // namespace

TEST(Rapl, AnIntelServerSumsItsPackagesAndItsDramDomainsApart)
{
    PowercapTree tree;
    intelServer(tree);
    const RaplCounters rapl(tree.root());
    ASSERT_TRUE(rapl.available()) << rapl.basis().toStdString();
    EXPECT_EQ(names(rapl.counted()), (std::vector<QString>{QStringLiteral("package-0"), QStringLiteral("dram"),
                                                           QStringLiteral("package-1"), QStringLiteral("dram")}));
    EXPECT_TRUE(rapl.others().empty());
    EXPECT_TRUE(rapl.basis().startsWith(QStringLiteral("RAPL package-0 + package-1 and dram x2")))
        << rapl.basis().toStdString();

    const std::optional<RaplReading> before = rapl.read();
    ASSERT_TRUE(before);
    EXPECT_EQ(*before, (RaplReading{10000000, 2000000, 30000000, 4000000}));
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("22500000"));   // +12.5 J
    tree.energy(QStringLiteral("intel-rapl:0:0"), QStringLiteral("3500000"));  // +1.5 J
    tree.energy(QStringLiteral("intel-rapl:1"), QStringLiteral("37250000"));   // +7.25 J
    tree.energy(QStringLiteral("intel-rapl:1:0"), QStringLiteral("4500000"));  // +0.5 J
    const std::optional<RaplReading> after = rapl.read();
    ASSERT_TRUE(after);
    const std::optional<RaplEnergy> energy = rapl.between(*before, *after);
    ASSERT_TRUE(energy);
    EXPECT_DOUBLE_EQ(energy->packageJoules, 19.75);
    EXPECT_DOUBLE_EQ(energy->dramJoules, 2.0);
    EXPECT_TRUE(energy->hasDram);
}

TEST(Rapl, AnIntelLaptopCountsItsPackageAloneNotItsPartsNorThePlatform)
{
    PowercapTree tree;
    tree.controlType(QStringLiteral("intel-rapl"));
    tree.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), QStringLiteral("262143328850"),
              QStringLiteral("5000000"));
    tree.zone(QStringLiteral("intel-rapl:0:0"), QStringLiteral("core"), QStringLiteral("262143328850"),
              QStringLiteral("3000000"));
    tree.zone(QStringLiteral("intel-rapl:0:1"), QStringLiteral("uncore"), QStringLiteral("262143328850"),
              QStringLiteral("100000"));
    tree.zone(QStringLiteral("intel-rapl:1"), QStringLiteral("psys"), QStringLiteral("262143328850"),
              QStringLiteral("9000000"));
    // The same package 0 again through the MMIO interface: counting it would count the package twice.
    tree.controlType(QStringLiteral("intel-rapl-mmio"));
    tree.zone(QStringLiteral("intel-rapl-mmio:0"), QStringLiteral("package-0"), QStringLiteral("262143328850"),
              QStringLiteral("5000000"));
    const RaplCounters rapl(tree.root());
    ASSERT_TRUE(rapl.available()) << rapl.basis().toStdString();
    EXPECT_EQ(names(rapl.counted()), std::vector<QString>{QStringLiteral("package-0")});
    EXPECT_EQ(names(rapl.others()),
              (std::vector<QString>{QStringLiteral("core"), QStringLiteral("uncore"), QStringLiteral("psys")}));
    EXPECT_TRUE(rapl.basis().startsWith(QStringLiteral("RAPL package-0 (whole sockets"))) << rapl.basis().toStdString();

    const std::optional<RaplReading> before = rapl.read();
    ASSERT_TRUE(before);
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("5750000"));
    tree.energy(QStringLiteral("intel-rapl:1"), QStringLiteral("19000000"));
    const std::optional<RaplEnergy> energy = rapl.between(*before, *rapl.read());
    ASSERT_TRUE(energy);
    EXPECT_DOUBLE_EQ(energy->packageJoules, 0.75);
    EXPECT_FALSE(energy->hasDram);
    EXPECT_EQ(energy->dramJoules, 0.0);
}

TEST(Rapl, AnAmdZenDesktopHasAPackageAndItsCores)
{
    PowercapTree tree;
    tree.controlType(QStringLiteral("intel-rapl"));
    tree.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), QStringLiteral("65532610987"),
              QStringLiteral("123456789"));
    tree.zone(QStringLiteral("intel-rapl:0:0"), QStringLiteral("core"), QStringLiteral("65532610987"),
              QStringLiteral("98765432"));
    const RaplCounters rapl(tree.root());
    ASSERT_TRUE(rapl.available()) << rapl.basis().toStdString();
    EXPECT_EQ(names(rapl.counted()), std::vector<QString>{QStringLiteral("package-0")});
    EXPECT_EQ(names(rapl.others()), std::vector<QString>{QStringLiteral("core")});
    EXPECT_EQ(rapl.counted().front().maxRangeUj, 65532610987u);
    const std::optional<RaplReading> before = rapl.read();
    ASSERT_TRUE(before);
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("165456789"));
    const std::optional<RaplEnergy> energy = rapl.between(*before, *rapl.read());
    ASSERT_TRUE(energy);
    EXPECT_DOUBLE_EQ(energy->packageJoules, 42.0);
}

TEST(Rapl, AVirtualMachineWithNoTreeSaysSo)
{
    PowercapTree tree;  // an empty /sys: no class/powercap at all, as on a KVM guest
    const RaplCounters rapl(tree.root());
    EXPECT_FALSE(rapl.available());
    EXPECT_EQ(rapl.basis(), QStringLiteral("this machine exposes no RAPL counters (no %1)").arg(tree.powercap()));
    EXPECT_FALSE(rapl.read());
    EXPECT_TRUE(rapl.counted().empty());
}

TEST(Rapl, APowercapTreeWithoutRaplSaysSo)
{
    PowercapTree tree;
    tree.controlType(QStringLiteral("dtpm"));  // an ARM board's power capping, no energy counters
    const RaplCounters rapl(tree.root());
    EXPECT_FALSE(rapl.available());
    EXPECT_EQ(rapl.basis(), QStringLiteral("this machine exposes no RAPL counters (%1 has no intel-rapl package zone)")
                                .arg(tree.powercap()));
}

TEST(Rapl, AMissingOrGarbledCounterIsNamed)
{
    PowercapTree missing;
    missing.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), QStringLiteral("262143328850"), {});
    const RaplCounters noCounter(missing.root());
    EXPECT_FALSE(noCounter.available());
    EXPECT_EQ(noCounter.basis(), QStringLiteral("RAPL present (package-0) but intel-rapl:0/energy_uj is missing"));

    PowercapTree garbled;
    garbled.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), QStringLiteral("262143328850"),
                 QStringLiteral("n/a"));
    const RaplCounters badCounter(garbled.root());
    EXPECT_FALSE(badCounter.available());
    EXPECT_EQ(badCounter.basis(),
              QStringLiteral("RAPL present (package-0) but intel-rapl:0/energy_uj reads \"n/a\", not microjoules"));
}

// Linux makes energy_uj 0400 root: another user cannot open it. Root can open any file, so as root the reader is
// run in a child that has become nobody, as a user running Ridgeline would be.
TEST(Rapl, RootOnlyCountersSayHowToReadThem)
{
    PowercapTree tree;
    intelServer(tree);
    const QString energy = tree.powercap() + QStringLiteral("/intel-rapl:0/energy_uj");
    const bool root = geteuid() == 0;
    ASSERT_TRUE(QFile::setPermissions(energy, root ? QFile::ReadOwner : QFile::Permissions()));
    const QString expected = QStringLiteral(
                                 "RAPL present (package-0 + dram + package-1 + dram) but energy_uj is not "
                                 "readable: run as root, or let this user read %1/intel-rapl:*/energy_uj "
                                 "(root-only since CVE-2020-8694)")
                                 .arg(tree.powercap());
    if (!root) {
        const RaplCounters rapl(tree.root());
        EXPECT_FALSE(rapl.available());
        EXPECT_EQ(rapl.basis(), expected);
        EXPECT_FALSE(rapl.read());
        return;
    }
    // nobody must be able to walk to the files: the temporary directory is the owner's alone.
    for (QString dir = tree.powercap(); dir.startsWith(tree.root()); dir = QFileInfo(dir).path())
        ASSERT_TRUE(QFile::setPermissions(dir, QFile::Permissions(0x7555)));
    ASSERT_TRUE(QFile::setPermissions(tree.root(), QFile::Permissions(0x7555)));
    int pipeFds[2];
    ASSERT_EQ(pipe(pipeFds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipeFds[0]);
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(2);
        const RaplCounters rapl(tree.root());
        const QByteArray basis = rapl.basis().toUtf8();
        const bool written = write(pipeFds[1], basis.constData(), static_cast<size_t>(basis.size())) == basis.size();
        _exit(!written ? 3 : rapl.available() || rapl.read() ? 1 : 0);
    }
    close(pipeFds[1]);
    QByteArray said;
    char buffer[512];
    for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        said.append(buffer, n);
    close(pipeFds[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: counters read as nobody, 2: could not become nobody, 3: pipe";
    EXPECT_EQ(QString::fromUtf8(said), expected);
}

TEST(Rapl, ACounterThatWrapsIsCountedThroughItsRange)
{
    PowercapTree tree;
    intelServer(tree);
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("262143000000"));  // 0.32885 J below its range
    const RaplCounters rapl(tree.root());
    const std::optional<RaplReading> before = rapl.read();
    ASSERT_TRUE(before);
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("500000"));  // wrapped, then 0.5 J more
    tree.energy(QStringLiteral("intel-rapl:1"), QStringLiteral("31000000"));
    const std::optional<RaplEnergy> energy = rapl.between(*before, *rapl.read());
    ASSERT_TRUE(energy);
    EXPECT_NEAR(energy->packageJoules, 0.32885 + 0.5 + 1.0, 1e-9);
    EXPECT_DOUBLE_EQ(energy->dramJoules, 0.0);
}

TEST(Rapl, ACounterThatGoesBackWithNoKnownRangeGivesNoEnergy)
{
    PowercapTree tree;
    tree.zone(QStringLiteral("intel-rapl:0"), QStringLiteral("package-0"), {}, QStringLiteral("9000000"));
    const RaplCounters rapl(tree.root());
    ASSERT_TRUE(rapl.available()) << rapl.basis().toStdString();
    const std::optional<RaplReading> before = rapl.read();
    ASSERT_TRUE(before);
    tree.energy(QStringLiteral("intel-rapl:0"), QStringLiteral("1000"));
    EXPECT_FALSE(rapl.between(*before, *rapl.read()));
    EXPECT_FALSE(rapl.between(*before, RaplReading{1, 2}));  // not a reading of these counters
}

TEST(Rapl, EnergyPerTokenIsMeanPowerOverTheRate)
{
    const KernelEnergy e = kernelEnergy(RaplEnergy{19.75, 2.0, true}, 0.5, 100.0);
    EXPECT_DOUBLE_EQ(e.seconds, 0.5);
    EXPECT_DOUBLE_EQ(e.packageWatts, 39.5);
    EXPECT_DOUBLE_EQ(e.dramWatts, 4.0);
    EXPECT_DOUBLE_EQ(e.joulesPerToken, 0.435);
    EXPECT_TRUE(e.measured());

    const KernelEnergy noDram = kernelEnergy(RaplEnergy{3.0, 0.0, false}, 0.25, 48.0);
    EXPECT_DOUBLE_EQ(noDram.packageWatts, 12.0);
    EXPECT_DOUBLE_EQ(noDram.joulesPerToken, 0.25);

    for (const KernelEnergy& none :
         {kernelEnergy(RaplEnergy{}, 0.5, 100.0), kernelEnergy(RaplEnergy{1.0}, 0.0, 100.0),
          kernelEnergy(RaplEnergy{1.0}, 0.5, 0.0), kernelEnergy(RaplEnergy{std::nan(""), 0.0, false}, 0.5, 100.0)}) {
        EXPECT_FALSE(none.measured());
        EXPECT_EQ(none.joulesPerToken, 0.0);
    }
}
