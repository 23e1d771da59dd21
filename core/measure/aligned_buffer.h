#pragma once
// A cache-line aligned array that frees itself; the measurement kernels stream through these.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace ridgeline {

template <typename T>
class AlignedBuffer {
public:
    AlignedBuffer() = default;
    explicit AlignedBuffer(std::size_t count) : m_count(count)
    {
        const std::size_t bytes = ((count * sizeof(T) + kAlignment - 1) / kAlignment) * kAlignment;
        m_data.reset(static_cast<T*>(std::aligned_alloc(kAlignment, bytes == 0 ? kAlignment : bytes)));
        if (!m_data)
            throw std::bad_alloc();
    }

    T* data() { return m_data.get(); }
    const T* data() const { return m_data.get(); }
    std::size_t size() const { return m_count; }
    T& operator[](std::size_t i) { return m_data.get()[i]; }
    const T& operator[](std::size_t i) const { return m_data.get()[i]; }

private:
    static constexpr std::size_t kAlignment = 64;
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> m_data;
    std::size_t m_count = 0;
};

}  // namespace ridgeline
