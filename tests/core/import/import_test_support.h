#pragma once
// Fixtures and lookups shared by the import tests.

#include "core/import/importer.h"

#include <QByteArray>
#include <QString>

namespace ridgeline::test {

// tests/data/import/<name>, or an empty array when it is missing (the test then fails on its content).
QByteArray importFixture(const QString& name);
QString importFixturePath(const QString& name);

// The kernel called name (and group, when given), or nullptr.
const KernelResult* findKernel(const ImportResult& result, const QString& name, const QString& group = QString());

// |actual - expected| <= 1e-12 relative: the hand computation and the importer's sum may differ in the last bit.
bool nearlyEqual(double actual, double expected);

}  // namespace ridgeline::test
