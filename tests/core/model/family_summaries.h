#pragma once
// Judged rows of a validation set summarised per family (engine, GPU, source, set): median and worst |error| beside
// the target for a family of at least 10 rows (median 12 %, worst 40 %), and the asserted figures.

#include "tests/core/model/llm_validation_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <map>
#include <vector>

namespace ridgeline::test {

inline constexpr int kFamilyRowsJudged = 10;
inline constexpr double kTargetMedian = 0.12;
inline constexpr double kTargetWorst = 0.40;

inline bool meetsTarget(const ErrorSummary& s)
{
    return s.medianAbs <= kTargetMedian && s.worstAbs <= kTargetWorst;
}

template <typename Key>
inline std::map<QString, ErrorSummary> summaryBy(const std::vector<JudgedRow>& judged, Key key)
{
    std::map<QString, std::vector<PointResidual>> groups;
    for (const JudgedRow& j : judged)
        groups[key(j)].push_back(j.residual);
    std::map<QString, ErrorSummary> summaries;
    for (const auto& [name, residuals] : groups)
        summaries[name] = summarize(residuals);
    return summaries;
}

inline void printSummaries(const char* title, const std::map<QString, ErrorSummary>& summaries)
{
    std::printf("%s\n", title);
    for (const auto& [name, s] : summaries)
        std::printf("  %-22s %3d rows: median |error| %5.1f %%, worst %6.1f %% (%s)%s\n", name.toLatin1().constData(),
                    s.points, 100.0 * s.medianAbs, 100.0 * s.worstAbs, s.worstId.toLatin1().constData(),
                    s.points < kFamilyRowsJudged ? ""
                    : meetsTarget(s)             ? "  meets the target"
                                                 : "  misses the target");
}

struct Expected {
    const char* name;
    int rows;
    double medianAbs, worstAbs;
};

// The figures a test asserts, to half a percentage point, so that a change of the model that moves them is seen.
inline void expectFigures(const std::map<QString, ErrorSummary>& summaries, std::initializer_list<Expected> expected)
{
    EXPECT_EQ(summaries.size(), expected.size());
    for (const Expected& e : expected) {
        const auto it = summaries.find(QString::fromLatin1(e.name));
        ASSERT_NE(it, summaries.end()) << e.name;
        EXPECT_EQ(it->second.points, e.rows) << e.name;
        EXPECT_NEAR(it->second.medianAbs, e.medianAbs, 0.005) << e.name;
        EXPECT_NEAR(it->second.worstAbs, e.worstAbs, 0.005) << e.name;
    }
}

}  // namespace ridgeline::test
