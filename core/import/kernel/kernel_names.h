#pragma once
// Profiler kernel names for people: demangle an Itanium-mangled name ("_Z..."), and shorten a long C++
// signature to the function's qualified name for chart labels; the full name stays in KernelResult::fullName.

#include <QString>

namespace ridgeline {

// The demangled name, or the name unchanged when it is not mangled (or cannot be demangled).
QString demangledName(const QString& name);

// "void cutlass::Kernel<cutlass::gemm::...>(Params)" -> "cutlass::Kernel"; template arguments, parameter
// lists and the return type are dropped. Never empty for a non-empty input.
QString shortKernelName(const QString& name);

}  // namespace ridgeline
