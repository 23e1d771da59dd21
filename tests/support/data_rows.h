#pragma once
// The rows of a measurement table in tests/data (validation sets): CSV with one header line, blank lines and lines
// starting with '#' skipped. A row whose field count differs from the header's fails the test and is left out, so
// a mistyped row is never read shifted by a column.

#include <QFile>
#include <QString>
#include <QStringList>

#include <gtest/gtest.h>

#include <vector>

namespace ridgeline::test {

class DataRow {
public:
    DataRow(QStringList header, QStringList fields) : m_header(std::move(header)), m_fields(std::move(fields)) {}
    // The named column's text; empty when the table has no such column.
    QString operator()(const char* name) const
    {
        const qsizetype i = m_header.indexOf(QLatin1String(name));
        return i < 0 ? QString() : m_fields.at(i);
    }

private:
    QStringList m_header;
    QStringList m_fields;
};

inline std::vector<DataRow> readDataRows(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text)) << path.toStdString();
    std::vector<DataRow> rows;
    QStringList header;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        QStringList fields = line.split(QLatin1Char(','));
        if (header.isEmpty()) {
            header = fields;
            continue;
        }
        EXPECT_EQ(fields.size(), header.size()) << line.toStdString();
        if (fields.size() == header.size())
            rows.emplace_back(header, std::move(fields));
    }
    return rows;
}

}  // namespace ridgeline::test
