// What the model's benchmark harnesses (model_step.cpp, model_study.cpp) ask of a model::Model<float>, on a task's
// batches: the model's own calls on their spans (the package's checks and results, calls::model_*, are not what they
// time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "model/task.hpp"

namespace harness {

// The model's forward on a task's ids (B, T), at the positions of the call's options (default 0 .. T - 1): the logits,
// (B, classes) or (B, T, classes) flat.
inline std::vector<float> logits_of(seqorder::model::Model<float>& model, const seqorder::Tensor<std::int32_t>& ids,
                                    const seqorder::model::CallPositions& positions = {}) {
    const auto B = static_cast<std::int64_t>(ids.dim(0)), T = static_cast<std::int64_t>(ids.dim(1));
    std::size_t count = 1;
    for (const std::size_t d : model.logits_shape(B, T)) count *= d;
    std::vector<float> logits(count);
    model.forward(logits, ids.data(), B, T, positions);
    return logits;
}

// One Adam step on a task's batch (lr 3e-3), at the positions of the call's options: the loss before it.
inline double step_on(seqorder::model::Model<float>& model, const seqorder::model::TaskBatch& batch,
                      const seqorder::model::CallPositions& positions = {}) {
    return model.step(batch.ids.data(), batch.targets.data(), static_cast<std::int64_t>(batch.ids.dim(0)),
                      static_cast<std::int64_t>(batch.ids.dim(1)), 3e-3, positions);
}

}  // namespace harness
