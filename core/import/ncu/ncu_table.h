#pragma once
// Reads Nsight Compute's CSV pages into kernels and their metric cells, streaming, so that a 100 MB export is
// never held as a table:
//  - "details" (`ncu --csv`, the default page): one row per kernel and metric. When a section with rules was
//    collected the header ends in "Rule Name","Rule Type","Rule Description" (and, from ncu 2023, "Estimated
//    Speedup Type","Estimated Speedup"), and ncu leaves those empty trailing fields off its metric rows
//    (13 of 15, 16 of 20 fields): that is its normal output, not a truncation. Rule rows have no metric.
//  - "raw" (`ncu --csv --page raw`): one row per kernel, one column per metric, the units in the second row.
// Columns are matched by header name; "==PROF==", "==WARNING==" and "==ERROR==" log lines and the profiled
// program's own output before the header are skipped (and reported).

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <functional>
#include <vector>

namespace ridgeline {

// One metric value of one kernel as the file writes it, and where.
struct NcuCell {
    QString value;
    QString unit;
    int line = 0;
    int column = 0;
};

struct NcuKernel {
    QString id;
    QString name;
    QString grid;
    QString block;
    QString deviceIndex;        // the "Device" column (an index, not a name)
    QString deviceName;         // device__attribute_display_name ("NVIDIA A100-SXM4-40GB") when collected, or a
                                // "Device" column that names the device ("Tesla V100-SXM2-16GB (0)" -> without " (0)")
    QString computeCapability;  // the "CC" column, e.g. "8.0"
    int line = 0;
    int nameColumn = 0;
    QHash<QString, NcuCell> metrics;  // only the metrics the caller keeps
};

struct NcuTable {
    bool details = false;
    int headerLine = 1;
    std::vector<NcuKernel> kernels;
    QStringList sections;  // details: section names, in order of appearance
    int metricRows = 0;    // details: rows that name a metric
    int ruleRows = 0;      // details: rows that carry only a rule's advice
    QStringList errors;    // ncu's own "==ERROR==" lines, for messages
};

// keep(name) says which metrics to hold. Errors name the line and column (not the file).
Result<NcuTable> readNcuTable(const QString& text, const std::function<bool(QStringView name)>& keep,
                              std::vector<SkippedRow>& skipped);

// True when a line is Nsight Compute's own log output rather than CSV.
bool isNsightLogLine(QStringView line);

// True for the header line of a page: "Kernel Name" with "ID", "Metric Name" or metric columns (scripts
// sometimes drop the ID column).
bool looksLikeNcuHeader(QStringView line);

}  // namespace ridgeline
