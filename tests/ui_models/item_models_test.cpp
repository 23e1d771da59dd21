// Every item model passes QAbstractItemModelTester (hotspot's rule), through resets, inserts and removals.

#include "tests/ui_models/test_session.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_list_model.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(UiItemModels, KernelTableModelPassesTheModelTester)
{
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSession(fixtures::zen4Session());
    EXPECT_EQ(model.rowCount(), 16);
    EXPECT_EQ(model.columnCount(), KernelTableModel::ColumnCount);
    EXPECT_EQ(model.data(model.index(5, KernelTableModel::Bound)).toString(), QStringLiteral("memory"));
    EXPECT_EQ(model.data(model.index(3, KernelTableModel::Bound)).toString(), QStringLiteral("compute"));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    model.setSession(fixtures::manyKernelSession(50));
    EXPECT_EQ(model.rowCount(), 50);
}

TEST(UiItemModels, SessionListModelPassesTheModelTester)
{
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.append({fixtures::zen4Session(), QStringLiteral("/tmp/a.json"), true});
    model.append({fixtures::zen4FasterDramSession(), QString(), true});
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_TRUE(model.setData(model.index(1), Qt::Unchecked, Qt::CheckStateRole));
    EXPECT_EQ(model.visibleSessions().size(), 1u);
    model.replace(0, {fixtures::zen4Session(), QStringLiteral("/tmp/b.json"), true});
    model.remove(0);
    EXPECT_EQ(model.rowCount(), 1);
    model.setSessions({});
    EXPECT_EQ(model.rowCount(), 0);
}
