// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpora and dictionaries of the fuzz targets (scripts/fuzz.sh runs it):
//   npusim_make_seeds OUT_DIR [FIXTURES_DIR]
// OUT_DIR/tflite_loader   demo networks for every MAC configuration, a builder-made
//                         elementwise model, and the fixtures' small compiled models
// OUT_DIR/cmdstream       every command stream of those models (selector byte + stream words)
// OUT_DIR/weight_stream   every distinct compressed weight stream of those models
// OUT_DIR/fast_weight_stream  every distinct fast-format (Ethos-U85) weight stream of them
// OUT_DIR/json_config     every config key alone with its default, all keys, configs/*.json
// OUT_DIR/vela_ini        the built-in presets as a vela.ini, the fixtures' vela.ini, an
//                         inheriting pair of sections
// OUT_DIR/*.dict          libFuzzer dictionaries: config key names, values, vela.ini keys

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/weight_source.h"
#include "sim/config/config.h"
#include "sim/config/config_schema.h"
#include "sim/config/json_config.h"
#include "sim/config/presets.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"
#include "sim/io/demo_network.h"
#include "sim/io/tflite_writer.h"
#include "tests/fuzz/fuzz_support.h"

namespace fs = std::filesystem;
using namespace npusim;

namespace {

// Fixture models larger than this are left out: they slow every execution down.
constexpr uintmax_t kMaxFixtureBytes = 64 * 1024;

void write(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

void write(const fs::path& path, const std::vector<uint8_t>& bytes) { write(path, std::string(bytes.begin(), bytes.end())); }

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// libFuzzer dictionary entry: "text" with quotes, backslashes and non-printables escaped.
std::string dictEntry(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

void writeDict(const fs::path& path, const std::set<std::string>& tokens) {
  std::string text;
  for (const std::string& t : tokens) {
    text += dictEntry(t) + "\n";
  }
  write(path, text);
}

// A model with one binary elementwise ADD (IFM2 tensor) and a scalar MUL, from the builder.
std::vector<uint8_t> elementwiseModel() {
  cmd::FeatureMap fm;
  fm.region = 1;
  fm.shape = {8, 8, 16};
  fm.width0 = 8;
  fm.height0 = fm.height1 = 8;
  fm.strideC = 1;
  fm.strideX = 16;
  fm.strideY = 128;
  cmd::Operation add;
  add.kind = cmd::OpKind::Elementwise;
  add.elementwiseMode = cmd::ElementwiseMode::Add;
  add.ifm = add.ifm2 = add.ofm = fm;
  add.ifm2.base[0] = 1024;
  add.ofm.base[0] = 2048;
  add.ofmBlock = {4, 8, 16};
  add.scaling.perChannel = false;
  cmd::Operation mul = add;
  mul.elementwiseMode = cmd::ElementwiseMode::Mul;
  mul.ifm2.storage = cmd::Storage::None;
  mul.scalar = 3;
  mul.ifm = add.ofm;
  mul.ofm.base[0] = 0;
  cmd::Operation stop;
  stop.kind = cmd::OpKind::Stop;
  cmd::CommandStreamBuilder b;
  b.emit(add);
  b.emit(mul);
  b.emit(stop);
  io::ModelSpec spec;
  const std::vector<uint8_t> payload = cmd::buildCop1Payload(*arch::findNpuConfig(arch::ethosU55(), 64), b.bytes());
  spec.tensors = {
      {"cs", {static_cast<int32_t>(payload.size())}, 3, payload},
      {"flash", {16}, 3, std::vector<uint8_t>(16, 0)},
      {"scratch", {4096}, 3, {}, 0},
      {"scratch_fast", {4096}, 3, {}, 0},
      {"input", {1, 8, 8, 16}, 9, {}, 0, 0.5f, 0},
      {"output", {1, 8, 8, 16}, 9, {}, 2048, 0.5f, 0},
  };
  spec.operators = {{32, "ethos-u", {0, 1, 2, 3, 4}, {5}}};
  spec.inputs = {4};
  spec.outputs = {5};
  return io::writeTflite(spec);
}

// 1. Models, and the command streams inside them.
void modelSeeds(const fs::path& out, const std::optional<fs::path>& fixtures) {
  const fs::path models = out / "tflite_loader", streams = out / "cmdstream", weights = out / "weight_stream";
  const fs::path fastWeights = out / "fast_weight_stream";
  fs::create_directories(models);
  fs::create_directories(streams);
  fs::create_directories(weights);
  fs::create_directories(fastWeights);
  std::set<std::vector<uint8_t>> weightSeeds, fastWeightSeeds;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> all;
  for (uint32_t macs : {32u, 64u, 128u, 256u}) {
    all.emplace_back("demo_" + std::to_string(macs) + ".tflite", io::buildDemoNetworkTflite(macs));
  }
  all.emplace_back("elementwise.tflite", elementwiseModel());
  for (const std::string tree : {"vela", "vela-u85"}) {
    if (!fixtures || !fs::is_directory(*fixtures / tree)) continue;
    std::set<std::string> seen;
    for (const auto& entry : fs::recursive_directory_iterator(*fixtures / tree)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.size() < 12 || name.substr(name.size() - 12) != "_vela.tflite" ||
          entry.file_size() > kMaxFixtureBytes) {
        continue;
      }
      std::string bytes = readFile(entry.path());
      if (seen.insert(bytes).second) {
        all.emplace_back(entry.path().parent_path().filename().string() + "_" + name,
                         std::vector<uint8_t>(bytes.begin(), bytes.end()));
      }
    }
  }
  for (const auto& [name, bytes] : all) {
    write(models / name, bytes);
    const io::CompiledNetwork net = io::loadNetworkFromBytes(bytes, name);
    size_t k = 0;
    for (const io::Operator& op : net.operators) {
      if (op.kind != io::OperatorKind::Npu) {
        continue;
      }
      const uint8_t* words = net.at(op.npu.commands);
      // fuzz_cmdstream's selector: bit 0 region checks, bits 1-2 the configuration.
      const auto* config = std::find(std::begin(fuzz::kCmdstreamConfigs), std::end(fuzz::kCmdstreamConfigs),
                                     op.npu.header.hardware->name);
      const auto hardware = static_cast<uint8_t>(config == std::end(fuzz::kCmdstreamConfigs)
                                                     ? 0 : config - std::begin(fuzz::kCmdstreamConfigs));
      for (uint8_t selector : {uint8_t(hardware << 1), uint8_t(hardware << 1 | 1)}) {
        std::vector<uint8_t> seed{selector};
        seed.insert(seed.end(), words, words + op.npu.commands.size);
        write(streams / (name + "." + std::to_string(k) + "." + std::to_string(selector) + ".stream"), seed);
      }
      ++k;
    }
    for (const io::DecodedNpuOp& decoded : io::decodeAll(net)) {
      const io::FileRange& flash = net.operators[decoded.operatorIndex].npu.flash;
      for (size_t i = 0; i < decoded.operations.size(); ++i) {
        const cmd::Operation& op = decoded.operations[i];
        for (size_t s = 0; s < op.weightStreamCount; ++s) {
          const std::optional<uint64_t> at = cmd::weightStreamInConstants(decoded.operations, i, s);
          const uint64_t length = op.weights[s].length;
          if (at && *at + length <= flash.size) {
            (op.weightFormat == arch::WeightFormat::Fast ? fastWeightSeeds : weightSeeds)
                .insert(std::vector<uint8_t>(net.at(flash) + *at, net.at(flash) + *at + length));
          }
        }
      }
    }
  }
  size_t w = 0;
  for (const std::vector<uint8_t>& seed : weightSeeds) {
    write(weights / ("stream" + std::to_string(w++) + ".bin"), seed);
  }
  for (const std::vector<uint8_t>& seed : fastWeightSeeds) {
    write(fastWeights / ("stream" + std::to_string(w++) + ".bin"), seed);
  }
  std::cout << all.size() << " models, " << weightSeeds.size() << " weight streams, " << fastWeightSeeds.size()
            << " fast weight streams\n";
}

// 2. JSON configs and their dictionary.
void jsonSeeds(const fs::path& out, const fs::path& sourceDir) {
  const fs::path dir = out / "json_config";
  fs::create_directories(dir);
  const config::SystemParams defaults = config::resolveConfig({});
  const nlohmann::ordered_json all = config::toJson(defaults);
  write(dir / "all_keys.json", all.dump(2));
  std::set<std::string> tokens{"{", "}", "[", "]", ":", ",", "true", "false", "null", "0", "1e9", "-1", "0.5",
                               "4294967296", "1e308", "\"\""};
  size_t i = 0;
  for (const config::ConfigKey& key : config::schema()) {
    std::string pointer = "/" + std::string(key.path);
    for (char& c : pointer) {
      c = c == '.' ? '/' : c;
    }
    const nlohmann::json::json_pointer ptr(pointer);
    nlohmann::json one;
    one[ptr] = nlohmann::json::parse(all.at(nlohmann::ordered_json::json_pointer(pointer)).dump());
    write(dir / ("key" + std::to_string(i++) + ".json"), one.dump());
    std::string part;
    for (char c : std::string(key.path) + ".") {
      if (c == '.') {
        tokens.insert("\"" + part + "\"");
        part.clear();
      } else {
        part += c;
      }
    }
    for (std::string_view choice : config::enumChoices(key)) {
      tokens.insert("\"" + std::string(choice) + "\"");
    }
  }
  for (const auto& entry : fs::directory_iterator(sourceDir / "configs")) {
    if (entry.path().extension() == ".json") {
      write(dir / entry.path().filename(), readFile(entry.path()));
    }
  }
  writeDict(out / "json_config.dict", tokens);
}

// 3. vela.ini files and their dictionary.
void velaIniSeeds(const fs::path& out, const std::optional<fs::path>& fixtures) {
  const fs::path dir = out / "vela_ini";
  fs::create_directories(dir);
  std::string presets;
  std::set<std::string> tokens{"[", "]", "=", ":", "\n", "\n  ", ";", "#", "[DEFAULT]", "inherit", "System_Config.",
                               "Memory_Mode.", "Sram", "Dram", "OnChipFlash", "OffChipFlash", "Axi0", "Axi1"};
  // The sections one NPU sees: every name once, as a valid file must have it.
  for (const config::VelaIni::Section& section : config::builtinPresets().sections()) {
    presets += "[" + section.name + "]\n";
    tokens.insert(section.name);
    for (const auto& entry : section.entries) {
      presets += entry.key + "=" + entry.value + "\n";
    }
    presets += "\n";
  }
  write(dir / "builtin_presets.ini", presets);
  write(dir / "inherit.ini",
        "; a child section inheriting from a parent\n"
        "[System_Config.Parent]\ncore_clock=400e6\naxi0_port=Sram\naxi1_port=OffChipFlash\n"
        "Sram_clock_scale=1.0\nSram_burst_length=32\nSram_read_latency=32\nSram_write_latency=32\n"
        "OffChipFlash_clock_scale=0.25\nOffChipFlash_burst_length=128\n"
        "OffChipFlash_read_latency=64\nOffChipFlash_write_latency=64\n\n"
        "[System_Config.Child]\ninherit=System_Config.Parent\ncore_clock: 250e6\n\n"
        "[Memory_Mode.Mode]\nconst_mem_area=Axi1\narena_mem_area=Axi0\ncache_mem_area=Axi0\n"
        "arena_cache_size=\n    2097152\n");
  if (fixtures && fs::is_regular_file(*fixtures / "vela" / "vela.ini")) {
    write(dir / "fixtures_vela.ini", readFile(*fixtures / "vela" / "vela.ini"));
  }
  for (const config::ConfigKey& key : config::schema()) {
    if (!key.velaKey.empty()) {
      tokens.insert(std::string(key.velaKey));
    }
  }
  writeDict(out / "vela_ini.dict", tokens);
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: npusim_make_seeds OUT_DIR [FIXTURES_DIR]\n";
    return 2;
  }
  try {
    const fs::path out = argv[1];
    const std::optional<fs::path> fixtures = argc == 3 ? std::optional<fs::path>(argv[2]) : std::nullopt;
    modelSeeds(out, fixtures);
    jsonSeeds(out, NPUSIM_SOURCE_DIR);
    velaIniSeeds(out, fixtures);
  } catch (const std::exception& e) {
    std::cerr << "npusim_make_seeds: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
