#pragma once
// Matrix products from oneDNN (Debian's libdnnl), which dispatches to AMX tiles, AVX-512 BF16 or VNNI where
// the CPU has them: the bf16 matmul placed under the bf16 roof, and the decode step with fp32, bf16 or int8
// weights. OpenBLAS's bf16 gemm (cblas_sbgemm) is looked up at run time beside it: Debian's OpenBLAS 0.3.21
// declares it in cblas.h but is built without it.

#include "core/result.h"

#include "core/measure/run/aligned_buffer.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ridgeline {

// The element type of both operands of a product; the result is always fp32.
//   Fp32: fp32 x fp32.
//   Bf16: bf16 x bf16 (inputs rounded to nearest even), fp32 accumulation.
//   Int8: s8 x s8 with int32 accumulation, symmetric per-tensor quantization: each operand is scaled so its
//         largest magnitude maps to 127, and the product is scaled back (weights and activations in int8).
enum class MatmulType { Fp32, Bf16, Int8 };

QString matmulTypeName(MatmulType type);  // "fp32", "bf16", "int8"
int bytesPerElement(MatmulType type);     // 4, 2, 1

// Values converted once to a product's element type: bf16 bits, or int8 with the scale that maps the largest
// magnitude to 127. Weights are converted once and shared by every product that uses them.
// Operand bytes on huge pages where large (aligned_buffer.h): first touching 4 KiB pages of a 64 MiB weight
// matrix took a quarter of a second on a KVM guest.
using OperandBytes = std::vector<std::uint8_t, StreamingAllocator<std::uint8_t>>;

struct MatmulOperand {
    MatmulType type = MatmulType::Fp32;
    OperandBytes bytes;  // count x bytesPerElement(type), little-endian
    float scale = 1.0f;  // int8: value = scale x q
    std::size_t count() const { return bytes.size() / static_cast<std::size_t>(bytesPerElement(type)); }

    static MatmulOperand from(MatmulType type, const float* values, std::size_t count);
    // Element i is value(i), without an fp32 copy of the whole operand.
    static MatmulOperand generate(MatmulType type, std::size_t count, const std::function<float(std::size_t)>& value);
    // The same when value(i) repeats every `period` elements: the period is converted once and copied, so
    // that operands of hundreds of MiB are filled at memory speed (a quick run cannot afford a call per element).
    static MatmulOperand periodic(MatmulType type, std::size_t count, std::size_t period,
                                  const std::function<float(std::size_t)>& value);
};

struct MatmulShape {
    int m = 0;  // rows of A and C
    int k = 0;  // columns of A, rows of B
    int n = 0;  // columns of B and C
};

// C (m x n) = A (m x k) x B (k x n), all row-major. B is reordered once into the layout oneDNN prefers, as
// inference does with weights; run() then computes with the A given at creation, run(a, c) with any other
// m x k block of the same type (a row panel of a larger product, say; for int8 quantized with A's scale, which
// the product's output scale is made from).
class OneDnnMatmul {
public:
    // The operands given in fp32, converted to `type`.
    static Result<std::unique_ptr<OneDnnMatmul>> create(MatmulType type, MatmulShape shape, const float* a,
                                                        const float* b, int threads);
    // Operands converted already; `a` may be empty when only run(a, c) is used. Both of one type. With
    // `packedLike`, a product of the same B whose packed weights this one shares when oneDNN chose the same
    // layout (the decode steps of several batch sizes pack their weights once).
    static Result<std::unique_ptr<OneDnnMatmul>> create(MatmulShape shape, const MatmulOperand& a,
                                                        const MatmulOperand& b, int threads,
                                                        const OneDnnMatmul* packedLike = nullptr);
    ~OneDnnMatmul();
    OneDnnMatmul(const OneDnnMatmul&) = delete;
    OneDnnMatmul& operator=(const OneDnnMatmul&) = delete;

    void run();
    void run(const std::uint8_t* a, float* c);  // A: m x k elements of the type; C: m x n, row-major
    const float* result() const;                // m x n, valid after run()

    MatmulType type() const;
    MatmulShape shape() const;
    QString implementation() const;  // oneDNN's name for the kernel it chose, e.g. "brg:avx512_core_amx_bf16"
    double flops() const;            // 2 m n k
    double bytes() const;            // A and B at their type, C in fp32: each moved once

private:
    struct Impl;
    explicit OneDnnMatmul(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// C = op(A) op(B), or C += op(A) op(B), for bf16 operands that both change every call (a training step's activations,
// gradients and freshly rounded weights): nothing is packed ahead, both are read where they lie, row-major, and each
// may be used transposed (read through swapped strides). C is fp32, and then may be accumulated into, or bf16,
// rounded from the fp32 sums.
struct Bf16GemmShape {
    bool transA = false;  // A is stored k x m
    bool transB = false;  // B is stored n x k
    int m = 0;            // rows of op(A) and C
    int n = 0;            // columns of op(B) and C
    int k = 0;
    bool bf16Output = false;
    bool accumulate = false;  // C += ..., fp32 C only
};

class OneDnnBf16Gemm {
public:
    static Result<std::unique_ptr<OneDnnBf16Gemm>> create(const Bf16GemmShape& shape, int threads);
    ~OneDnnBf16Gemm();
    OneDnnBf16Gemm(const OneDnnBf16Gemm&) = delete;
    OneDnnBf16Gemm& operator=(const OneDnnBf16Gemm&) = delete;

    // `c` is m x n fp32 or bf16 values as the shape says.
    void run(const std::uint16_t* a, const std::uint16_t* b, void* c);
    const Bf16GemmShape& shape() const;
    QString implementation() const;  // oneDNN's name for the kernel it chose

private:
    struct Impl;
    explicit OneDnnBf16Gemm(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

QString oneDnnVersion();  // "2.6.3"
QString oneDnnCpuIsa();   // the most capable instruction set oneDNN uses on this CPU, in its own words

// OpenBLAS's cblas_sbgemm, if the OpenBLAS this process loaded has it: C = A x B for row-major n x n bf16
// matrices (bits as bf16FromFloat makes them). False, and nothing computed, when the library lacks it.
bool openBlasHasSbgemm();
bool openBlasSbgemm(const std::uint16_t* a, const std::uint16_t* b, float* c, int n);

}  // namespace ridgeline
