#include "tests/core/import/import_test_support.h"

#include <QFile>

#include <cmath>

namespace ridgeline::test {

QString importFixturePath(const QString& name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR) + QStringLiteral("/import/") + name;
}

QByteArray importFixture(const QString& name)
{
    QFile file(importFixturePath(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

const KernelResult* findKernel(const ImportResult& result, const QString& name, const QString& group)
{
    for (const KernelResult& kernel : result.kernels)
        if (kernel.name == name && (group.isNull() || kernel.group == group))
            return &kernel;
    return nullptr;
}

bool nearlyEqual(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-12 * std::max(std::abs(actual), std::abs(expected));
}

}  // namespace ridgeline::test
