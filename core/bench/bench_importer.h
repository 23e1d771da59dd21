#pragma once
// The one entry point for benchmark-result files, shared by `ridgeline calibrate` and (later) the window: read a
// file, detect or check its format, parse it all-or-nothing. A file that yields no measured point is an error
// that says why (each skipped run's reason).

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace ridgeline {

// Every error message starts with the file name and says where (line and column) and what is wrong, on one line.
Result<BenchImport> importBenchFile(const QString& path, BenchFormat format = BenchFormat::Auto);
Result<BenchImport> importBenchBytes(const QByteArray& bytes, const QString& fileName,
                                     BenchFormat format = BenchFormat::Auto);

// The benchmark-result format of the file at `path`, judged from its first bytes as detectBenchFormat judges them,
// or nothing (not one, or unreadable): the window sends such a file to its Calibrate dialog, and `ridgeline import`
// points to `ridgeline calibrate` when given one.
std::optional<BenchFormat> benchFormatOfFile(const QString& path);

// From the top-level keys of the first JSON value (or the CSV header); never Auto on success. The message says
// what the file looks like when it is none of the formats (vLLM's .pytorch.json, benchmark_throughput.py, ...).
Result<BenchFormat> detectBenchFormat(const QByteArray& bytes);

}  // namespace ridgeline
