#pragma once
// Fixtures and checks shared by the benchmark-result import tests.

#include "core/bench/bench_importer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <gtest/gtest.h>

namespace ridgeline::test {

// tests/data/bench/<name>, or an empty array when it is missing (the test then fails on its content).
QByteArray benchFixture(const QString& name);
QString benchFixturePath(const QString& name);

// Imports tests/data/bench/<name> through importBenchFile (format detected), failing the test on an error.
BenchImport importFixtureFile(const QString& name, BenchFormat format = BenchFormat::Auto);

// The error message of importing `bytes` as `format` (empty when it imported: the test then fails on it).
QString importError(const QByteArray& bytes, BenchFormat format, const QString& fileName = QStringLiteral("run.json"));

// Line `line` (1-based) of a JSON Lines fixture parsed by Qt's own JSON reader: an independent reading of the
// numbers the importer must agree with (only for lines Qt can read: no NaN or Infinity).
QJsonObject qtJsonLine(const QByteArray& bytes, int line);

// The text with `from` replaced by `to` exactly once (a test edit of a fixture; fails the test when not found).
QByteArray replacedOnce(const QByteArray& text, const QByteArray& from, const QByteArray& to);

// |actual - expected| <= 1e-12 relative.
::testing::AssertionResult nearly(double actual, double expected);

}  // namespace ridgeline::test
