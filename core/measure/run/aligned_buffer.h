#pragma once
// A cache-line aligned array that frees itself; the measurement kernels stream through these.
// Arrays of a few MiB and more are laid on 2 MiB boundaries and offered transparent huge pages (Linux's
// default "madvise" mode gives them only when asked): first touching 4 KiB pages took most of a quick run's
// system time on a KVM guest (hundreds of thousands of page faults), and huge pages also spare the streaming
// kernels TLB misses, as STREAM-style measurements usually do.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ridgeline {

// `bytes` aligned to a cache line, or for a few MiB and more to a huge page with the hint to back it by huge
// pages; freed with std::free. Throws std::bad_alloc.
inline void* allocateStreamingBytes(std::size_t bytes)
{
    constexpr std::size_t kAlignment = 64;
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    constexpr std::size_t kHugeFrom = std::size_t{4} << 20;
    const bool huge = bytes >= kHugeFrom;
    const std::size_t alignment = huge ? kHugePage : kAlignment;
    const std::size_t rounded = std::max(((bytes + alignment - 1) / alignment) * alignment, alignment);
    void* data = std::aligned_alloc(alignment, rounded);
    if (!data)
        throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge)
        madvise(data, rounded, MADV_HUGEPAGE);  // a hint: without huge pages the memory still works
#endif
    return data;
}

// The same for standard containers (the oneDNN operands are vectors of bytes).
template <typename T>
struct StreamingAllocator {
    using value_type = T;
    StreamingAllocator() = default;
    template <typename U>
    StreamingAllocator(const StreamingAllocator<U>&)
    {
    }
    T* allocate(std::size_t count) { return static_cast<T*>(allocateStreamingBytes(count * sizeof(T))); }
    void deallocate(T* p, std::size_t) { std::free(p); }
    template <typename U>
    bool operator==(const StreamingAllocator<U>&) const
    {
        return true;
    }
};

template <typename T>
class AlignedBuffer {
public:
    AlignedBuffer() = default;
    explicit AlignedBuffer(std::size_t count) : m_count(count)
    {
        m_data.reset(static_cast<T*>(allocateStreamingBytes(count * sizeof(T))));
    }

    T* data() { return m_data.get(); }
    const T* data() const { return m_data.get(); }
    std::size_t size() const { return m_count; }
    T& operator[](std::size_t i) { return m_data.get()[i]; }
    const T& operator[](std::size_t i) const { return m_data.get()[i]; }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> m_data;
    std::size_t m_count = 0;
};

}  // namespace ridgeline
