// Program::load and the Program accessors.
#include <executorch/runtime/executor/program.h>

#include <cstring>
#include <new>

#include <executorch/runtime/platform/log.h>

#include "executor/aligned_buffer.h"
#include "executor/program_state.h"
#include "executor/program_validation.h"
#include "executor/pte_header.h"

namespace executorch {
namespace runtime {

namespace fb = executorch_flatbuffer;
using internal::ProgramState;

namespace {

// FlatBuffers: root offset (4 bytes), then the file identifier.
constexpr size_t kIdentifierOffset = 4;
constexpr char kProgramIdentifier[] = "ET12";

// The Verifier's table count limit; the file size bounds it further.
constexpr flatbuffers::uoffset_t kMaxTables = 1u << 24;

Error load_into_state(ProgramState* st, DataLoader* loader, Program::Verification verification) {
  st->loader = loader;
  auto size_r = loader->size();
  ET_CHECK_OK_OR_RETURN_ERROR(size_r.error(), "Cannot get the program size");
  st->file_size = *size_r;
  ET_CHECK_OR_RETURN_ERROR(st->file_size >= 8, InvalidProgram, "Program of %zu bytes is too short",
                           st->file_size);

  const size_t probe =
      st->file_size < internal::kPteHeaderProbeSize ? st->file_size : internal::kPteHeaderProbeSize;
  size_t program_size = st->file_size;
  st->segment_base_offset = program_size;
  {
    auto head =
        loader->load(0, probe, DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Program));
    ET_CHECK_OK_OR_RETURN_ERROR(head.error(), "Cannot read the program header");
    ET_CHECK_OR_RETURN_ERROR(head->size() >= probe, InvalidProgram,
                             "Short read of the program header");
    const auto* bytes = static_cast<const uint8_t*>(head->data());
    ET_CHECK_OR_RETURN_ERROR(std::memcmp(bytes + kIdentifierOffset, kProgramIdentifier, 4) == 0,
                             InvalidProgram, "Not a program: file identifier is not ET12");
    auto hdr = internal::parse_pte_header(bytes, head->size(), st->file_size);
    ET_CHECK_OK_OR_RETURN_ERROR(hdr.error());
    if (hdr->present) {
      program_size = static_cast<size_t>(hdr->program_size);
      st->has_segments = true;
      st->segment_base_offset = hdr->segment_base_offset;
      st->segment_data_size = hdr->segment_data_size;
    }
  }

  auto data = loader->load(0, program_size,
                           DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Program));
  ET_CHECK_OK_OR_RETURN_ERROR(data.error(), "Cannot load %zu program bytes", program_size);
  ET_CHECK_OR_RETURN_ERROR(data->size() == program_size, InvalidProgram,
                           "Loader returned %zu bytes, asked for %zu", data->size(), program_size);
  auto aligned = internal::ensure_aligned(std::move(*data));
  ET_CHECK_OK_OR_RETURN_ERROR(aligned.error());
  st->program_data = std::move(*aligned);
  const auto* buf = static_cast<const uint8_t*>(st->program_data.data());

  // The file is untrusted: always run the Verifier (it is linear and cheap).
  // InternalConsistency adds nothing beyond it and the semantic checks.
  (void)verification;
  flatbuffers::Verifier verifier(buf, program_size, 64, kMaxTables);
  ET_CHECK_OR_RETURN_ERROR(fb::VerifyProgramBuffer(verifier), InvalidProgram,
                           "Program FlatBuffer failed verification");
  st->fb = fb::GetProgram(buf);

  const auto* cs = st->fb->constant_segment();
  st->uses_constant_segment =
      cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 0;
  ET_CHECK_OK_OR_RETURN_ERROR(internal::validate_program(*st));
  st->named_data.index();

  if (st->uses_constant_segment) {
    const auto* seg = st->fb->segments()->Get(cs->segment_index());
    auto seg_data = loader->load(
        st->segment_base_offset + seg->offset(), seg->size(),
        DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Constant, cs->segment_index()));
    ET_CHECK_OK_OR_RETURN_ERROR(seg_data.error(), "Cannot load the constant segment");
    ET_CHECK_OR_RETURN_ERROR(seg_data->size() == seg->size(), InvalidProgram,
                             "Short read of the constant segment");
    st->constant_segment_data = std::move(*seg_data);
  }
  return Error::Ok;
}

} // namespace

Result<Program> Program::load(DataLoader* loader, Verification verification) {
  ET_CHECK_OR_RETURN_ERROR(loader != nullptr, InvalidArgument, "Null data loader");
  auto* st = new (std::nothrow) ProgramState();
  ET_CHECK_OR_RETURN_ERROR(st != nullptr, MemoryAllocationFailed,
                           "Cannot allocate the program state");
  const Error err = load_into_state(st, loader, verification);
  if (err != Error::Ok) {
    delete st;
    return err;
  }
  return Program(st);
}

Program::Program(Program&& rhs) noexcept : state_(rhs.state_) { rhs.state_ = nullptr; }

Program::~Program() { delete state_; }

size_t Program::num_methods() const {
  return state_ == nullptr ? 0 : state_->fb->execution_plan()->size();
}

Result<const char*> Program::get_method_name(size_t method_index) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(method_index < num_methods(), InvalidArgument,
                           "Method index %zu out of range (%zu methods)", method_index,
                           num_methods());
  return state_->fb->execution_plan()->Get(uint32_t(method_index))->name()->c_str();
}

Result<MethodMeta> Program::method_meta(const char* method_name) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(method_name != nullptr, InvalidArgument, "Null method name");
  const auto* plans = state_->fb->execution_plan();
  for (uint32_t i = 0; i < plans->size(); ++i) {
    if (std::strcmp(plans->Get(i)->name()->c_str(), method_name) == 0) {
      return MethodMeta(plans->Get(i));
    }
  }
  ET_LOG(Error, "No method named '%s' in the program", method_name);
  return Error::InvalidArgument;
}

Result<const void*> Program::get_constant_buffer_data(size_t buffer_idx, size_t nbytes) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  const auto* prog = state_->fb;
  if (state_->uses_constant_segment) {
    const auto* offsets = prog->constant_segment()->offsets();
    ET_CHECK_OR_RETURN_ERROR(buffer_idx < offsets->size(), InvalidArgument,
                             "Constant index %zu out of range (%u)", buffer_idx, offsets->size());
    const uint64_t off = offsets->Get(uint32_t(buffer_idx));
    ET_CHECK_OR_RETURN_ERROR(
        internal::range_fits(off, nbytes, state_->constant_segment_data.size()), InvalidArgument,
        "Constant [%llu, +%zu) outside the constant segment", (unsigned long long)off, nbytes);
    return static_cast<const uint8_t*>(state_->constant_segment_data.data()) + off;
  }
  const auto* cb = prog->constant_buffer();
  ET_CHECK_OR_RETURN_ERROR(cb != nullptr && buffer_idx < cb->size(), InvalidArgument,
                           "Constant buffer %zu out of range", buffer_idx);
  const auto* storage = cb->Get(uint32_t(buffer_idx))->storage();
  ET_CHECK_OR_RETURN_ERROR(storage != nullptr && storage->size() >= nbytes, InvalidArgument,
                           "Constant buffer %zu smaller than %zu bytes", buffer_idx, nbytes);
  return static_cast<const void*>(storage->data());
}

Result<const NamedDataMap*> Program::get_named_data_map() const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  if (state_->fb->named_data() == nullptr) {
    return Error::NotFound;
  }
  return static_cast<const NamedDataMap*>(&state_->named_data);
}

Result<FreeableBuffer> Program::LoadSegment(const DataLoader::SegmentInfo& segment_info) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  const auto* segments = state_->fb->segments();
  const size_t index = segment_info.segment_index;
  ET_CHECK_OR_RETURN_ERROR(segments != nullptr && index < segments->size(), NotFound,
                           "Segment %zu out of range (%u segments)", index,
                           segments == nullptr ? 0u : segments->size());
  // Validation put every segment inside the file, whose size is a size_t.
  const auto* seg = segments->Get(uint32_t(index));
  return state_->loader->load(size_t(state_->segment_base_offset + seg->offset()),
                              size_t(seg->size()), segment_info);
}

Program::HeaderStatus Program::check_header(const void* data, size_t size) {
  if (data == nullptr || size < 8) {
    return HeaderStatus::ShortData;
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  const uint8_t* id = bytes + kIdentifierOffset;
  if (id[0] != 'E' || id[1] != 'T') {
    return HeaderStatus::NotPresent;
  }
  return std::memcmp(id, kProgramIdentifier, 4) == 0 ? HeaderStatus::CompatibleVersion
                                                     : HeaderStatus::IncompatibleVersion;
}

} // namespace runtime
} // namespace executorch
