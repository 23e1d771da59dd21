#include "core/measure/lowp/onednn_matmul.h"

#include "core/measure/lowp/amx.h"
#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/run/worker_team.h"

#include <dlfcn.h>
#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace ridgeline {

namespace {

using dnnl::memory;

memory::data_type dataTypeOf(MatmulType type)
{
    switch (type) {
        case MatmulType::Fp32:
            return memory::data_type::f32;
        case MatmulType::Bf16:
            return memory::data_type::bf16;
        case MatmulType::Int8:
            return memory::data_type::s8;
    }
    return memory::data_type::f32;
}

dnnl::engine& cpuEngine()
{
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

}  // namespace

MatmulOperand MatmulOperand::generate(MatmulType type, std::size_t count,
                                      const std::function<float(std::size_t)>& value)
{
    MatmulOperand operand;
    operand.type = type;
    operand.bytes.resize(count * static_cast<std::size_t>(bytesPerElement(type)));
    switch (type) {
        case MatmulType::Fp32:
            for (std::size_t i = 0; i < count; ++i) {
                const float x = value(i);
                std::memcpy(operand.bytes.data() + 4 * i, &x, 4);
            }
            break;
        case MatmulType::Bf16:
            for (std::size_t i = 0; i < count; ++i) {
                const std::uint16_t bits = bf16FromFloat(value(i));
                std::memcpy(operand.bytes.data() + 2 * i, &bits, 2);
            }
            break;
        case MatmulType::Int8: {
            float largest = 0.0f;
            for (std::size_t i = 0; i < count; ++i)
                largest = std::max(largest, std::fabs(value(i)));
            operand.scale = largest > 0.0f ? largest / 127.0f : 1.0f;
            for (std::size_t i = 0; i < count; ++i) {
                const float q = std::clamp(std::nearbyint(value(i) / operand.scale), -127.0f, 127.0f);
                operand.bytes[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
            }
            break;
        }
    }
    return operand;
}

MatmulOperand MatmulOperand::from(MatmulType type, const float* values, std::size_t count)
{
    return generate(type, count, [values](std::size_t i) { return values[i]; });
}

MatmulOperand MatmulOperand::periodic(MatmulType type, std::size_t count, std::size_t period,
                                      const std::function<float(std::size_t)>& value)
{
    if (period == 0 || count <= period)
        return generate(type, count, value);
    MatmulOperand operand = generate(type, period, value);  // int8: the period's scale is the whole's
    const std::size_t periodBytes = operand.bytes.size();
    operand.bytes.resize(count * static_cast<std::size_t>(bytesPerElement(type)));
    for (std::size_t at = periodBytes; at < operand.bytes.size(); at += periodBytes)
        std::memcpy(operand.bytes.data() + at, operand.bytes.data(), std::min(periodBytes, operand.bytes.size() - at));
    return operand;
}

struct OneDnnMatmul::Impl {
    MatmulType type = MatmulType::Fp32;
    MatmulShape shape;
    int threads = 1;
    OperandBytes aBytes;
    std::vector<float, StreamingAllocator<float>> c;
    std::shared_ptr<AlignedBuffer<std::uint8_t>> packedWeights;  // what `b` points into, shared with its copies
    dnnl::stream stream;
    dnnl::matmul primitive;
    memory::desc aDesc, cDesc;
    memory b;
    QString implementation;
};

OneDnnMatmul::OneDnnMatmul(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
OneDnnMatmul::~OneDnnMatmul() = default;

Result<std::unique_ptr<OneDnnMatmul>> OneDnnMatmul::create(MatmulType type, MatmulShape shape, const float* a,
                                                           const float* b, int threads)
{
    if (shape.m <= 0 || shape.k <= 0 || shape.n <= 0)
        return create(shape, MatmulOperand{type, {}, 1.0f}, MatmulOperand{type, {}, 1.0f}, threads);
    const auto sizeA = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
    const auto sizeB = static_cast<std::size_t>(shape.k) * static_cast<std::size_t>(shape.n);
    return create(shape, MatmulOperand::from(type, a, sizeA), MatmulOperand::from(type, b, sizeB), threads);
}

Result<std::unique_ptr<OneDnnMatmul>> OneDnnMatmul::create(MatmulShape shape, const MatmulOperand& a,
                                                           const MatmulOperand& b, int threads,
                                                           const OneDnnMatmul* packedLike)
{
    const MatmulType type = b.type;
    if (shape.m <= 0 || shape.k <= 0 || shape.n <= 0 || threads <= 0)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("matrix product %1 x %2 x %3 on %4 threads: every size must be positive")
                             .arg(shape.m)
                             .arg(shape.k)
                             .arg(shape.n)
                             .arg(threads));
    const auto sizeA = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
    const auto sizeB = static_cast<std::size_t>(shape.k) * static_cast<std::size_t>(shape.n);
    if (b.count() != sizeB || (!a.bytes.empty() && (a.type != type || a.count() != sizeA)))
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("matrix product %1 x %2 x %3: the operands do not have that shape and one type")
                             .arg(shape.m)
                             .arg(shape.k)
                             .arg(shape.n));
    // oneDNN uses AMX only once Linux has granted the tile state; asking again is harmless.
    requestAmxTileData();
    try {
        auto impl = std::make_unique<Impl>();
        impl->type = type;
        impl->shape = shape;
        impl->threads = threads;
        dnnl::engine& engine = cpuEngine();
        impl->stream = dnnl::stream(engine);
        impl->aBytes = a.bytes;
        impl->c.assign(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n), 0.0f);

        const memory::data_type dt = dataTypeOf(type);
        impl->aDesc = memory::desc({shape.m, shape.k}, dt, memory::format_tag::ab);
        const memory::desc bUserDesc({shape.k, shape.n}, dt, memory::format_tag::ab);
        const memory::desc bAnyDesc({shape.k, shape.n}, dt, memory::format_tag::any);
        impl->cDesc = memory::desc({shape.m, shape.n}, memory::data_type::f32, memory::format_tag::ab);
        dnnl::primitive_attr attributes;
        if (type == MatmulType::Int8)
            attributes.set_output_scales(0, {(a.bytes.empty() ? 1.0f : a.scale) * b.scale});
        const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(impl->aDesc, bAnyDesc, impl->cDesc), attributes,
                                              engine);
        impl->primitive = dnnl::matmul(pd);
        impl->implementation = QString::fromLatin1(pd.impl_info_str());

        // The weights once into the primitive's own layout (blocked for AMX or VNNI), outside any timing.
        if (packedLike && packedLike->m_impl->type == type && packedLike->m_impl->b.get_desc() == pd.weights_desc()) {
            impl->b = packedLike->m_impl->b;  // a handle: the same packed weights
            impl->packedWeights = packedLike->m_impl->packedWeights;
        } else {
            memory bUser(bUserDesc, engine, const_cast<std::uint8_t*>(b.bytes.data()));
            impl->packedWeights = std::make_shared<AlignedBuffer<std::uint8_t>>(pd.weights_desc().get_size());
            impl->b = memory(pd.weights_desc(), engine, impl->packedWeights->data());
            dnnl::reorder(bUser, impl->b).execute(impl->stream, bUser, impl->b);
            impl->stream.wait();
        }
        return std::unique_ptr<OneDnnMatmul>(new OneDnnMatmul(std::move(impl)));
    } catch (const dnnl::error& error) {
        return makeError(Error::Code::Unsupported, QStringLiteral("oneDNN cannot make a %1 matrix product: %2")
                                                       .arg(matmulTypeName(type), QString::fromLatin1(error.what())));
    }
}

void OneDnnMatmul::run()
{
    run(m_impl->aBytes.data(), m_impl->c.data());
}

void OneDnnMatmul::run(const std::uint8_t* a, float* c)
{
    dnnl::engine& engine = cpuEngine();
    const memory aMemory(m_impl->aDesc, engine, const_cast<std::uint8_t*>(a));
    const memory cMemory(m_impl->cDesc, engine, c);
    omp_set_num_threads(m_impl->threads);
    m_impl->primitive.execute(m_impl->stream,
                              {{DNNL_ARG_SRC, aMemory}, {DNNL_ARG_WEIGHTS, m_impl->b}, {DNNL_ARG_DST, cMemory}});
    m_impl->stream.wait();
}

const float* OneDnnMatmul::result() const
{
    return m_impl->c.data();
}

MatmulType OneDnnMatmul::type() const
{
    return m_impl->type;
}

MatmulShape OneDnnMatmul::shape() const
{
    return m_impl->shape;
}

QString OneDnnMatmul::implementation() const
{
    return m_impl->implementation;
}

double OneDnnMatmul::flops() const
{
    const MatmulShape& s = m_impl->shape;
    return 2.0 * s.m * static_cast<double>(s.n) * s.k;
}

double OneDnnMatmul::bytes() const
{
    const MatmulShape& s = m_impl->shape;
    const double element = bytesPerElement(m_impl->type);
    return element * (static_cast<double>(s.m) * s.k + static_cast<double>(s.k) * s.n) +
           4.0 * static_cast<double>(s.m) * s.n;
}

// One row panel of C: rows [row, row + rows) of op(A) and C against the whole of op(B), planned for one thread.
struct Bf16Panel {
    int row = 0;
    dnnl::stream stream;
    dnnl::matmul primitive;
    memory::desc aDesc, cDesc;
};

struct OneDnnBf16Gemm::Impl {
    Bf16GemmShape shape;
    memory::desc bDesc;
    std::vector<Bf16Panel> panels;  // one a thread
    QString implementation;
};

OneDnnBf16Gemm::OneDnnBf16Gemm(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
OneDnnBf16Gemm::~OneDnnBf16Gemm() = default;

namespace {

// op(A)'s rows [row, row + rows): stored m x k (ab) they are whole rows, stored k x m (read transposed) columns.
memory::desc panelOfA(const Bf16GemmShape& shape, int rows)
{
    const memory::dims dims = {rows, shape.k};
    return shape.transA ? memory::desc(dims, memory::data_type::bf16, memory::dims{1, shape.m})
                        : memory::desc(dims, memory::data_type::bf16, memory::dims{shape.k, 1});
}

// Elements from A's and C's starts to a panel's first row.
std::size_t offsetOfA(const Bf16GemmShape& shape, int row)
{
    return shape.transA ? static_cast<std::size_t>(row) : static_cast<std::size_t>(row) * shape.k;
}

}  // namespace

// oneDNN's own threads are an OpenMP team (Debian builds it on libgomp), whose idle members spin for GOMP_SPINCOUNT
// (300,000 pauses unless OMP_WAIT_POLICY says otherwise, read once when libgomp loads) without yielding: on a
// machine whose cores other processes want, a team member spinning between products keeps its partner waiting
// for a core, and each product's fork and join cost a scheduler slice. So each product is split into one row panel
// a thread, each planned for one thread (no team: oneDNN then runs it inline), and the panels run on a team of our
// own that blocks rather than spins (worker_team.h): the same thread count as OpenBLAS's.
Result<std::unique_ptr<OneDnnBf16Gemm>> OneDnnBf16Gemm::create(const Bf16GemmShape& shape, int threads)
{
    if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0 || threads <= 0)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("bf16 product %1 x %2 x %3 on %4 threads: every size must be positive")
                             .arg(shape.m)
                             .arg(shape.k)
                             .arg(shape.n)
                             .arg(threads));
    if (shape.accumulate && shape.bf16Output)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("a bf16 product accumulates into fp32 only: bf16 sums would round each time"));
    requestAmxTileData();
    try {
        auto impl = std::make_unique<Impl>();
        impl->shape = shape;
        dnnl::engine& engine = cpuEngine();
        impl->bDesc = memory::desc({shape.k, shape.n}, memory::data_type::bf16,
                                   shape.transB ? memory::format_tag::ba : memory::format_tag::ab);
        const memory::data_type cType = shape.bf16Output ? memory::data_type::bf16 : memory::data_type::f32;
        dnnl::primitive_attr attributes;
        if (shape.accumulate) {
            dnnl::post_ops sum;
            sum.append_sum(1.0f);
            attributes.set_post_ops(sum);
        }
        // oneDNN plans a product for the OpenMP thread count at its creation: one, for a panel.
        omp_set_num_threads(1);
        const int panels = std::min(threads, shape.m);
        for (int i = 0; i < panels; ++i) {
            Bf16Panel panel;
            panel.row = static_cast<int>(static_cast<std::int64_t>(shape.m) * i / panels);
            const int rows = static_cast<int>(static_cast<std::int64_t>(shape.m) * (i + 1) / panels) - panel.row;
            panel.aDesc = panelOfA(shape, rows);
            panel.cDesc = memory::desc({rows, shape.n}, cType, memory::format_tag::ab);
            const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(panel.aDesc, impl->bDesc, panel.cDesc), attributes,
                                                  engine);
            panel.primitive = dnnl::matmul(pd);
            panel.stream = dnnl::stream(engine);
            if (i == 0)
                impl->implementation = QString::fromLatin1(pd.impl_info_str());
            impl->panels.push_back(std::move(panel));
        }
        return std::unique_ptr<OneDnnBf16Gemm>(new OneDnnBf16Gemm(std::move(impl)));
    } catch (const dnnl::error& error) {
        return makeError(
            Error::Code::Unsupported,
            QStringLiteral("oneDNN cannot make a bf16 product: %1").arg(QString::fromLatin1(error.what())));
    }
}

void OneDnnBf16Gemm::run(const std::uint16_t* a, const std::uint16_t* b, void* c)
{
    dnnl::engine& engine = cpuEngine();
    const Bf16GemmShape& shape = m_impl->shape;
    const std::size_t cElement = shape.bf16Output ? 2 : 4;
    const memory bMemory(m_impl->bDesc, engine, const_cast<std::uint16_t*>(b));
    auto runPanel = [&](Bf16Panel& panel) {
        omp_set_num_threads(1);  // this thread's own OpenMP setting: no team for a panel
        const memory aMemory(panel.aDesc, engine, const_cast<std::uint16_t*>(a) + offsetOfA(shape, panel.row));
        const memory cMemory(panel.cDesc, engine,
                             static_cast<std::uint8_t*>(c) + cElement * static_cast<std::size_t>(panel.row) * shape.n);
        panel.primitive.execute(panel.stream,
                                {{DNNL_ARG_SRC, aMemory}, {DNNL_ARG_WEIGHTS, bMemory}, {DNNL_ARG_DST, cMemory}});
        panel.stream.wait();
    };
    WorkerTeam::of(static_cast<int>(m_impl->panels.size())).run([&](int i) {
        runPanel(m_impl->panels[static_cast<std::size_t>(i)]);
    });
}

const Bf16GemmShape& OneDnnBf16Gemm::shape() const
{
    return m_impl->shape;
}

QString OneDnnBf16Gemm::implementation() const
{
    return m_impl->implementation;
}

QString matmulTypeName(MatmulType type)
{
    switch (type) {
        case MatmulType::Fp32:
            return QStringLiteral("fp32");
        case MatmulType::Bf16:
            return QStringLiteral("bf16");
        case MatmulType::Int8:
            return QStringLiteral("int8");
    }
    return {};
}

int bytesPerElement(MatmulType type)
{
    switch (type) {
        case MatmulType::Fp32:
            return 4;
        case MatmulType::Bf16:
            return 2;
        case MatmulType::Int8:
            return 1;
    }
    return 4;
}

QString oneDnnVersion()
{
    const dnnl_version_t* version = dnnl_version();
    return QStringLiteral("%1.%2.%3").arg(version->major).arg(version->minor).arg(version->patch);
}

QString oneDnnCpuIsa()
{
    switch (dnnl_get_effective_cpu_isa()) {
        case dnnl_cpu_isa_avx512_core_amx:
            return QStringLiteral("AVX-512 with AMX (bf16, int8)");
        case dnnl_cpu_isa_avx512_core_bf16:
            return QStringLiteral("AVX-512 with BF16 and VNNI");
        case dnnl_cpu_isa_avx512_core_vnni:
            return QStringLiteral("AVX-512 with VNNI");
        case dnnl_cpu_isa_avx512_core:
            return QStringLiteral("AVX-512");
        case dnnl_cpu_isa_avx2_vnni:
            return QStringLiteral("AVX2 with AVX-VNNI");
        case dnnl_cpu_isa_avx2:
            return QStringLiteral("AVX2");
        default:
            return QStringLiteral("older than AVX2");
    }
}

namespace {

// cblas_sbgemm's signature (OpenBLAS cblas.h), with its enums as the ints they are.
using SbgemmFunction = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha,
                                const std::uint16_t* a, int lda, const std::uint16_t* b, int ldb, float beta, float* c,
                                int ldc);

SbgemmFunction sbgemmFunction()
{
    static const auto function = reinterpret_cast<SbgemmFunction>(dlsym(RTLD_DEFAULT, "cblas_sbgemm"));
    return function;
}

}  // namespace

bool openBlasHasSbgemm()
{
    return sbgemmFunction() != nullptr;
}

bool openBlasSbgemm(const std::uint16_t* a, const std::uint16_t* b, float* c, int n)
{
    const SbgemmFunction sbgemm = sbgemmFunction();
    if (!sbgemm)
        return false;
    constexpr int kRowMajor = 101, kNoTrans = 111;  // CblasRowMajor, CblasNoTrans
    sbgemm(kRowMajor, kNoTrans, kNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    return true;
}

}  // namespace ridgeline
