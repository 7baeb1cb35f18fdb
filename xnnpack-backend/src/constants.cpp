#include "constants.h"

#include <executorch/runtime/platform/log.h>

#include "values.h"

namespace xnnpack_payload {

using executorch::runtime::Error;

namespace {

Error read_entry(const fb::ConstantDataOffset& entry, ByteSpan region, size_t index,
                 Constant& out) {
  const auto* key = entry.named_key();
  out.size = entry.size();
  if (entry.offset() == kNamedDataOffset) {
    if (key == nullptr || key->size() == 0) {
      ET_LOG(Error, "XNNPACK payload: constant %zu is named data without a key", index);
      return Error::InvalidProgram;
    }
    out.source = ConstantSource::kNamed;
    out.named_key.assign(key->c_str(), key->size());
    return Error::Ok;
  }
  if (key != nullptr && key->size() != 0) {
    ET_LOG(Error, "XNNPACK payload: constant %zu has both an offset and a key", index);
    return Error::InvalidProgram;
  }
  if (entry.offset() > region.size || entry.size() > region.size - entry.offset()) {
    ET_LOG(Error, "XNNPACK payload: constant %zu at %llu+%llu outside the %zu-byte region", index,
           static_cast<unsigned long long>(entry.offset()),
           static_cast<unsigned long long>(entry.size()), region.size);
    return Error::InvalidProgram;
  }
  out.source = ConstantSource::kRegion;
  out.data = region.data + entry.offset();
  return Error::Ok;
}

void read_buffers(const flatbuffers::Vector<flatbuffers::Offset<fb::Buffer>>& buffers,
                  std::vector<Constant>& out) {
  out.resize(buffers.size());
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    const auto* storage = buffers.Get(i)->storage();
    out[i].source = ConstantSource::kInline;
    out[i].data = storage == nullptr ? nullptr : storage->data();
    out[i].size = storage == nullptr ? 0 : storage->size();
  }
}

Error check_size(const Value& value, const Constant& constant) {
  uint64_t bytes = 0;
  bool exact = false;
  if (!constant_bytes(value, bytes, exact)) {
    ET_LOG(Error, "XNNPACK payload: value %u's size overflows", value.id);
    return Error::InvalidProgram;
  }
  if (exact ? constant.size != bytes : constant.size < bytes) {
    ET_LOG(Error, "XNNPACK payload: value %u needs %llu bytes; constant %u has %llu", value.id,
           static_cast<unsigned long long>(bytes), value.constant_index,
           static_cast<unsigned long long>(constant.size));
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

} // namespace

Error read_constants(const fb::XNNGraph& graph, ByteSpan region, std::vector<Constant>& out) {
  const auto* data = graph.constant_data();
  if (data == nullptr || data->size() == 0) {
    if (graph.constant_buffer() != nullptr) {
      read_buffers(*graph.constant_buffer(), out);
    }
    return Error::Ok;
  }
  out.resize(data->size());
  for (uint32_t i = 0; i < data->size(); ++i) {
    const Error e = read_entry(*data->Get(i), region, i, out[i]);
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

Error check_constant_values(const std::vector<Value>& values,
                            const std::vector<Constant>& constants) {
  for (const Value& v : values) {
    if (v.constant_index == 0) {
      continue;
    }
    if (v.constant_index >= constants.size()) {
      ET_LOG(Error, "XNNPACK payload: value %u uses constant %u of %zu", v.id, v.constant_index,
             constants.size());
      return Error::InvalidProgram;
    }
    const Error e = check_size(v, constants[v.constant_index]);
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

} // namespace xnnpack_payload
