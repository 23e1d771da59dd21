#pragma once
// A table of known cores: how many FMA instructions of each ISA one core can start per cycle. It is the
// cross-check of the measured FLOP/cycle, not the source of it: a VM may show a made-up model number
// (a Xeon with AMX reported as model 0xA7, Rocket Lake), and some families differ by SKU (Xeon Scalable
// with one or two 512-bit FMA units). Sources: the vendors' optimisation manuals and Agner Fog's tables;
// family and model ranges as Linux's arch/x86 code assigns them.

#include "core/measure/machine/isa.h"

#include <QString>
#include <QStringList>

namespace ridgeline {

// FMA instructions of the ISA's full width started per cycle per core. min < max when SKUs or the two kinds
// of cores of a hybrid CPU differ; {0, 0} when nothing is known.
struct FmaRate {
    double min = 0.0;
    double max = 0.0;
    bool known() const { return max > 0.0; }
};

struct CoreModel {
    QString name;   // "AMD Zen 4", "Intel Xeon with AMX (Sapphire Rapids or later)", "unknown x86-64 core"
    QString basis;  // what identified it, and any conflict between the model number and the features
    bool inTable = false;
    FmaRate scalar;
    FmaRate avx2;
    FmaRate avx512;
    FmaRate neon;  // ARM64: 128-bit FMLA
    FmaRate sve;   // ARM64: FMLA at the core's SVE vector length
    FmaRate rate(Isa isa) const;
};

// vendor as /proc/cpuinfo's vendor_id; family and model in decimal as it prints them; flags its names.
// ARM64: vendor is the "CPU implementer" ("0x41"), model the "CPU part"; the table is arm64/arm64_cpu's.
CoreModel identifyCore(const QString& vendor, int family, int model, const QStringList& flags);

}  // namespace ridgeline
