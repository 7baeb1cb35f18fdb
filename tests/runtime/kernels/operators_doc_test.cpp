// docs/operators.md against the kernel registry: every operator the table
// marks as present is registered, and every registered operator is listed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <executorch/runtime/kernel/operator_registry.h>

namespace {

struct DocOps {
  std::set<std::string> have;
  std::set<std::string> missing;
};

// Table rows look like "| `ns::op.overload` | ... |"; a row with a cell that
// reads exactly "missing" is a missing operator, any other row a present one.
DocOps read_doc(const char* path) {
  DocOps ops;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end == std::string::npos) continue;
    const std::string name = line.substr(3, end - 3);
    if (line.find("| missing |") != std::string::npos) {
      ops.missing.insert(name);
    } else {
      ops.have.insert(name);
    }
  }
  return ops;
}

TEST(OperatorsDoc, MatchesTheRegistry) {
  const char* path = std::getenv("OPERATORS_DOC");
  ASSERT_NE(path, nullptr) << "set OPERATORS_DOC to the path of docs/operators.md";
  const DocOps doc = read_doc(path);
  ASSERT_GT(doc.have.size() + doc.missing.size(), 100u);
  std::set<std::string> registered;
  for (const auto& k : ::executorch::runtime::get_registered_kernels()) {
    registered.insert(k.name_);
  }
  for (const auto& name : doc.have) {
    EXPECT_EQ(registered.count(name), 1u) << name << " is marked have but is not registered";
  }
  for (const auto& name : registered) {
    EXPECT_EQ(doc.have.count(name), 1u) << name << " is registered but not listed as have";
  }
  for (const auto& name : doc.missing) {
    EXPECT_EQ(doc.have.count(name), 0u) << name << " is listed twice";
  }
}

} // namespace
