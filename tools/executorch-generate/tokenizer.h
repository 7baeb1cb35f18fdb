// The optional SentencePiece tokenizer of executorch-generate: text in and
// out when the tool was built with Debian's libsentencepiece-dev. Without
// it load() says so and the tool works on token ids only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // nullptr and *why on failure (a missing or unreadable model, or no
  // SentencePiece support in this build).
  static std::unique_ptr<Tokenizer> load(const std::string& path, std::string* why);
  // Whether this build can read tokenizer models at all.
  static bool supported();

  virtual std::vector<uint64_t> encode(const std::string& text) const = 0;
  virtual std::string decode(const std::vector<uint64_t>& ids) const = 0;
  // -1 when the model has none.
  virtual int64_t bos_id() const = 0;
  virtual int64_t eos_id() const = 0;
  virtual int64_t vocab_size() const = 0;
};
