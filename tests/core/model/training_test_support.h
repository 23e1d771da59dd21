#pragma once
// Shared helpers for the training step tests: a configuration on a catalog GPU with its own links.

#include "core/model/training/training_config.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

namespace ridgeline::test {

// One GPU, sequence 4,096, micro-batch and global batch 1, bf16-mixed AdamW, no checkpointing; the card's own link
// inside a node and its network (else InfiniBand NDR) between nodes.
inline TrainingConfig trainingConfig(const ModelSpec& m, const char* gpuId)
{
    TrainingConfig c;
    c.model = m;
    c.gpu = gpu(gpuId);
    const std::optional<Error> error = resolveTrainingLinks(c, QString(), QString());
    EXPECT_FALSE(error) << (error ? error->message.toStdString() : "");
    return c;
}

}  // namespace ridgeline::test
