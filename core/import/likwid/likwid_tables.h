#pragma once
// The Metric tables of likwid-perfctr's output, in both of its forms:
//  - CSV (`-o FILE.csv`, any suffix but .txt, or `-O` to stdout): "STRUCT,Info,3" blocks and tables introduced
//    by "TABLE,[Region R,]Group N Metric[ STAT],GROUP,<rows>", rows padded with commas to the widest table. With
//    `-O` the CSV follows a text banner (dashes, "CPU name:<tab>...") and the program's own output.
//  - ASCII tables (the default): "Region R, Group N: GROUP" (or "Group N: GROUP") above "+---+" bordered tables
//    with "| ... |" rows; "INFO:", "WARN:" lines, the banner and the program's output around them.
//  - likwid-mpirun's output, in both forms: the same tables with a column per "host:rank:cpu"; its ASCII form puts
//    "Region: R" and "Group: N" (a number, no group name) above them, and cells of a rank without a value read "nil".
// Several runs can follow each other in one file (one per group, or `-g A -g B`). Raw counter and region-info
// tables are passed over; values are kept as text with their line and column. ANSI colour codes are removed first.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline {

struct LikwidCell {
    QString text;
    int line = 0;
    int column = 0;
};

struct LikwidRow {
    QString name;  // "DP [MFLOP/s]" (the " STAT" suffix of STAT tables removed)
    std::vector<LikwidCell> values;
    int line = 0;
};

struct LikwidTable {
    QString region;       // empty without markers
    QString group;        // "MEM_DP"
    bool stat = false;    // columns Sum, Min, Max, Avg instead of one per thread
    int line = 0;         // the TABLE line, or the "Group N:" line above an ASCII table
    QStringList columns;  // "HWThread 0", ... or "Sum", "Min", "Max", "Avg"
    std::vector<LikwidRow> rows;
};

struct LikwidFile {
    std::vector<LikwidTable> tables;  // the Metric and Metric STAT tables, in file order
    QString cpuName;                  // "CPU name:" of the first run, when the file has one
    bool ascii = false;
    int otherLines = 0;  // lines outside likwid's tables that are neither banner nor blank (program output)
    int firstOtherLine = 0;
};

// Errors name the line and column (not the file).
Result<LikwidFile> readLikwidTables(const QString& text);

// Whether the text looks like likwid-perfctr output in either form (for format detection).
bool looksLikeLikwid(const QString& head);

}  // namespace ridgeline
