#include "core/measure/lowp/amx.h"

#include "core/measure/clock/clock_adds.h"
#include "core/measure/lowp/low_precision_numbers.h"

#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace ridgeline {

namespace {

constexpr long kArchReqXcompPerm = 0x1023;  // arch_prctl code (asm/prctl.h, Linux 5.16)

// The 64-byte tile configuration of palette 1: eight tiles, each `rows` x `bytesPerRow`.
struct alignas(64) TileConfig {
    std::uint8_t palette = 1;
    std::uint8_t startRow = 0;
    std::uint8_t reserved[14] = {};
    std::uint16_t bytesPerRow[16] = {};
    std::uint8_t rows[16] = {};
};

TileConfig fullTiles()
{
    TileConfig config;
    for (int t = 0; t < 8; ++t) {
        config.bytesPerRow[t] = 64;
        config.rows[t] = 16;
    }
    return config;
}

struct alignas(64) Tile {
    std::uint8_t bytes[1024];
};

// Every bf16 (or int8) element of a tile set to one value.
Tile filledBf16(double value)
{
    Tile tile;
    const std::uint16_t bits = bf16FromFloat(static_cast<float>(value));
    for (int i = 0; i < 512; ++i)
        std::memcpy(tile.bytes + 2 * i, &bits, 2);
    return tile;
}
Tile filledByte(double value)
{
    Tile tile;
    std::memset(tile.bytes, static_cast<int>(static_cast<std::int64_t>(value) & 0xFF), sizeof tile.bytes);
    return tile;
}

template <typename T>
double sumOfTile(const Tile& tile)
{
    double sum = 0.0;
    for (int i = 0; i < 256; ++i) {
        T value{};
        std::memcpy(&value, tile.bytes + 4 * i, 4);
        sum += static_cast<double>(value);
    }
    return sum;
}

template <typename T>
double firstOfTile(const Tile& tile)
{
    T value{};
    std::memcpy(&value, tile.bytes, 4);
    return static_cast<double>(value);
}

using Clock = std::chrono::steady_clock;

// Tiles 0-3 accumulate, 4-5 hold A, 6-7 hold B: each iteration is four independent tile products, enough to
// cover the unit's latency with its throughput. The tile numbers are immediates, hence one function per type.
__attribute__((target("amx-tile,amx-bf16"))) double loopBf16(std::int64_t iterations, const Tile& a, const Tile& b,
                                                             bool clockAdds, Tile* out)
{
    const TileConfig config = fullTiles();
    _tile_loadconfig(&config);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_loadd(4, a.bytes, 64);
    _tile_loadd(5, a.bytes, 64);
    _tile_loadd(6, b.bytes, 64);
    _tile_loadd(7, b.bytes, 64);
    std::uint64_t counter = 0;
    const auto start = Clock::now();
    if (clockAdds) {
        for (std::int64_t i = 0; i < iterations; ++i) {
            _tile_dpbf16ps(0, 4, 6);
            _tile_dpbf16ps(1, 4, 7);
            _tile_dpbf16ps(2, 5, 6);
            _tile_dpbf16ps(3, 5, 7);
            RIDGELINE_CLOCK_ADDS(counter);
        }
    } else {
        for (std::int64_t i = 0; i < iterations; ++i) {
            _tile_dpbf16ps(0, 4, 6);
            _tile_dpbf16ps(1, 4, 7);
            _tile_dpbf16ps(2, 5, 6);
            _tile_dpbf16ps(3, 5, 7);
        }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    _tile_stored(0, out[0].bytes, 64);
    _tile_stored(1, out[1].bytes, 64);
    _tile_stored(2, out[2].bytes, 64);
    _tile_stored(3, out[3].bytes, 64);
    _tile_release();
    return seconds;
}

__attribute__((target("amx-tile,amx-int8"))) double loopInt8(std::int64_t iterations, const Tile& a, const Tile& b,
                                                             bool clockAdds, Tile* out)
{
    const TileConfig config = fullTiles();
    _tile_loadconfig(&config);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_loadd(4, a.bytes, 64);
    _tile_loadd(5, a.bytes, 64);
    _tile_loadd(6, b.bytes, 64);
    _tile_loadd(7, b.bytes, 64);
    std::uint64_t counter = 0;
    const auto start = Clock::now();
    if (clockAdds) {
        for (std::int64_t i = 0; i < iterations; ++i) {
            _tile_dpbusd(0, 4, 6);
            _tile_dpbusd(1, 4, 7);
            _tile_dpbusd(2, 5, 6);
            _tile_dpbusd(3, 5, 7);
            RIDGELINE_CLOCK_ADDS(counter);
        }
    } else {
        for (std::int64_t i = 0; i < iterations; ++i) {
            _tile_dpbusd(0, 4, 6);
            _tile_dpbusd(1, 4, 7);
            _tile_dpbusd(2, 5, 6);
            _tile_dpbusd(3, 5, 7);
        }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    _tile_stored(0, out[0].bytes, 64);
    _tile_stored(1, out[1].bytes, 64);
    _tile_stored(2, out[2].bytes, 64);
    _tile_stored(3, out[3].bytes, 64);
    _tile_release();
    return seconds;
}

__attribute__((target("amx-tile,amx-bf16"))) void productBf16(const Tile& a, const Tile& b, Tile& c)
{
    const TileConfig config = fullTiles();
    _tile_loadconfig(&config);
    _tile_zero(0);
    _tile_loadd(1, a.bytes, 64);
    _tile_loadd(2, b.bytes, 64);
    _tile_dpbf16ps(0, 1, 2);
    _tile_stored(0, c.bytes, 64);
    _tile_release();
}

__attribute__((target("amx-tile,amx-int8"))) void productInt8(const Tile& a, const Tile& b, Tile& c)
{
    const TileConfig config = fullTiles();
    _tile_loadconfig(&config);
    _tile_zero(0);
    _tile_loadd(1, a.bytes, 64);
    _tile_loadd(2, b.bytes, 64);
    _tile_dpbusd(0, 1, 2);
    _tile_stored(0, c.bytes, 64);
    _tile_release();
}

}  // namespace

XcompPermission requestXcompPermission(int feature)
{
    errno = 0;
    if (syscall(SYS_arch_prctl, kArchReqXcompPerm, static_cast<unsigned long>(feature)) == 0)
        return {true, {}};
    const int error = errno;
    QString reason = QStringLiteral("Linux refused extended state %1: arch_prctl(ARCH_REQ_XCOMP_PERM) failed: %2")
                         .arg(feature)
                         .arg(QString::fromLocal8Bit(std::strerror(error)));
    if (error == EINVAL && feature == kXfeatureXtileData)
        reason += QStringLiteral(" (Linux grants the AMX tile state from version 5.16 on)");
    return {false, reason};
}

const XcompPermission& requestAmxTileData()
{
    static const XcompPermission permission = [] {
        if (!unitAvailability(LowpUnit::AmxBf16, hostMachine()).available() &&
            !unitAvailability(LowpUnit::AmxInt8, hostMachine()).available())
            return XcompPermission{false, QStringLiteral("this CPU has no AMX tiles")};
        return requestXcompPermission(kXfeatureXtileData);
    }();
    return permission;
}

UnitAvailability amxAvailability(LowpUnit unit, const MachineInfo& machine, const XcompPermission& permission)
{
    UnitAvailability availability = unitAvailability(unit, machine);
    if (availability.available() && !permission.granted)
        return {UnitState::RefusedByKernel,
                QStringLiteral("%1 is on this CPU but %2").arg(lowpUnitInfo(unit).label, permission.reason)};
    return availability;
}

LowpRun runAmxLoop(LowpUnit unit, std::int64_t iterations, LowpInputs inputs, bool clockAdds)
{
    const bool bf16 = unit == LowpUnit::AmxBf16;
    const Tile a = bf16 ? filledBf16(inputs.a) : filledByte(inputs.a);
    const Tile b = bf16 ? filledBf16(inputs.b) : filledByte(inputs.b);
    Tile out[4];
    LowpRun run;
    run.seconds = bf16 ? loopBf16(iterations, a, b, clockAdds, out) : loopInt8(iterations, a, b, clockAdds, out);
    run.operations = static_cast<double>(iterations) * 4.0 * lowpUnitInfo(unit).opsPerInstruction;
    run.lanes = 4 * 256;
    for (const Tile& tile : out)
        run.laneSum += bf16 ? sumOfTile<float>(tile) : sumOfTile<std::int32_t>(tile);
    run.firstLane = bf16 ? firstOfTile<float>(out[0]) : firstOfTile<std::int32_t>(out[0]);
    return run;
}

void packTileB(const std::uint16_t* b, std::uint16_t* packed)
{
    for (int k = 0; k < 32; ++k)
        for (int j = 0; j < 16; ++j)
            packed[(k / 2) * 32 + j * 2 + (k % 2)] = b[k * 16 + j];
}

void packTileB(const std::int8_t* b, std::int8_t* packed)
{
    for (int k = 0; k < 64; ++k)
        for (int j = 0; j < 16; ++j)
            packed[(k / 4) * 64 + j * 4 + (k % 4)] = b[k * 16 + j];
}

void amxTileProduct(const std::uint16_t* a, const std::uint16_t* packedB, float* c)
{
    Tile ta, tb, tc;
    std::memcpy(ta.bytes, a, 1024);
    std::memcpy(tb.bytes, packedB, 1024);
    productBf16(ta, tb, tc);
    std::memcpy(c, tc.bytes, 1024);
}

void amxTileProduct(const std::uint8_t* a, const std::int8_t* packedB, std::int32_t* c)
{
    Tile ta, tb, tc;
    std::memcpy(ta.bytes, a, 1024);
    std::memcpy(tb.bytes, packedB, 1024);
    productInt8(ta, tb, tc);
    std::memcpy(c, tc.bytes, 1024);
}

}  // namespace ridgeline
