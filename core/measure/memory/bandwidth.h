#pragma once
// Bandwidth vs working set on all threads, read-heavy and triad mixes, and a STREAM-style triad.

#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/measure_control.h"
#include "core/session/session.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// Each thread's arrays for the bandwidth sweep, kept from one working set to the next: reserved once for the
// largest (untouched memory costs nothing), each page is faulted in once per run instead of once per point,
// which at DRAM sizes took longer than the measurement itself.
class BandwidthScratch {
public:
    explicit BandwidthScratch(int threads);
    // Room for a working set of this many bytes in either mix; grows, never shrinks.
    void reserve(std::int64_t workingSetBytes);
    std::uint64_t* readArray(int thread) { return m_read[static_cast<std::size_t>(thread)].data(); }
    double* triadArrays(int thread) { return m_triad[static_cast<std::size_t>(thread)].data(); }

private:
    int m_threads;
    std::int64_t m_reserved = 0;
    std::vector<AlignedBuffer<std::uint64_t>> m_read;
    std::vector<AlignedBuffer<double>> m_triad;
};

// One point of the curve (the level is left empty; the caller labels it). nullopt when cancelled.
// `mix` is "read" or "triad"; the working set is split evenly over the threads.
std::optional<BandwidthPoint> measureBandwidthPoint(const QString& mix, std::int64_t workingSetBytes, int threads,
                                                    MeasureControl& control, BandwidthScratch& scratch);

// STREAM-style triad: three arrays of `arrayBytes` each, split over the threads; returns GB/s over the repetitions
// counting 24 bytes per element as STREAM does. nullopt when cancelled.
std::optional<Spread> measureStreamTriad(std::int64_t arrayBytes, int threads, MeasureControl& control,
                                         BandwidthScratch& scratch);

}  // namespace ridgeline
