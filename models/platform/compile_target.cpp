// SPDX-License-Identifier: Apache-2.0
#include "models/platform/compile_target.h"

#include <algorithm>

#include "sim/arch/regions.h"
#include "sim/config/presets.h"
#include "sim/config/vela_ini.h"

namespace npusim::platform {
namespace {

// Weight/scale streams of kernels read from a region other than 0 (the constants).
bool readsStreamsFromArena(const cmd::Operation& op) {
  const auto outsideConstants = [](const cmd::Stream& s) { return s.length > 0 && s.region != arch::kConstantRegion; };
  return cmd::isKernel(op.kind) && (outsideConstants(op.weights[0]) || outsideConstants(op.scales[0]));
}

// A DMA from region 0 (the constants) into external memory of another region.
bool copiesConstants(const cmd::Operation& op) {
  return op.kind == cmd::OpKind::DmaStart && !op.dma.srcInternal && !op.dma.dstInternal && op.dma.srcRegion == 0 &&
         op.dma.dstRegion != 0;
}

std::string memoryOf(const config::SystemParams& params, arch::AreaId area) {
  return std::string(config::memoryKindName(params.memoryIn(area))) + " on " + std::string(arch::areaName(area));
}

// "<kind>.<name>" can be resolved for the model: a built-in section for its NPU, or one of the
// user's vela.ini (which then replaces the built-in ones).
bool resolvable(const std::string& kind, const std::string& name, const arch::NpuConfig* hw,
                const config::VelaIni* userIni) {
  if (userIni != nullptr) return userIni->find(kind + "." + name) != nullptr;
  const config::PresetSection* preset = config::findPreset(kind + "." + name, hw != nullptr ? hw->arch : nullptr);
  return preset != nullptr && (hw == nullptr || preset->describes(*hw->arch));
}

} // namespace

CompileTarget compileTarget(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded) {
  CompileTarget t;
  t.hardware = net.hardware();
  for (const io::Operator& op : net.operators) {
    if (op.kind != io::OperatorKind::Npu) continue;
    t.flashBytes = std::max(t.flashBytes, op.npu.flashSize);
    t.scratchBytes = std::max(t.scratchBytes, op.npu.scratchSize);
    t.scratchFastBytes = std::max(t.scratchFastBytes, op.npu.scratchFastSize);
  }
  for (const io::TensorInfo& tensor : net.tensors) {
    if (tensor.arenaOffset && *tensor.arenaOffset >= 0) {
      t.offlinePlanBytes = std::max(t.offlinePlanBytes, uint64_t(*tensor.arenaOffset) + tensor.bytes());
    }
  }
  t.sections = config::compileSections(net.path, t.hardware != nullptr ? std::string(t.hardware->name) : "", nullptr);
  for (const io::DecodedNpuOp& d : decoded) {
    const bool reads = std::any_of(d.operations.begin(), d.operations.end(), readsStreamsFromArena);
    for (const cmd::Operation& op : d.operations) {
      if (reads && copiesConstants(op)) {
        (op.dma.dstRegion == 2 ? t.weightsBufferedInCache : t.weightsBufferedInArena) = true;
      }
    }
  }
  return t;
}

std::string describe(const CompileTarget& t) {
  const arch::NpuConfig& hw = *t.hardware;
  std::string buffers;
  switch (hw.arch->buffers) {
  case arch::BufferModel::Shram: buffers = "SHRAM " + std::to_string(hw.shramKb) + " KiB"; break;
  case arch::BufferModel::InternalBuffers: {
    buffers = "IB " + std::to_string(hw.buffers.ifm) + ", AB " + std::to_string(hw.buffers.accumulator) + ", OB " +
              std::to_string(hw.buffers.output) + ", CB " + std::to_string(hw.buffers.chaining) + ", LUT " +
              std::to_string(hw.buffers.lut) + " B; " +
              std::to_string(hw.sramPorts) + " SRAM and " + std::to_string(hw.extPorts) + " EXT ports, " +
              std::to_string(hw.weightDecoders) + " weight decoder" + (hw.weightDecoders > 1 ? "s" : "");
    break;
  }
  }
  std::string s = std::string(hw.name) + " (" + buffers + "); arena " +
                  std::to_string(t.scratchBytes) + " B, fast arena " + std::to_string(t.scratchFastBytes) + " B";
  if (t.offlinePlanBytes > 0) s += ", offline plan " + std::to_string(t.offlinePlanBytes) + " B";
  return s + "; constants " + std::to_string(t.flashBytes) + " B, " +
         (t.weightsBufferedInArena ? "in a memory slower than the arena (weights buffered into the arena by DMA)"
          : t.weightsBufferedInCache
              ? "in a memory slower than the fast arena (weights buffered into the SRAM cache by DMA)"
              : "read in place (no weight buffering: constants as fast as the arena, or buffering not worth it)");
}

std::vector<std::string> configMismatches(const CompileTarget& t, const config::SystemParams& params) {
  std::vector<std::string> out;
  // 0. Other sections than the compile's: Vela planned the stream for the compile's timing and
  //    placed its tensors by the compile's memory mode.
  bool modeNamed = false;
  if (t.sections) {
    const auto differs = [&](const char* what, const std::string& compiled, const std::string& simulated,
                             const std::string& from, const char* consequence) {
      if (compiled == simulated) return false;
      std::string sentence = std::string("the model was compiled for ") + what + " " + compiled + " (" +
                             t.sections->from + "), but " + simulated + " (" + from + ") is simulated";
      sentence += from == config::kDefaultSection
                      ? std::string(": npusim does not know ") + compiled + " (not built in for " +
                            params.accelerator + ", nor in a --vela-ini): give the vela.ini the model was compiled with"
                      : std::string(": ") + consequence;
      out.push_back(sentence);
      return true;
    };
    differs("system config", t.sections->names.systemConfig, params.systemConfig, params.systemConfigFrom,
            "Vela planned its stream for the other one's memory timing");
    modeNamed = differs("memory mode", t.sections->names.memoryMode, params.memoryMode, params.memoryModeFrom,
                        "Vela placed its tensors for the other one");
  }
  const arch::AreaId constArea = params.mode.constMemArea;
  const arch::AreaId arenaArea = params.mode.arenaMemArea;
  // 1. Weights buffered for slow constants, but the mode puts the constants in the memory they
  //    are copied into (the arena, or the SRAM cache of region 2).
  const auto copiedIntoSameMemory = [&](bool buffered, arch::AreaId into, const char* what, const char* mode) {
    if (buffered && params.memoryIn(constArea) == params.memoryIn(into)) {
      out.push_back(std::string("the model was compiled for constants in a memory slower than ") + what +
                    " (its stream copies weights from region 0 into it by DMA, as Vela does for " + mode +
                    "), but memory mode " + params.memoryMode + " puts the constants in " +
                    memoryOf(params, constArea) + ", that memory: those copies are ones Vela would not have emitted");
    }
  };
  //    (Said only when the memory mode is not already named as another than the compile's.)
  if (!modeNamed) {
    copiedIntoSameMemory(t.weightsBufferedInArena, arenaArea, "the arena", "Shared_Sram");
    copiedIntoSameMemory(t.weightsBufferedInCache, params.mode.cacheMemArea, "its SRAM cache", "Dedicated_Sram");
  }
  // 2. An arena larger than the memory the mode gives it.
  const uint64_t cache = params.mode.arenaCacheSize;
  if (cache > 0 && t.scratchFastBytes > cache) {
    out.push_back("the model's fast arena (region 2) is " + std::to_string(t.scratchFastBytes) +
                  " bytes, but memory mode " + params.memoryMode + " gives it arena_cache_size " +
                  std::to_string(cache) + " bytes");
  }
  return out;
}

config::ConfigRequest requestForCompile(config::ConfigRequest request, const io::CompiledNetwork& net,
                                        std::vector<std::string>& warnings) {
  const arch::NpuConfig* hw = net.hardware();
  const std::optional<config::CompileSections> compiled =
      config::compileSections(net.path, hw != nullptr ? std::string(hw->name) : "", &warnings);
  if (!compiled || (!request.systemConfig.empty() && !request.memoryMode.empty())) return request;
  const std::optional<config::VelaIni> userIni =
      request.velaIni.empty() ? std::nullopt : std::optional<config::VelaIni>(config::VelaIni::read(request.velaIni));
  const config::VelaIni* ini = userIni ? &*userIni : nullptr;
  const std::string from = "the compile (" + compiled->from + ")";
  if (request.systemConfig.empty() && resolvable("System_Config", compiled->names.systemConfig, hw, ini)) {
    request.systemConfig = compiled->names.systemConfig;
    request.systemConfigFrom = from;
  }
  if (request.memoryMode.empty() && resolvable("Memory_Mode", compiled->names.memoryMode, hw, ini)) {
    request.memoryMode = compiled->names.memoryMode;
    request.memoryModeFrom = from;
  }
  return request;
}

config::VelaVersion compiledBy(const io::CompiledNetwork& net) {
  if (!net.velaVersion.empty()) {
    return config::VelaVersion::V3_10;
  }
  for (const io::Operator& op : net.operators) {
    if (op.kind == io::OperatorKind::Npu) {
      const int stream = op.npu.commandStreamTensorIndex;
      const bool regor = stream >= 0 && static_cast<size_t>(stream) < net.tensors.size() &&
                         net.tensors[static_cast<size_t>(stream)].name == "ethos_u_command_stream";
      return regor ? config::VelaVersion::V5_0 : config::VelaVersion::V3_10;
    }
  }
  return config::VelaVersion::V3_10;
}

config::VelaReading velaReadingFor(const io::CompiledNetwork& net) {
  const config::VelaVersion vela = compiledBy(net);
  return {vela, vela == config::VelaVersion::V5_0 ? "the model was compiled by Vela 5.x's C++ back end"
                                                  : "the model was not compiled by Vela 5.x's C++ back end"};
}

} // namespace npusim::platform
