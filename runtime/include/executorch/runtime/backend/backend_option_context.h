#pragma once

namespace executorch {
namespace runtime {

class BackendOptionContext final {};

} // namespace runtime
} // namespace executorch
