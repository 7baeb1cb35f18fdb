// SharedConstants, the table behind weight_sharing_across_methods: which
// constants a second method's model takes from the first one (by FQN, same
// dtype and size, lender alive), without a GPU: the handles are plain
// tensor objects and the lenders plain shared pointers.
#include <memory>
#include <string>
#include <vector>

#include <executorch/runtime/platform/log.h>

#include <gtest/gtest.h>

#include "aoti/dtype.h"
#include "aoti/shared_constants.h"
#include "aoti/tensor_obj.h"

namespace aoti = executorch::backends::cuda::aoti;
using aoti::ConstantInfo;
using aoti::SharedConstants;
using aoti::SharedHit;
using aoti::TensorObj;
using executorch::runtime::Error;

namespace {

// A decoder's table: two weights, a KV cache buffer, a folded constant and
// a lifted constant without an FQN.
std::vector<ConstantInfo> decoder_table() {
  return {{"w0", aoti::kDtBF16, 8192, false, "layers.0.wq"},
          {"w1", aoti::kDtBF16, 4096, false, "layers.0.wk"},
          {"cache", aoti::kDtBF16, 65536, false, "layers.0.k_cache"},
          {"folded", aoti::kDtBF16, 8192, true, "layers.0.wq_t"},
          {"c0", aoti::kDtI64, 8, false, ""}};
}

struct Lender {
  std::shared_ptr<const void> owner = std::make_shared<int>(0);
  std::vector<TensorObj> objs = std::vector<TensorObj>(5);
  std::vector<TensorObj*> handles() {
    std::vector<TensorObj*> h;
    for (auto& o : objs) h.push_back(&o);
    return h;
  }
};

TEST(SharedConstants, SecondMethodFindsTheFirstOnesConstants) {
  SharedConstants table;
  Lender prefill;
  std::vector<SharedHit> hits;
  ASSERT_EQ(table.lookup(decoder_table(), &hits, "prefill"), Error::Ok);
  EXPECT_TRUE(hits.empty());
  table.publish(decoder_table(), prefill.handles(), prefill.owner);
  // Folded constants and constants without an FQN are not shared.
  EXPECT_EQ(table.live_entries(), 3u);

  ASSERT_EQ(table.lookup(decoder_table(), &hits, "decode"), Error::Ok);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].index, 0u);
  EXPECT_EQ(hits[0].handle, &prefill.objs[0]);
  EXPECT_EQ(hits[2].index, 2u);
  EXPECT_EQ(hits[2].handle, &prefill.objs[2]); // the KV cache: one copy
  EXPECT_EQ(hits[1].lender, prefill.owner);
}

TEST(SharedConstants, HitsKeepTheLenderAlive) {
  SharedConstants table;
  std::vector<SharedHit> hits;
  std::weak_ptr<const void> watch;
  {
    Lender prefill;
    watch = prefill.owner;
    table.publish(decoder_table(), prefill.handles(), prefill.owner);
    ASSERT_EQ(table.lookup(decoder_table(), &hits, "decode"), Error::Ok);
  }
  EXPECT_FALSE(watch.expired());
  hits.clear();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(table.live_entries(), 0u);
}

TEST(SharedConstants, AGoneLenderIsForgotten) {
  SharedConstants table;
  {
    Lender first;
    table.publish(decoder_table(), first.handles(), first.owner);
  }
  std::vector<SharedHit> hits;
  ASSERT_EQ(table.lookup(decoder_table(), &hits, "decode"), Error::Ok);
  EXPECT_TRUE(hits.empty());
  // A new lender takes the FQNs over.
  Lender second;
  table.publish(decoder_table(), second.handles(), second.owner);
  ASSERT_EQ(table.lookup(decoder_table(), &hits, "decode"), Error::Ok);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].handle, &second.objs[0]);
}

TEST(SharedConstants, TheFirstLiveLenderWins) {
  SharedConstants table;
  Lender a, b;
  table.publish(decoder_table(), a.handles(), a.owner);
  table.publish(decoder_table(), b.handles(), b.owner);
  std::vector<SharedHit> hits;
  ASSERT_EQ(table.lookup(decoder_table(), &hits, "decode"), Error::Ok);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].handle, &a.objs[0]);
}

TEST(SharedConstants, SameFqnOtherShapeIsAnError) {
  SharedConstants table;
  Lender prefill;
  table.publish(decoder_table(), prefill.handles(), prefill.owner);
  std::vector<ConstantInfo> other = decoder_table();
  other[2].data_size = 32768; // a cache of another length
  std::vector<std::string> lines;
  static std::vector<std::string>* sink_lines;
  sink_lines = &lines;
  auto prev = executorch::runtime::set_log_sink([](executorch::runtime::LogLevel l, const char*,
                                                   const char*, size_t, const char* m, size_t n) {
    if (l >= executorch::runtime::LogLevel::Error) sink_lines->emplace_back(m, n);
  });
  std::vector<SharedHit> hits;
  EXPECT_EQ(table.lookup(other, &hits, "decode"), Error::InvalidProgram);
  executorch::runtime::set_log_sink(prev);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("layers.0.k_cache"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("32768"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("65536"), std::string::npos) << lines[0];
  // Another dtype is refused too.
  other = decoder_table();
  other[0].dtype = aoti::kDtF32;
  EXPECT_EQ(table.lookup(other, &hits, "decode"), Error::InvalidProgram);
}

TEST(SharedConstants, ShareableNeedsAnFqnAndNoFolding) {
  EXPECT_TRUE(aoti::shareable({"n", aoti::kDtF32, 4, false, "a.b"}));
  EXPECT_FALSE(aoti::shareable({"n", aoti::kDtF32, 4, false, ""}));
  EXPECT_FALSE(aoti::shareable({"n", aoti::kDtF32, 4, true, "a.b"}));
}

} // namespace
