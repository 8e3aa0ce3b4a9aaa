// SPDX-License-Identifier: Apache-2.0
// Truncated and bit-flipped models never crash or hang the loader, the decoder or the inspect
// writers: they either work or throw InputError (exit code 2 with one line from npusim).

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <typeinfo>

#include "harness/report/inspect_report.h"
#include "sim/common/error.h"
#include "sim/io/demo_network.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

constexpr uint32_t kSeed = 12345;
constexpr int kMutantsPerModel = 64;
constexpr int kBinaryMutants = 20;

struct Original {
  std::string name;
  std::vector<uint8_t> bytes;
  std::vector<io::FileRange> commandStreams; // the COP1 payloads
  std::vector<io::FileRange> structure;      // bytes outside every constant buffer
};

Original makeOriginal(std::string name, std::vector<uint8_t> bytes) {
  Original o{std::move(name), std::move(bytes), {}, {}};
  const io::CompiledNetwork net = io::loadNetworkFromBytes(o.bytes, o.name);
  std::vector<bool> isData(o.bytes.size(), false);
  for (const io::TensorInfo& t : net.tensors) {
    if (t.data) {
      std::fill_n(isData.begin() + static_cast<std::ptrdiff_t>(t.data->offset), t.data->size, true);
    }
  }
  for (const io::Operator& op : net.operators) {
    if (op.kind == io::OperatorKind::Npu) {
      o.commandStreams.push_back(op.npu.commandStreamTensor);
    }
  }
  for (uint64_t i = 0; i < isData.size(); ++i) {
    if (isData[i]) {
      continue;
    }
    if (o.structure.empty() || o.structure.back().offset + o.structure.back().size != i) {
      o.structure.push_back({i, 0});
    }
    ++o.structure.back().size;
  }
  return o;
}

// The demo network, plus a few fixture models when the fixtures are present.
std::vector<Original> originals() {
  std::vector<Original> all;
  all.push_back(makeOriginal("demo.tflite", io::buildDemoNetworkTflite()));
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return all;
  }
  for (const char* model : {"hello_world_int8", "kws_ref_model", "keyword_scrambled_8bit", "micro_speech_quantized"}) {
    const test::VelaFolder f = test::velaFolder(*root, model, "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram");
    all.push_back(makeOriginal(f.tflite.filename().string(), test::readBytes(f.tflite)));
  }
  return all;
}

// A random position inside one of `ranges` (weighted by size).
uint64_t pickIn(const std::vector<io::FileRange>& ranges, std::mt19937& rng) {
  uint64_t total = 0;
  for (const io::FileRange& r : ranges) total += r.size;
  uint64_t k = std::uniform_int_distribution<uint64_t>(0, total - 1)(rng);
  for (const io::FileRange& r : ranges) {
    if (k < r.size) return r.offset + k;
    k -= r.size;
  }
  return 0;
}

// One mutant: a truncation, or 1-4 bit flips in the whole file, the command streams or the
// flatbuffer structure.
std::vector<uint8_t> mutate(const Original& o, std::mt19937& rng) {
  std::vector<uint8_t> m = o.bytes;
  const auto kind = std::uniform_int_distribution<int>(0, 3)(rng);
  if (kind == 0) {
    m.resize(std::uniform_int_distribution<size_t>(0, m.size() - 1)(rng));
    return m;
  }
  const int flips = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int i = 0; i < flips; ++i) {
    const uint64_t at = kind == 1 ? std::uniform_int_distribution<uint64_t>(0, m.size() - 1)(rng)
                        : kind == 2 ? pickIn(o.commandStreams, rng)
                                    : pickIn(o.structure, rng);
    m[at] ^= static_cast<uint8_t>(1u << std::uniform_int_distribution<int>(0, 7)(rng));
  }
  return m;
}

// Loads, decodes and writes every inspect format; InputError propagates.
void inspectAllFormats(const std::vector<uint8_t>& bytes, const std::string& name) {
  const io::CompiledNetwork net = io::loadNetworkFromBytes(bytes, name);
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  for (auto format : {report::InspectFormat::Text, report::InspectFormat::Vela, report::InspectFormat::Json}) {
    std::ostringstream os;
    report::writeInspect(os, net, decoded, format);
  }
}

} // namespace

TEST_CASE("robustness: mutated models load, decode and print, or throw InputError") {
  std::mt19937 rng(kSeed);
  for (const Original& o : originals()) {
    INFO("model ", o.name);
    REQUIRE_NOTHROW(inspectAllFormats(o.bytes, o.name));
    int accepted = 0, rejected = 0;
    for (int i = 0; i < kMutantsPerModel; ++i) {
      const std::vector<uint8_t> mutant = mutate(o, rng);
      try {
        inspectAllFormats(mutant, o.name);
        ++accepted;
      } catch (const InputError& e) {
        ++rejected;
        CHECK(std::string(e.what()).rfind(o.name + ": ", 0) == 0);
      } catch (const std::exception& e) {
        FAIL_CHECK("mutant " << i << " threw " << std::string(typeid(e).name()) << " instead of InputError: "
                                << std::string(e.what()));
      }
    }
    MESSAGE(o.name << ": " << accepted << " mutants accepted, " << rejected << " rejected");
    CHECK(rejected > 0);
    CHECK(accepted + rejected == kMutantsPerModel);
  }
}

TEST_CASE("robustness: npusim inspect exits with 0, or 2 and one error line, on mutants") {
  const std::vector<Original> all = originals();
  const test::TempDir dir;
  std::mt19937 rng(kSeed + 1);
  int exit2 = 0;
  for (int i = 0; i < kBinaryMutants; ++i) {
    const Original& o = all[static_cast<size_t>(i) % all.size()];
    const std::filesystem::path path = dir.path() / ("mutant" + std::to_string(i) + "_" + o.name);
    test::writeBytes(path, mutate(o, rng));
    INFO("mutant ", path.string());
    const test::ProcessResult run = test::runNpusim({"inspect", path.string()});
    CHECK((run.exitCode == 0 || run.exitCode == 2));
    if (run.exitCode == 2) {
      ++exit2;
      CHECK(run.err.rfind("npusim: error: " + path.string() + ": ", 0) == 0);
      CHECK(run.err.find('\n') == run.err.size() - 1);
    } else {
      CHECK(run.err.empty());
      CHECK_FALSE(run.out.empty());
    }
  }
  CHECK(exit2 > 0);
}

} // namespace npusim
