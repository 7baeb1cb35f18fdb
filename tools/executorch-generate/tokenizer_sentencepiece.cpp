// Tokenizer over SentencePiece (libsentencepiece-dev).
#include "tokenizer.h"

#include <sentencepiece_processor.h>

namespace {

class SentencePieceTokenizer final : public Tokenizer {
 public:
  bool open(const std::string& path, std::string* why) {
    const auto status = processor_.Load(path);
    if (!status.ok()) {
      *why = "cannot load SentencePiece model '" + path + "': " + status.ToString();
      return false;
    }
    return true;
  }
  std::vector<uint64_t> encode(const std::string& text) const override {
    std::vector<int> ids;
    processor_.Encode(text, &ids).IgnoreError();
    return std::vector<uint64_t>(ids.begin(), ids.end());
  }
  std::string decode(const std::vector<uint64_t>& ids) const override {
    std::vector<int> pieces;
    for (uint64_t id : ids) {
      // Ids the model does not know (the program's vocabulary can be
      // larger) are left out rather than handed to SentencePiece.
      if (id < static_cast<uint64_t>(processor_.GetPieceSize())) {
        pieces.push_back(static_cast<int>(id));
      }
    }
    // DecodeIds: the one spelling SentencePiece 0.1 (bookworm) and 0.2
    // (trixie, sid: Decode of a vector is deprecated there) both keep.
    return processor_.DecodeIds(pieces);
  }
  int64_t bos_id() const override { return processor_.bos_id(); }
  int64_t eos_id() const override { return processor_.eos_id(); }
  int64_t vocab_size() const override { return processor_.GetPieceSize(); }

 private:
  sentencepiece::SentencePieceProcessor processor_;
};

} // namespace

bool Tokenizer::supported() { return true; }

std::unique_ptr<Tokenizer> Tokenizer::load(const std::string& path, std::string* why) {
  auto t = std::make_unique<SentencePieceTokenizer>();
  if (!t->open(path, why)) {
    return nullptr;
  }
  return t;
}
