// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 3.10's per-operation performance formulas (timing doc section 3) on a LayerQuery.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "harness/analytic/vela_system.h"
#include "models/npu/npu_cost.h"
#include "sim/cmdstream/operation.h"

namespace npusim::analytic {

// Vela's NPU block types.
enum class BlockType : uint8_t {
  ConvolutionMxN, VectorProduct, ConvolutionDepthWise, Pooling, ElementWise, ReduceSum, Dma
};

// The Vela operator types the formulas distinguish.
enum class LayerOp : uint8_t {
  Conv2D, FullyConnected, Depthwise, MaxPool, AvgPool, ReduceSum,
  Add, Sub, Mul, Minimum, Maximum, Shr, Shl, LeakyRelu, Abs, Clz, Memcpy
};

BlockType blockTypeOf(LayerOp op);
std::string_view layerOpName(LayerOp op);   // Vela's NNG operator spelling

// Vela's fused-activation classes (activation table rows A0, A1, A2).
using npu::ActivationClass;

// A feature map as the model sees it: full-operation shape, storage format, element size, area.
struct FeatureMapInfo {
  Shape3 shape;
  cmd::DataFormat format = cmd::DataFormat::Nhwc;
  uint32_t bits = 8;
  MemArea area = MemArea::Sram;
};

// Kernel as Vela's Kernel: undilated size, stride, dilation.
struct KernelInfo {
  uint32_t width = 1, height = 1, strideX = 1, strideY = 1, dilationX = 1, dilationY = 1;
  uint64_t elements() const { return uint64_t{width} * height; }
  uint32_t areaWidth() const { return dilationX * (width - 1) + 1; }
  uint32_t areaHeight() const { return dilationY * (height - 1) + 1; }
};

// The block configuration the scheduler chose for an operation.
struct BlockConfig {
  Shape3 ofmBlock;   // as programmed (OFM_BLK_*), not clipped to the tensor
  Shape3 ifmBlock;   // implied by the OFM block, kernel and resampling
  bool acc40 = false;
  bool partKernel = false;
};

// Everything one Vela estimate of one operation reads (Vela's PerformanceQuery).
struct LayerQuery {
  LayerOp op = LayerOp::Conv2D;
  ActivationClass activation = ActivationClass::None;
  FeatureMapInfo ifm;
  std::optional<FeatureMapInfo> ifm2;   // binary elementwise only (also for scalar operands)
  FeatureMapInfo ofm;
  KernelInfo kernel;
  BlockConfig block;
  bool hasBias = false;                 // conv-like ops with a scale/bias stream
  MemArea constArea = MemArea::Sram;    // where the NPU reads the scale/bias stream from
};

// Element counts an operation moves (Vela's ElementAccess).
struct ElementAccess {
  std::array<double, 2> ifmRead{};      // IFM, IFM2
  double ofmWrite = 0;
  std::array<double, 2> constRead{};    // weights, scales/biases (elements)
};

// Vela's formulas. Contract: pure functions of the query and the system; results are
// doubles where Vela keeps floats and truncated exactly where Vela truncates.
class PerformanceModel {
public:
  explicit PerformanceModel(const VelaSystem& system) : system_(system) {}

  // Multiply-accumulates (3.2).
  uint64_t macs(const LayerQuery& q) const;
  // Compute cycles (3.3 - 3.5), Vela's measure_cycle_cost.
  int64_t computeCycles(const LayerQuery& q) const;
  // Element counts moved (3.6.1).
  ElementAccess elementAccess(const LayerQuery& q) const;
  // `bytes` inflated by the burst-efficiency factor (3.6.2).
  double burstScaled(bool isRead, MemArea area, cmd::DataFormat format, uint32_t bits, const Shape3& block,
                     const Shape3& shape, double bytes) const;
  // DMA cycles from one area to another (3.7 mem2mem).
  double mem2mem(MemArea from, MemArea to, uint64_t bytes) const;
  // Storage rounding: NHCWB16 rounds depth up to 16.
  static Shape3 storageRounded(const Shape3& shape, cmd::DataFormat format);

private:
  double outputCyclesPerElement(const LayerQuery& q) const;
  double convCycles(const LayerQuery& q) const;
  double blockMemoryCycles(const LayerQuery& q) const;

  const VelaSystem& system_;
};

} // namespace npusim::analytic
