#pragma once
// A session as flat CSV tables for spreadsheets and pandas (`ridgeline export SESSION.json --csv DIR`):
// ceilings.csv (kind compute, bandwidth or stream-triad), kernels.csv, bandwidth_curve.csv and kernel_levels.csv
// (imported kernels' traffic at other memory levels). The machine facts stay in the JSON. Every header names its unit
// (GFLOP_per_s, GB_per_s with GB = 1e9 bytes, seconds, bytes, FLOP); a cell that does not apply to its row
// is empty. Numbers are written as short as round-trips, with '.' decimals; text is quoted as RFC 4180 says.

#include "core/result.h"
#include "core/session/session.h"
#include "core/session/session_compare.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

struct CsvTable {
    QString fileName;  // "ceilings.csv"
    QByteArray text;   // header line, then one line per row, each ending in "\n"
    int rows = 0;      // data rows, header not counted
};

// The four tables, in the order above.
std::vector<CsvTable> sessionCsvTables(const Session& session);

// A before/after comparison (the window's Export CSV…) as "comparison.csv": section, key, unit, then each side's
// name, value and spread (min, median, max; empty when not recorded or the side is missing), change_percent (empty
// when a side is missing), noise_percent (empty when neither side recorded a spread), verdict, threshold_percent.
CsvTable comparisonCsvTable(const SessionComparison& comparison);

// Writes the tables into folder (made if missing, when its parent exists), all or nothing: on any error no
// file in the folder is replaced. Returns the tables written.
Result<std::vector<CsvTable>> exportSessionCsv(const Session& session, const QString& folder);

}  // namespace ridgeline
