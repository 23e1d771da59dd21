// Kernel names for chart labels: demangled, then shortened to the qualified function name.
#include "core/import/kernel/kernel_names.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(ImportNames, MangledNamesAreDemangled)
{
    EXPECT_EQ(demangledName(QStringLiteral("_Z10dgemm_tilePKdS0_Pdi")),
              QStringLiteral("dgemm_tile(double const*, double const*, double*, int)"));
    EXPECT_EQ(demangledName(QStringLiteral("ampere_sgemm_128x64_nn")), QStringLiteral("ampere_sgemm_128x64_nn"));
    EXPECT_EQ(demangledName(QStringLiteral("_Znot valid")), QStringLiteral("_Znot valid"));
}

TEST(ImportNames, ShortNamesDropReturnTypeTemplateArgumentsAndParameters)
{
    EXPECT_EQ(shortKernelName(QStringLiteral("void saxpy_kernel<float>(int, float, const float *, float *)")),
              QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(shortKernelName(QStringLiteral("void cutlass::Kernel<cutlass::gemm::kernel::Gemm<A<1>, B>>(Params)")),
              QStringLiteral("cutlass::Kernel"));
    EXPECT_EQ(shortKernelName(QStringLiteral("_ZN2at6native18elementwise_kernelILi128ELi2EiEEviT1_")),
              QStringLiteral("at::native::elementwise_kernel"));
    EXPECT_EQ(shortKernelName(QStringLiteral("void (anonymous namespace)::softmax_warp_forward<float, 8>(float *)")),
              QStringLiteral("{anonymous}::softmax_warp_forward"));
    EXPECT_EQ(shortKernelName(QStringLiteral("ampere_sgemm_128x64_nn")), QStringLiteral("ampere_sgemm_128x64_nn"));
    // Nsight Compute writes an anonymous namespace as <unnamed>.
    EXPECT_EQ(shortKernelName(QStringLiteral("void at::native::<unnamed>::distribution_kernel<float, (int)4>(int)")),
              QStringLiteral("at::native::{anonymous}::distribution_kernel"));
}
