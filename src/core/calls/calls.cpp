#include "calls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "attention.hpp"
#include "attention_fast.hpp"
#include "call_args.hpp"
#include "embed.hpp"
#include "model/steps.hpp"
#include "positions.hpp"
#include "rope.hpp"
#include "softmax.hpp"
#include "tensor.hpp"

namespace seqorder::calls {
namespace {

// x (.., T, D) as (batch, length, width), batch the product of the leading axes. The product divides x's count, so it
// is exact whenever x has elements; an empty x's leading axes may be anything up to 2^53 - 1 each (the shape
// [2^40, 2^40, 0, 2] would overflow 64 bits), so it saturates at INT64_MAX, a batch no kernel is given (nothing is
// computed when every result is empty).
struct Rows {
    std::int64_t batch, length, width;
};
Rows rows_of(const Sizes& shape) {
    Rows r{1, shape[shape.size() - 2], shape.back()};
    for (std::size_t axis = 0; axis + 2 < shape.size(); ++axis)
        if (__builtin_mul_overflow(r.batch, shape[axis], &r.batch)) r.batch = std::numeric_limits<std::int64_t>::max();
    return r;
}

// The body of addPositions and rope: x (.., T, D) with an even D (`why`), start and base as positions() checks them.
template <class Shift>
std::vector<Result> shift(const ShiftArgs& a, const char* what, const char* why, Shift kernel) {
    check_dtype("x.dtype", a.x.dtype, {"float64", "float32"});
    const Sizes shape = dims(a.x, "x");
    if (shape.size() < 2)
        throw std::invalid_argument("x must have shape (T, D) or (.., T, D), got " + shape_to_string(shape));
    const Rows x = rows_of(shape);
    if (x.width == 0 || x.width % 2 != 0)
        throw std::invalid_argument(std::string("x's width D (its last axis) must be a positive even integer (") + why +
                                    "), got " + std::to_string(x.width));
    const std::int64_t start = integer(a.start, "start", 0, kMaxPosition);
    check_positions_args(x.length, x.width, start, a.base);
    std::vector<Result> results;
    results.push_back(make_result(what, a.x.dtype, shape, a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.x.dtype, [&]<class T>() { kernel(out_span<T>(results[0]), in_span<T>(a.x), x, start, a.base); });
    return results;
}

// attention's kernel: float32 without the steps runs the fused one, anything else the readable reference.
bool fused(const AttentionPlan& plan) { return plan.dtype == "float32" && !plan.steps; }

// The kernels' shape of a plan: (batch, Tq, Tk, D, Dv).
AttentionShape shape_of(const AttentionPlan& plan) {
    return {plan.batch, plan.queries, plan.keys, plan.width, plan.value_width};
}

// What attention's result i is called in messages: its steps (with steps: true), then the output.
std::string result_name(const AttentionPlan& plan, std::size_t i) {
    static constexpr const char* kSteps[] = {"scores", "scaled", "weights"};
    return plan.steps && i < 3 ? kSteps[i] : "output";
}

// positions()'s arguments checked: the table's sizes, its first position and its result's element count.
struct PositionsChecked {
    std::int64_t length, width, start, count;
};
PositionsChecked check_positions(const PositionsArgs& a) {
    const std::int64_t length = size(a.length, "length");
    const std::int64_t width = size(a.width, "width");
    const std::int64_t start = integer(a.start, "start", 0, kMaxPosition);
    check_dtype("dtype", a.dtype, {"float64", "float32"});
    if (a.layout != "interleaved" && a.layout != "halves")
        throw std::invalid_argument("layout must be 'interleaved' or 'halves', got " + quoted(a.layout));
    check_positions_args(length, width, start, a.base);
    return {length, width, start, result_count("positions", a.dtype, {length, width}, a.out_length)};
}

}  // namespace

std::vector<Result> positions(const PositionsArgs& a) {
    const PositionsChecked c = check_positions(a);
    std::vector<Result> results;
    results.push_back(allocate_result("positions", a.dtype, {c.length, c.width}, c.count));
    if (results[0].count == 0) return results;
    const Layout layout = a.layout == "halves" ? Layout::halves : Layout::interleaved;
    for_float(a.dtype, [&]<class T>() {
        positions_fast<T>(out_span<T>(results[0]), c.length, c.width, c.start, a.base, layout);
    });
    return results;
}

PositionsPlan plan_positions(const PositionsArgs& a) {
    const PositionsChecked c = check_positions(a);
    // as many whole anchor intervals as fit in kPositionsPieceBytes, at least one
    const std::int64_t row_bytes = std::max<std::int64_t>(c.width, 1) * static_cast<std::int64_t>(element_bytes(a.dtype));
    const std::int64_t anchors = std::max<std::int64_t>(kPositionsPieceBytes / row_bytes / kAnchorRows, 1);
    return {c.count, anchors * kAnchorRows};
}

std::vector<Result> embed(const EmbedArgs& a) {
    check_dtype("table.dtype", a.table.dtype, {"float64", "float32"});
    check_dtype("ids.dtype", a.ids.dtype, {"int32"});
    const Sizes table = dims(a.table, "table");
    const Sizes ids = dims(a.ids, "ids");
    if (table.size() != 2) throw std::invalid_argument("table must have shape (V, D), got " + shape_to_string(table));
    if (ids.size() != 1 && ids.size() != 2)
        throw std::invalid_argument("ids must have shape (T) or (B, T), got " + shape_to_string(ids));
    // Every id before the result is allocated. ids is in memory, so its sizes fit a size_t (for the index in messages).
    const std::span<const std::int32_t> id_values = in_span<std::int32_t>(a.ids);
    if (!id_values.empty()) check_ids(id_values, table[0], Shape(ids.begin(), ids.end()));
    Sizes shape = ids;
    shape.push_back(table[1]);
    std::vector<Result> results;
    results.push_back(make_result("embeddings", a.table.dtype, std::move(shape), a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.table.dtype, [&]<class T>() {
        embed_into<T>(out_span<T>(results[0]), in_span<T>(a.table), table[0], table[1], id_values);
    });
    return results;
}

std::vector<Result> add_positions(const ShiftArgs& a) {
    return shift(a, "x + positions", "every sine needs its cosine",
                 [&]<class T>(std::span<T> out, std::span<const T> x, Rows r, std::int64_t start, double base) {
                     add_positions_into<T>(out, x, r.batch, r.length, r.width, start, base);
                 });
}

std::vector<Result> rope(const ShiftArgs& a) {
    return shift(a, "rotated x", "rotary positions rotate coordinate pairs",
                 [&]<class T>(std::span<T> out, std::span<const T> x, Rows r, std::int64_t start, double base) {
                     rope_into<T>(out, x, r.batch, r.length, r.width, start, base);
                 });
}

std::vector<Result> learned_positions(const LearnedPositionsArgs& a) {
    check_dtype("table.dtype", a.table.dtype, {"float64", "float32"});
    const Sizes table = dims(a.table, "table");
    if (table.size() != 2) throw std::invalid_argument("table must have shape (P, D), got " + shape_to_string(table));
    const std::int64_t length = size(a.length, "length");
    const std::int64_t start = integer(a.start, "start", 0, kMaxPosition);
    check_learned_positions_args(table[0], length, start);
    std::vector<Result> results;
    results.push_back(make_result("learned positions", a.table.dtype, {length, table[1]}, a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.table.dtype, [&]<class T>() {
        learned_positions_into<T>(out_span<T>(results[0]), in_span<T>(a.table), table[0], table[1], length, start);
    });
    return results;
}

AttentionPlan plan_attention(const AttentionArgs& a) {
    check_dtype("q.dtype", a.q.dtype, {"float64", "float32"});
    check_dtype("k.dtype", a.k.dtype, {"float64", "float32"});
    check_dtype("v.dtype", a.v.dtype, {"float64", "float32"});
    if (a.k.dtype != a.q.dtype || a.v.dtype != a.q.dtype)
        throw std::invalid_argument("q, k and v must have one dtype, got " + quoted(a.q.dtype) + ", " + quoted(a.k.dtype) +
                                    " and " + quoted(a.v.dtype));
    const Sizes q = dims(a.q, "q"), k = dims(a.k, "k"), v = dims(a.v, "v");
    if (q.size() < 2) throw std::invalid_argument("q must have shape (Tq, D) or (.., Tq, D), got " + shape_to_string(q));
    if (k.size() != q.size() || v.size() != q.size())
        throw std::invalid_argument("q, k and v must have the same rank, got shapes " + shape_to_string(q) + ", " + shape_to_string(k) +
                                    " and " + shape_to_string(v));
    const std::size_t lead = q.size() - 2;
    if (!std::equal(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(lead), k.begin()) ||
        !std::equal(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(lead), v.begin()))
        throw std::invalid_argument("q, k and v must have the same batch axes (all but the last two), got shapes " +
                                    shape_to_string(q) + ", " + shape_to_string(k) + " and " + shape_to_string(v));
    const Rows qr = rows_of(q), kr = rows_of(k), vr = rows_of(v);
    if (kr.width != qr.width)
        throw std::invalid_argument("q and k must have the same width D, got " + std::to_string(qr.width) + " and " +
                                    std::to_string(kr.width));
    if (vr.length != kr.length)
        throw std::invalid_argument("k and v must have the same length Tk, got " + std::to_string(kr.length) + " and " +
                                    std::to_string(vr.length));
    CausalMask mask{a.causal, {}};
    if (a.query_start) {
        // range first as an integer, then the rule (0..Tk - Tq, and only with causal) is check_attention_args'
        mask.query_start = integer(*a.query_start, "queryStart", -static_cast<std::int64_t>(kMaxSafe), static_cast<std::int64_t>(kMaxSafe));
    }
    AttentionPlan plan;
    plan.dtype = a.q.dtype;
    plan.batch = qr.batch;
    plan.queries = qr.length;
    plan.keys = kr.length;
    plan.width = qr.width;
    plan.value_width = vr.width;
    plan.causal = a.causal;
    plan.query_start = check_attention_args(shape_of(plan), mask);
    plan.steps = a.steps;
    plan.fused = fused(plan);
    plan.row_group = plan.fused ? static_cast<std::int64_t>(kFastAttentionRows) : 1;

    // (.., Tq, Tk) for each step, then (.., Tq, Dv) for the output, each checked against the tensor limit
    const std::size_t count = plan.steps ? 4 : 1;
    for (std::size_t i = 0; i < count; ++i) {
        const bool output = i + 1 == count;
        Sizes shape(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(lead));
        shape.push_back(plan.queries);
        shape.push_back(output ? plan.value_width : plan.keys);
        result_count(result_name(plan, i), plan.dtype, shape, output ? a.out_length : std::nullopt);
        plan.results.push_back(std::move(shape));
    }
    return plan;
}

std::vector<Result> attention(const AttentionArgs& a) {
    AttentionPlan plan = plan_attention(a);
    std::vector<Result> results;
    for (std::size_t i = 0; i < plan.results.size(); ++i) {
        // (checked by the plan: within the limit, and 0 for an empty result whatever its other axes)
        const std::int64_t count = checked_count(plan.results[i], element_bytes(plan.dtype), result_name(plan, i));
        results.push_back(allocate_result(result_name(plan, i), plan.dtype, std::move(plan.results[i]), count));
    }
    Result& output = results.back();
    if (std::all_of(results.begin(), results.end(), [](const Result& r) { return r.count == 0; })) return results;
    const CausalMask mask{plan.causal, plan.causal ? std::optional(plan.query_start) : std::nullopt};
    for_float(plan.dtype, [&]<class T>() {
        const auto qs = in_span<T>(a.q), ks = in_span<T>(a.k), vs = in_span<T>(a.v);
        if constexpr (std::is_same_v<T, float>) {
            if (plan.fused) {  // the fused kernel: never builds the (Tq, Tk) matrices
                attention_fast(out_span<float>(output), qs, ks, vs, shape_of(plan), mask);
                return;
            }
        }
        AttentionStepsOut<T> out{{}, {}, {}, out_span<T>(output)};
        if (plan.steps) out = {out_span<T>(results[0]), out_span<T>(results[1]), out_span<T>(results[2]), out_span<T>(output)};
        attention_reference<T>(out, qs, ks, vs, shape_of(plan), mask);
    });
    return results;
}

std::vector<Result> matmul(const MatmulArgs& a) {
    check_dtype("a.dtype", a.a.dtype, {"float64", "float32"});
    check_dtype("b.dtype", a.b.dtype, {"float64", "float32"});
    if (a.b.dtype != a.a.dtype)
        throw std::invalid_argument("a and b must have one dtype, got " + quoted(a.a.dtype) + " and " + quoted(a.b.dtype));
    const Sizes as = dims(a.a, "a"), bs = dims(a.b, "b");
    if (as.size() < 2) throw std::invalid_argument("a must have shape (M, K) or (.., M, K), got " + shape_to_string(as));
    if (bs.size() < 2) throw std::invalid_argument("b must have shape (K, N) or (.., K, N), got " + shape_to_string(bs));
    const std::int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
    if (bs[bs.size() - 2] != K)
        throw std::invalid_argument("a's last axis and b's second-to-last must have one length K, got shapes " +
                                    shape_to_string(as) + " and " + shape_to_string(bs));
    // The leading axes, aligned from the right (a missing axis counts as 1): each pair equal, or one of them 1.
    const std::size_t lead = std::max(as.size(), bs.size()) - 2;
    const auto axis_of = [lead](const Sizes& s, std::size_t axis) {  // axis of the result's leading axes, in s
        const std::size_t missing = lead - (s.size() - 2);
        return axis < missing ? std::int64_t{1} : s[axis - missing];
    };
    Sizes shape;
    for (std::size_t axis = 0; axis < lead; ++axis) {
        const std::int64_t da = axis_of(as, axis), db = axis_of(bs, axis);
        if (da != db && da != 1 && db != 1)
            throw std::invalid_argument("a's and b's leading axes must broadcast (aligned from the right, each pair equal "
                                        "or one of them 1), got shapes " + shape_to_string(as) + " and " + shape_to_string(bs));
        shape.push_back(da == 1 ? db : da);
    }
    shape.push_back(M);
    shape.push_back(N);
    std::vector<Result> results;
    results.push_back(make_result("a @ b", a.a.dtype, shape, a.out_length));
    if (results[0].count == 0) return results;
    // Every axis of the result is at least 1 now, and each operand's matrices are in memory: their counts fit a size_t.
    // Where the result's matrix at `index` takes a's and b's: strides in matrices, 0 along an axis of size 1.
    std::vector<std::size_t> a_stride(lead, 0), b_stride(lead, 0);
    for (std::size_t axis = lead, sa = 1, sb = 1; axis-- > 0;) {
        const auto da = static_cast<std::size_t>(axis_of(as, axis)), db = static_cast<std::size_t>(axis_of(bs, axis));
        a_stride[axis] = da == 1 ? 0 : sa;
        b_stride[axis] = db == 1 ? 0 : sb;
        sa *= da;
        sb *= db;
    }
    const auto m = static_cast<std::size_t>(M), k = static_cast<std::size_t>(K), n = static_cast<std::size_t>(N);
    const std::size_t matrices = static_cast<std::size_t>(results[0].count) / (m * n);
    for_float(a.a.dtype, [&]<class T>() {
        T* out = out_span<T>(results[0]).data();
        const T* x = in_span<T>(a.a).data();
        const T* y = in_span<T>(a.b).data();
        std::vector<std::size_t> index(lead, 0);
        for (std::size_t matrix = 0; matrix < matrices; ++matrix) {
            std::size_t from_a = 0, from_b = 0;
            for (std::size_t axis = 0; axis < lead; ++axis) {
                from_a += index[axis] * a_stride[axis];
                from_b += index[axis] * b_stride[axis];
            }
            model::matmul_forward<T>(out + matrix * m * n, x + from_a * m * k, y + from_b * k * n, nullptr, m, k, n);
            for (std::size_t axis = lead; axis-- > 0;) {  // the next index, the last axis fastest
                if (++index[axis] < static_cast<std::size_t>(shape[axis])) break;
                index[axis] = 0;
            }
        }
    });
    return results;
}

std::vector<Result> softmax(const SoftmaxArgs& a) {
    check_dtype("x.dtype", a.x.dtype, {"float64", "float32"});
    const Sizes shape = dims(a.x, "x");
    if (shape.empty()) throw std::invalid_argument("x must have at least one axis (softmax runs over the last), got []");
    if (a.causal && shape.size() < 2)
        throw std::invalid_argument("x must have shape (Tq, Tk) or (.., Tq, Tk) with causal: true, got " + shape_to_string(shape));
    CausalMask mask{a.causal, {}};
    if (a.query_start)  // range first as an integer, then the rule (0..Tk - Tq, and only with causal): check_causal_mask's
        mask.query_start = integer(*a.query_start, "queryStart", -static_cast<std::int64_t>(kMaxSafe), static_cast<std::int64_t>(kMaxSafe));
    const Rows rows = shape.size() == 1 ? Rows{1, 1, shape[0]} : rows_of(shape);
    const std::int64_t query_start = check_causal_mask(rows.length, rows.width, mask);
    if (mask.causal) mask.query_start = query_start;
    std::vector<Result> results;
    results.push_back(make_result("softmax", a.x.dtype, shape, a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.x.dtype, [&]<class T>() {
        softmax_rows<T>(out_span<T>(results[0]), in_span<T>(a.x), {rows.batch, rows.length, rows.width}, mask);
    });
    return results;
}

std::vector<Result> split_heads(const SplitHeadsArgs& a) {
    check_dtype("x.dtype", a.x.dtype, {"float64", "float32"});
    const Sizes shape = dims(a.x, "x");
    if (shape.size() < 2) throw std::invalid_argument("x must have shape (T, D) or (.., T, D), got " + shape_to_string(shape));
    const std::int64_t heads = integer(a.heads, "heads", 1, static_cast<std::int64_t>(kMaxSafe));
    const Rows x = rows_of(shape);
    if (x.width % heads != 0)
        throw std::invalid_argument("heads must divide x's width D (its last axis), got D = " + std::to_string(x.width) +
                                    " and heads = " + std::to_string(heads));
    Sizes split(shape.begin(), shape.end() - 2);
    split.insert(split.end(), {heads, x.length, x.width / heads});
    std::vector<Result> results;
    results.push_back(make_result("split heads", a.x.dtype, std::move(split), a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.x.dtype, [&]<class T>() {
        model::split_heads<T>(out_span<T>(results[0]).data(), in_span<T>(a.x).data(), static_cast<std::size_t>(x.batch),
                              static_cast<std::size_t>(x.length), static_cast<std::size_t>(heads),
                              static_cast<std::size_t>(x.width / heads));
    });
    return results;
}

std::vector<Result> merge_heads(const MergeHeadsArgs& a) {
    check_dtype("x.dtype", a.x.dtype, {"float64", "float32"});
    const Sizes shape = dims(a.x, "x");
    if (shape.size() < 3)
        throw std::invalid_argument("x must have shape (H, T, Dh) or (.., H, T, Dh), got " + shape_to_string(shape));
    const std::int64_t heads = shape[shape.size() - 3], length = shape[shape.size() - 2], width = shape.back();
    std::int64_t merged = 0;
    if (__builtin_mul_overflow(heads, width, &merged) || merged > static_cast<std::int64_t>(kMaxSafe))
        throw std::invalid_argument("x's heads H times their width Dh must be at most 2^53 - 1, got shape " + shape_to_string(shape));
    const Rows blocks = rows_of(Sizes(shape.begin(), shape.end() - 1));  // (.., H, T): batch the leading axes' product
    Sizes joined(shape.begin(), shape.end() - 3);
    joined.insert(joined.end(), {length, merged});
    std::vector<Result> results;
    results.push_back(make_result("merged heads", a.x.dtype, std::move(joined), a.out_length));
    if (results[0].count == 0) return results;
    for_float(a.x.dtype, [&]<class T>() {
        model::merge_heads<T>(out_span<T>(results[0]).data(), in_span<T>(a.x).data(), static_cast<std::size_t>(blocks.batch),
                              static_cast<std::size_t>(length), static_cast<std::size_t>(heads),
                              static_cast<std::size_t>(width));
    });
    return results;
}

std::int64_t max_tensor_bytes() { return static_cast<std::int64_t>(kMaxTensorBytes); }

}  // namespace seqorder::calls
