// The model's hot steps in float32, fast: matrix products on four-lane vectors (f32x4.hpp: WebAssembly SIMD128 under
// -msimd128, four plain floats natively), for the steps that hold nearly all of a training step's arithmetic (the
// projections, the MLP, the readout, and attention's products).
//
// Same results as the reference (steps.hpp), bit for bit: every output element is the same sum of the same products
// added in the same order (one vector lane per output element, never a reordered reduction), the softmax is the
// reference's operations (its elementwise ones four keys at a time, its e^x by expf4.hpp, std::exp's bits; its sums
// in order), and masked attention weights, being exactly 0, add exact zeros (so finite inputs give identical
// bits; a NaN or infinity in a hidden value is where the two could differ). The tests check the bits over many
// shapes. In the opt-in relaxed-SIMD build (SEQORDER_RELAXED_FMA) each multiply-add may be fused, so results there
// differ from the reference by float32 rounding.
//
// `workspace` holds packed (transposed) operands; it grows to what the largest call needs and is reused.
#pragma once

#include <cstddef>
#include <vector>

namespace seqorder::model::fast {

// The step that follows a product in the network, fused into it: applied to each finished element of the result as it
// is stored, by the reference's own operation (steps.hpp), so the bits are those of the two steps run one after the
// other, with one pass over the result fewer. `other` is an array of the result's shape.
enum class Then {
    store,       // the product as it is
    relu,        // relu_forward(out, out)
    add,         // add(out, other, out): a residual path, other + product
    accumulate,  // add(out, out, product): the product added to what out holds
    relu_mask,   // relu_backward(out, out, other): the product where other (a ReLU's output) > 0, else 0
};

// As matmul_forward / matmul_backward in steps.hpp, then `then` on out (matmul_forward) or dinp (matmul_backward).
void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t N,
                    std::size_t C, std::size_t OC, Then then = Then::store, const float* other = nullptr);
void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t N, std::size_t C, std::size_t OC,
                     std::vector<float>& workspace, Then then = Then::store, const float* other = nullptr);

// As layernorm_forward / layernorm_backward in steps.hpp: four rows at a time, one per lane, for the sums over each row
// (widths that are not a multiple of 4 run the reference's loops). With `accumulate`, dinp is added to what dinp holds
// (add(dinp, dinp, the reference's dinp)).
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* gain, const float* bias,
                       std::size_t N, std::size_t D);
void layernorm_backward(float* dinp, float* dgain, float* dbias, const float* dout, const float* inp,
                        const float* gain, const float* mean, const float* rstd, std::size_t N, std::size_t D,
                        bool accumulate = false);

// As mean_forward / mean_backward in steps.hpp, four columns at a time (D a multiple of 4; else the reference): each
// column's sum over t in order of t.
void mean_forward(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t D);
void mean_backward(float* dinp, const float* dout, std::size_t B, std::size_t T, std::size_t D);

// As split_heads / merge_heads in steps.hpp: each head's row copied four floats at a time (where hd is a multiple of
// 4; else the reference), not by a call of memcpy per row.
void split_heads(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd);
void merge_heads(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd);

// Where attention finds the T rows of head bh in q, k, v, the output and their gradients: split, (BH, T, hd), the heads
// one after the other (steps.hpp's layout); or side by side, (B, T, H hd) with H = side_by_side, as the projections
// write them: head bh = b H + h's row t at (b T + t) H hd + h hd, rows H hd apart (no copies to split the heads
// and merge them again).
struct HeadsLayout {
    std::size_t side_by_side = 0;  // H; 0: split
    std::size_t row(std::size_t hd) const { return side_by_side ? side_by_side * hd : hd; }
    std::size_t start(std::size_t bh, std::size_t T, std::size_t hd) const {
        return side_by_side ? (bh / side_by_side * T * side_by_side + bh % side_by_side) * hd : bh * T * hd;
    }
};

// As attention_forward / attention_backward in steps.hpp (bias (H, T, T), dbias (BH, T, T) and temperature as there),
// q, k, v, out and their gradients laid out as `heads` says.
void attention_forward(float* out, float* weights, const float* q, const float* k, const float* v, std::size_t BH,
                       std::size_t T, std::size_t hd, bool causal, std::vector<float>& workspace,
                       const float* bias = nullptr, std::size_t H = 1, double temperature = 1.0,
                       HeadsLayout heads = {});
void attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q, const float* k,
                        const float* v, const float* weights, std::size_t BH, std::size_t T, std::size_t hd,
                        bool causal, std::vector<float>& workspace, float* dbias = nullptr, double temperature = 1.0,
                        HeadsLayout heads = {});

}  // namespace seqorder::model::fast
