// Writes the toy decoder programs of tests/runtime/extension/llm/toy_decoder.h
// for the executorch-generate tests, and the tokens the reference model
// generates from them:
//   make_toy_decoder DIR
// DIR/prefill_decode.pte  prefill (dynamic) + decode, input_pos [T], f32 logits
// DIR/forward_meta.pte    one forward (dynamic), input_pos [1], bf16 [1, V]
//                         logits, get_max_context_len and get_eos_ids [7]
// DIR/expected.txt        lines "NAME N: ids" (greedy from the prompt below),
//                         and "prefill_decode text: ids" from 1,0,4,3,5
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "toy_decoder.h"

namespace {

const std::vector<uint64_t> kPrompt = {3, 1, 4, 1, 5, 2, 6, 5, 3};

bool write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(f);
}

std::string line(const char* name, int n, const std::vector<uint64_t>& ids) {
  std::string s = std::string(name) + " " + std::to_string(n) + ":";
  for (uint64_t id : ids) s += " " + std::to_string(id);
  return s + "\n";
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_toy_decoder DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  toy::Options split;
  toy::Options forward;
  forward.layout = toy::Layout::ForwardDynamic;
  forward.logits = toy::Logits::LastOnly;
  forward.type = toy::LogitsType::BFloat16;
  forward.metadata = true;
  forward.eos_ids = {7};
  std::string expected;
  for (int n : {1, 10}) {
    expected += line("prefill_decode", n, toy::reference_greedy(split, kPrompt, n));
    expected += line("forward_meta", n, toy::reference_greedy(forward, kPrompt, n, {7}));
  }
  // The prompt the SentencePiece model of test_executorch_generate.py
  // encodes "a bc" to (BOS first).
  const std::string text =
      line("prefill_decode", 10, toy::reference_greedy(split, {1, 0, 4, 3, 5}, 10));
  expected += "prefill_decode text:" + text.substr(text.find(':') + 1);
  // -n -1: until the context (get_max_context_len) is full or EOS.
  const int room = toy::kContext - int(kPrompt.size());
  expected += line("forward_meta", -1, toy::reference_greedy(forward, kPrompt, room, {7}));
  std::ofstream(dir + "/expected.txt") << expected;
  return write(dir + "/prefill_decode.pte", toy::make_program(split)) &&
                 write(dir + "/forward_meta.pte", toy::make_program(forward))
             ? 0
             : 1;
}
