#pragma once
// Shared helpers for the LLM model tests: catalog look-ups that fail the test loudly.

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/llm_model.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace ridgeline::test {

inline ModelSpec model(const char* id)
{
    Result<ModelSpec> found = findModel(QString::fromLatin1(id));
    EXPECT_TRUE(found.ok()) << (found.ok() ? "" : found.error().message.toStdString());
    return found.ok() ? found.value() : ModelSpec{};
}

inline GpuSpec gpu(const char* id)
{
    Result<GpuSpec> found = findGpu(QString::fromLatin1(id));
    EXPECT_TRUE(found.ok()) << (found.ok() ? "" : found.error().message.toStdString());
    return found.ok() ? found.value() : GpuSpec{};
}

// The source text's GPU: roughly 300 TFLOP/s and 2 TB/s, with 80 GiB.
inline GpuSpec sourceTextGpu()
{
    return customGpu(300.0, 2.0, 80.0).value();
}

inline InferenceConfig config(const ModelSpec& m, const GpuSpec& g, std::int64_t batch, std::int64_t context)
{
    InferenceConfig c;
    c.model = m;
    c.gpu = g;
    c.batch = batch;
    c.context = context;
    return c;
}

inline InferenceReport evaluate(const InferenceConfig& c)
{
    Result<InferenceReport> r = evaluateInference(c);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : InferenceReport{};
}

inline LlmModel prepared(const InferenceConfig& c)
{
    Result<LlmModel> m = LlmModel::create(c);
    if (!m.ok()) {
        ADD_FAILURE() << m.error().message.toStdString();
        std::abort();
    }
    return m.value();
}

}  // namespace ridgeline::test
