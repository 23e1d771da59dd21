#pragma once
// A session as flat CSV tables for spreadsheets and pandas (`ridgeline export SESSION.json --csv DIR`):
// ceilings.csv (kind compute, bandwidth or stream-triad), kernels.csv, bandwidth_curve.csv and kernel_levels.csv
// (imported kernels' traffic at other memory levels). The machine facts stay in the JSON. Every header names its unit
// (GFLOP_per_s, GB_per_s with GB = 1e9 bytes, seconds, bytes, FLOP); a cell that does not apply to its row
// is empty. Numbers are written as short as round-trips, with '.' decimals; text is quoted as RFC 4180 says.

#include "core/result.h"
#include "core/session/session.h"

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

// Writes the tables into folder (made if missing, when its parent exists), all or nothing: on any error no
// file in the folder is replaced. Returns the tables written.
Result<std::vector<CsvTable>> exportSessionCsv(const Session& session, const QString& folder);

}  // namespace ridgeline
