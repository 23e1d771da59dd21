#pragma once
// What one GPU holds during a training step: weights, gradients and optimizer state (by precision policy and
// optimizer, divided by tensor and pipeline parallelism and sharded by ZeRO over the data-parallel ranks), the
// activations the backward needs, and the largest temporary buffers.
//
// Model states per parameter (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
// Parameter Models", section 3.1): mixed precision with Adam holds 2 (fp16/bf16 weights) + 2 (gradients) + 12 (fp32
// master weights, momentum, variance) = 16 bytes per parameter. fp32 holds 4 + 4 + 8; SGD with momentum keeps one
// moment instead of two; 8-bit Adam (Dettmers et al. 2022) keeps both moments in one byte each.
//
// Activations per layer (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
// section 4): s b h (34 + 5 a s / h) bytes with 16-bit activations and 1-byte dropout masks, for s tokens, b
// sequences, hidden h, a heads and an FFN of 4h. Tensor parallelism with sequence parallelism divides all of it by
// t (section 4.2.2); selective recomputation drops the 5 a s / h term (the attention scores, softmax and dropout);
// full recomputation keeps only each layer's input, 2 s b h, plus one layer's activations while it is recomputed.
// The terms are kept by tensor, so other FFN widths, gated FFNs, grouped KV heads and fp32 activations follow.
//
// Flash attention (Dao et al. 2022, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
// section 3.1) never writes the scores: the 5 a s / h term is gone whatever the checkpointing, and the kernel keeps
// its output (already counted: the output projection's input) and one fp32 softmax statistic per row and head.
//
// torchtitan's op-level selective checkpointing (selective-op) wraps each layer; inside it, of the ops the forward
// runs, it keeps the outputs of the plain matmuls (aten.mm) except every second one, and the output of the fused
// attention kernel, and recomputes all else in the backward. Its Llama layer runs the matmuls in the order q, k, v,
// o, then gate, up, down (a GELU FFN: up, down), so it keeps q, v, gate and down (GELU: q, v, up) and recomputes
// k, o and up (GELU: down) and every norm, rotation and activation function. With materialised attention the
// scores are no fused kernel's output: they are recomputed too.

#include "core/model/training/training_config.h"

namespace ridgeline {

// Bytes per parameter of the three model states, before any sharding.
struct StateBytesPerParam {
    double weights = 0;    // the copy the forward reads (16-bit in mixed precision)
    double gradients = 0;  // in the weights' format
    double optimizer = 0;  // master weights (mixed precision) and the moments
    double total() const { return weights + gradients + optimizer; }
};
StateBytesPerParam stateBytesPerParam(PrecisionPolicy precision, Optimizer optimizer);

// Bytes of one activation value: 2 in mixed precision, 4 in fp32.
double activationBytes(PrecisionPolicy precision);

// One layer's stored activations for one micro-batch on one GPU (the tensor-parallel share), in two parts: the
// part linear in the sequence and the attention part quadratic in it (the 5 a s / h term, none with flash
// attention). With checkpointing none; checkpointedLayer applies the others.
struct LayerActivations {
    double linear = 0;      // 34 s b h in the paper's case
    double attention = 0;   // 5 a s^2 b with materialised scores, 0 with flash attention
    double layerInput = 0;  // 2 s b h: what full checkpointing keeps
    double opSaved = 0;     // what torchtitan's op-level policy keeps, the layer input included
    double total() const { return linear + attention; }
};
LayerActivations layerActivations(const TrainingConfig& config);

// Under the configuration's checkpointing: what each layer keeps for the backward, and what the backward computes
// again for one layer (held while that layer's backward runs).
struct CheckpointedLayer {
    double stored = 0;
    double recomputed = 0;
};
CheckpointedLayer checkpointedLayer(const TrainingConfig& config, const LayerActivations& layer);

struct TrainingMemory {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;  // the layers' stored activations, all micro-batches in flight on the first stage
    double temporary = 0;    // the loss's fp32 tensors of the logits' shape; ZeRO-3's gathered layers
    // What PyTorch's caching allocator holds beyond the live tensors (kAllocatorReserve...): in reserved(), not in
    // total(), which fits() compares with the card.
    double allocatorReserve = 0;
    // Outside the caching allocator, in neither of PyTorch's figures but on the card (nvidia-smi shows them): the
    // CUDA context (kCudaContextBytes) and NCCL's communication buffers (ncclBufferBytes).
    double cudaContext = 0;
    double ncclBuffers = 0;
    double capacity = 0;      // the card's memory
    double paramsPerGpu = 0;  // parameters this GPU's model-parallel rank holds before ZeRO
    int layersPerStage = 0;
    std::int64_t microBatchesInFlight = 1;  // on the first pipeline stage (1F1B: min(pp, accumulation steps))
    // What the step's tensors hold at the peak: torch.cuda.max_memory_allocated's figure.
    double total() const { return weights + gradients + optimizer + activations + temporary; }
    // torch.cuda.max_memory_reserved's figure: the tensors and the freed blocks the allocator keeps cached.
    double reserved() const { return total() + allocatorReserve; }
    // What the card holds outside the allocator: the context and NCCL's buffers.
    double runtime() const { return cudaContext + ncclBuffers; }
    // What must be on the card at the peak once the allocator has given its cache back: the live tensors and the
    // runtime, which nothing frees while the process lives.
    double onCard() const { return total() + runtime(); }
    // nvidia-smi's figure (NVML's used memory for the process): the reserved figure and the runtime.
    double device() const { return reserved() + runtime(); }
    // Before it reports out of memory, the allocator frees its cached blocks and retries (PyTorch's memory_stats
    // "num_alloc_retries"), so the cache does not decide whether a step fits; the runtime does.
    bool fits() const { return onCard() <= capacity; }
};

// PyTorch's CUDA caching allocator keeps the blocks a step frees for the next requests instead of returning them to
// the driver (PyTorch docs, "CUDA semantics", "Memory management"): torch.cuda.memory_allocated counts the live
// tensors, memory_reserved those and the cached blocks. The gap is what the allocator cannot hand out again: blocks
// cached on the collective streams (each stream's blocks serve that stream only, and FSDP gathers and reduces on
// streams of their own) and the free pieces of split segments too small for the next request. No tensor count gives
// it; a run that logged both figures does: torchtitan PR #165 (A. Gu, March 2024, FSDP2 with bf16 compute and fp32
// reduce-scatter, Llama 7B, local batch 8 at 2,048 tokens, 8 H100s, percentages of 95.04 GiB): 23.92 % peak active
// against 32.64 % peak reserved with full checkpointing (8.29 GiB more), 52.13 % against 62.51 % with selective
// checkpointing (9.87 GiB more). Nearly the same gap for twice the live memory: the cache follows the stack and the
// layer's size, not the total, so it is taken as those gigabytes, not as a share. The CUDA context and NCCL's
// buffers are allocated outside the caching allocator, in neither figure; nvidia-smi shows them (below).
inline constexpr double kAllocatorReserveFullBytes = 8.29 * 1073741824.0;
inline constexpr double kAllocatorReserveBytes = 9.87 * 1073741824.0;  // every other checkpointing

// The CUDA context PyTorch creates on its first CUDA call: the driver's state and the kernels it loads. Since CUDA
// 11.7 and PyTorch 1.13 kernels load lazily (CUDA_MODULE_LOADING=LAZY, PyTorch's default), and the context is "around
// 400MB" (PyTorch maintainer ptrblck, pytorch/pytorch#109888, September 2023; "~300MB" in #107667); PyTorch's PR
// #86509 measured 287,047,680 bytes in use with lazy loading against 666,632,192 with eager loading for one small
// tensor, and before lazy loading it was over 1 GB (#28394: 1,008 MB on a Titan V). No source gives it by GPU
// generation, so one figure stands for every card. cuBLAS's workspace (8.125 MiB, 32 MiB on Hopper and Blackwell:
// PyTorch's CublasHandlePool.cpp) is allocated through the caching allocator and so already in its figures.
inline constexpr double kCudaContextBytes = 400.0 * 1048576.0;

// NCCL's buffers for one connection to one peer on one channel, one per protocol (NCCL src/init.cc,
// DEFAULT_BUFFSIZE, DEFAULT_LL_BUFFSIZE, DEFAULT_LL128_BUFFSIZE): Simple 4 MiB (NCCL_BUFFSIZE), LL 8 lines x 512
// threads x 8 steps x 16 bytes = 512 KiB, LL128 120 x 640 x 8 x 8 bytes = 4,915,200 bytes. Each channel has its own
// (NCCL maintainer sjeaugey, NVIDIA/nccl#1450), so the memory is linear in the channels (NVIDIA/nccl#986).
inline constexpr double kNcclConnectionBytes = 4194304.0 + 524288.0 + 4915200.0;
// Channels a communicator opens, by the link inside the node: 16 over NVLink (an 8-GPU H800 NVLink node logs "16
// coll channels", NVIDIA/nccl#892), 2 over PCIe or through host memory (an 8-GPU PCIe node's rings use channels 00
// and 01, NVIDIA/nccl-tests#228).
inline constexpr int kNcclChannelsNvlink = 16;
inline constexpr int kNcclChannelsPcie = 2;

// NCCL's buffers on one GPU: one communicator per parallel group larger than one. The data-parallel group's
// all-reduces (plain data parallel) connect a ring and a tree on each channel: the ring receives from one peer, the
// tree (a chain inside a node) from its parent and its child, three connections. ZeRO's and FSDP's reduce-scatters
// and all-gathers run on rings only, and NCCL connects an algorithm only when a collective first needs it
// (NCCL_RUNTIME_CONNECT, on by default since NCCL 2.22): one connection. Tensor parallelism all-reduces: three.
// Pipeline stages send to the next and receive from the previous stage, one connection each way.
double ncclBufferBytes(const TrainingConfig& config);

// The configuration must have passed checkTrainingConfig.
TrainingMemory trainingMemory(const TrainingConfig& config, const ParamCounts& params);

}  // namespace ridgeline
