// Tokenizer of a build without SentencePiece: token ids only.
#include "tokenizer.h"

bool Tokenizer::supported() { return false; }

std::unique_ptr<Tokenizer> Tokenizer::load(const std::string& path, std::string* why) {
  *why = "cannot read '" + path +
         "': this executorch-generate was built without SentencePiece "
         "(libsentencepiece-dev); give token ids with --prompt";
  return nullptr;
}
