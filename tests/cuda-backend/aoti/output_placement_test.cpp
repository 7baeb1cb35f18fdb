// Output placement without a GPU: a "run" here is a few empty_strided-like
// calls (ScopedPlacement::take, then a block when it lends none) and the
// handles a model would return. Blocks are views of host memory marked
// owned for the run, as a pool block would be, and unmarked before they
// are dropped (so that no CUDA call frees them).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "aoti/dtype.h"
#include "aoti/output_placement.h"
#include "aoti/tensor_obj.h"

namespace aoti = executorch::backends::cuda::aoti;
using aoti::OutputFate;
using aoti::ScopedPlacement;

namespace {

constexpr int64_t kN = 8;
const int64_t kSizes[] = {2, 4};
const int64_t kStrides[] = {4, 1};
constexpr size_t kBytes = sizeof(float) * kN;

// A caller's output buffer on "device" 0.
struct Caller {
  alignas(16) float data[kN] = {};
  aoti::PlacementTarget target() { return {data, kBytes, aoti::kDtF32, 0, 2, kSizes, kStrides}; }
};

// One empty_strided call of a run: the lent view, or a fresh block tagged
// with its index in the run.
struct FakeRun {
  std::vector<std::vector<float>> memory;
  std::vector<aoti::TensorObj*> made;
  aoti::TensorObj* alloc(size_t nbytes = kBytes, uint32_t* seq_out = nullptr) {
    uint32_t seq;
    aoti::TensorObj* t = ScopedPlacement::take(nbytes, 2, kSizes, kStrides, aoti::kDtF32, 0, &seq);
    if (t == nullptr) {
      memory.emplace_back(kN);
      t = aoti::make_view(memory.back().data(), nbytes, 2, kSizes, kStrides, aoti::kDtF32,
                          aoti::kDevCuda, 0);
      t->storage->owned = true;
      ScopedPlacement::tag(t, seq);
    }
    if (seq_out != nullptr) *seq_out = seq;
    made.push_back(t);
    return t;
  }
  ~FakeRun() {
    for (aoti::TensorObj* t : made) {
      t->storage->owned = false;
      aoti::destroy_tensor(t);
    }
  }
};

// Runs whose second allocation is output 0 (and third output 1 when there
// are two): learns {1 -> 0, 2 -> 1}.
void learn(aoti::OutputPlan& plan, aoti::PlacementTarget* targets, size_t n) {
  ScopedPlacement scope(plan, targets, n);
  FakeRun run;
  run.alloc();
  aoti::TensorObj* outs[2] = {run.alloc(), run.alloc()};
  OutputFate fates[2];
  scope.settle(outs, fates);
  for (size_t j = 0; j < n; ++j) EXPECT_EQ(fates[j], OutputFate::kCopy);
}

TEST(OutputPlacement, NoScopeCountsNothing) {
  uint32_t seq = 0;
  EXPECT_EQ(ScopedPlacement::take(kBytes, 2, kSizes, kStrides, aoti::kDtF32, 0, &seq), nullptr);
  EXPECT_EQ(seq, ScopedPlacement::kNoSeq);
}

TEST(OutputPlacement, LearnsThenAllocatesTheOutputInTheCallersBuffer) {
  aoti::OutputPlan plan;
  Caller c;
  aoti::PlacementTarget t = c.target();
  learn(plan, &t, 1);
  ASSERT_NE(plan.entries(), nullptr);
  ASSERT_EQ(plan.entries()->size(), 1u);
  EXPECT_EQ((*plan.entries())[0].alloc, 1u);
  EXPECT_EQ((*plan.entries())[0].output, 0u);

  const int64_t before = aoti::outputs_in_place_total();
  ScopedPlacement scope(plan, &t, 1);
  FakeRun run;
  uint32_t seq;
  EXPECT_NE(run.alloc(kBytes, &seq)->data(), static_cast<void*>(c.data));
  EXPECT_EQ(seq, 0u);
  aoti::TensorObj* out = run.alloc(kBytes, &seq);
  EXPECT_EQ(seq, 1u);
  EXPECT_EQ(out->data(), static_cast<void*>(c.data));
  EXPECT_FALSE(out->storage->owned); // the caller's memory is never freed
  OutputFate fate;
  scope.settle(&out, &fate);
  EXPECT_EQ(fate, OutputFate::kInPlace);
  EXPECT_EQ(aoti::outputs_in_place_total(), before + 1);
  EXPECT_FALSE(plan.broken());
}

TEST(OutputPlacement, ARequestLargerThanTheBufferIsNotLent) {
  aoti::OutputPlan plan;
  Caller c;
  aoti::PlacementTarget t = c.target();
  learn(plan, &t, 1);
  ScopedPlacement scope(plan, &t, 1);
  FakeRun run;
  run.alloc();
  aoti::TensorObj* out = run.alloc(kBytes + 4);
  EXPECT_NE(out->data(), static_cast<void*>(c.data));
  OutputFate fate;
  scope.settle(&out, &fate);
  EXPECT_EQ(fate, OutputFate::kCopy);
  EXPECT_FALSE(plan.broken()); // nothing was lent, so nothing went wrong
}

TEST(OutputPlacement, SwappedOutputsAreStagedAndThePlanDropped) {
  aoti::OutputPlan plan;
  Caller c0, c1;
  aoti::PlacementTarget t[2] = {c0.target(), c1.target()};
  learn(plan, t, 2);
  ASSERT_EQ(plan.entries()->size(), 2u);
  {
    ScopedPlacement scope(plan, t, 2);
    FakeRun run;
    run.alloc();
    aoti::TensorObj* a = run.alloc(); // lent c0's buffer
    aoti::TensorObj* b = run.alloc(); // lent c1's buffer
    EXPECT_EQ(a->data(), static_cast<void*>(c0.data));
    EXPECT_EQ(b->data(), static_cast<void*>(c1.data));
    aoti::TensorObj* outs[2] = {b, a}; // this run returns them the other way
    OutputFate fates[2];
    scope.settle(outs, fates);
    EXPECT_EQ(fates[0], OutputFate::kStage);
    EXPECT_EQ(fates[1], OutputFate::kStage);
  }
  EXPECT_TRUE(plan.broken());
  EXPECT_TRUE(plan.idle());
  ScopedPlacement after(plan, t, 2); // inactive for good
  uint32_t seq;
  EXPECT_EQ(ScopedPlacement::take(kBytes, 2, kSizes, kStrides, aoti::kDtF32, 0, &seq), nullptr);
  EXPECT_EQ(seq, ScopedPlacement::kNoSeq);
}

TEST(OutputPlacement, ALentBufferUsedAsScratchStagesWhatLiesInIt) {
  aoti::OutputPlan plan;
  Caller c0, c1;
  aoti::PlacementTarget t[2] = {c0.target(), c1.target()};
  learn(plan, t, 2);
  ScopedPlacement scope(plan, t, 2);
  FakeRun run;
  run.alloc();
  aoti::TensorObj* a = run.alloc(); // lent c0's buffer
  aoti::TensorObj* b = run.alloc(); // lent c1's buffer, and held by output 1
  aoti::TensorObj* fresh = run.alloc();
  aoti::TensorObj* view_of_a = aoti::alias(a); // output 1 now views c0's buffer
  run.made.push_back(view_of_a);
  aoti::TensorObj* outs[2] = {fresh, view_of_a};
  (void)b;
  OutputFate fates[2];
  scope.settle(outs, fates);
  EXPECT_EQ(fates[0], OutputFate::kCopy);  // not in a lent buffer
  EXPECT_EQ(fates[1], OutputFate::kStage); // in c0's, which output 0 overwrites
  EXPECT_TRUE(plan.broken());
}

TEST(OutputPlacement, OutputsNotShapedLikeTheCallersAreNotLearned) {
  aoti::OutputPlan plan;
  Caller c;
  aoti::PlacementTarget t = c.target();
  const int64_t flat[] = {kN}, one[] = {1};
  t.ndim = 1; // the caller planned [8]; the model returns [2, 4]
  t.sizes = flat;
  t.strides = one;
  learn(plan, &t, 1);
  ASSERT_NE(plan.entries(), nullptr);
  EXPECT_TRUE(plan.entries()->empty());
  EXPECT_TRUE(plan.idle());
  ScopedPlacement after(plan, &t, 1); // learned empty: inactive
  uint32_t seq;
  ScopedPlacement::take(kBytes, 2, kSizes, kStrides, aoti::kDtF32, 0, &seq);
  EXPECT_EQ(seq, ScopedPlacement::kNoSeq);
}

TEST(OutputPlacement, OneBlockReturnedAsTwoOutputsIsNotLearned) {
  aoti::OutputPlan plan;
  Caller c0, c1;
  aoti::PlacementTarget t[2] = {c0.target(), c1.target()};
  {
    ScopedPlacement scope(plan, t, 2);
    FakeRun run;
    aoti::TensorObj* a = run.alloc();
    aoti::TensorObj* outs[2] = {a, a};
    OutputFate fates[2];
    scope.settle(outs, fates);
  }
  ASSERT_NE(plan.entries(), nullptr);
  EXPECT_TRUE(plan.entries()->empty());
}

TEST(OutputPlacement, NoUsableTargetLeavesThePlanUnlearned) {
  aoti::OutputPlan plan;
  aoti::PlacementTarget none{}; // a host output, say
  {
    ScopedPlacement scope(plan, &none, 1);
    FakeRun run;
    aoti::TensorObj* out = run.alloc();
    OutputFate fate;
    scope.settle(&out, &fate);
    EXPECT_EQ(fate, OutputFate::kCopy);
  }
  EXPECT_EQ(plan.entries(), nullptr); // a later run with a device output learns
  EXPECT_FALSE(plan.idle());
}

TEST(OutputPlacement, NullTargetsMakeAnInactiveScope) {
  aoti::OutputPlan plan;
  ScopedPlacement scope(plan, nullptr, 3);
  uint32_t seq = 0;
  EXPECT_EQ(ScopedPlacement::take(kBytes, 2, kSizes, kStrides, aoti::kDtF32, 0, &seq), nullptr);
  EXPECT_EQ(seq, ScopedPlacement::kNoSeq);
  aoti::TensorObj* outs[3] = {nullptr, nullptr, nullptr};
  OutputFate fates[3];
  scope.settle(outs, fates);
  EXPECT_EQ(fates[2], OutputFate::kCopy);
  EXPECT_EQ(plan.entries(), nullptr);
}

} // namespace
