// SPDX-License-Identifier: Apache-2.0
// Config safety: what a compiled model says about its compile target, and the warning (or, with
// --strict, the error) when the simulated memory mode contradicts it.

#include <doctest/doctest.h>

#include <algorithm>
#include <regex>

#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

constexpr const char* kSharedSram = "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";
constexpr const char* kSramOnly = "ethos-u55-128_Ethos_U55_High_End_Embedded_Sram_Only";

// Vela's own listing: does any kernel read its weights from a region other than 0?
bool listingReadsWeightsFromArena(const test::VelaFolder& folder) {
  const std::regex weightRegion(R"(NPU_SET_WEIGHT_REGION\s+([0-9]+))");
  const std::string text = test::readText(folder.listing);
  for (std::sregex_iterator it(text.begin(), text.end(), weightRegion), end; it != end; ++it) {
    if ((*it)[1] != "0") return true;
  }
  return false;
}

} // namespace

TEST_CASE("config safety: the compile target agrees with the folder name and Vela's listing") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  for (const char* config : {kSharedSram, kSramOnly}) {
    const test::VelaFolder folder = test::velaFolder(*fixtures, "kws_ref_model", config);
    const io::CompiledNetwork net = test::loadModel(folder);
    const platform::CompileTarget t = platform::compileTarget(net, io::decodeAll(net));
    INFO(config);
    CHECK(t.hardware->macs == 128);
    CHECK(t.weightsBufferedInArena == listingReadsWeightsFromArena(folder));
    CHECK(t.scratchBytes > 0);
    // `inspect` prints it.
    const test::ProcessResult inspect = test::runNpusim({"inspect", folder.tflite.string()});
    CHECK(inspect.out.find("compiled for: ethos-u55-128 (SHRAM ") != std::string::npos);
    CHECK(inspect.out.find(t.weightsBufferedInArena ? "weights buffered into the arena by DMA" : "read in place") !=
          std::string::npos);
  }
  // The Shared_Sram compile buffers weights (flash is slower than SRAM); the Sram_Only one does not.
  CHECK(listingReadsWeightsFromArena(test::velaFolder(*fixtures, "kws_ref_model", kSharedSram)));
  CHECK_FALSE(listingReadsWeightsFromArena(test::velaFolder(*fixtures, "kws_ref_model", kSramOnly)));
}

TEST_CASE("config safety: a Shared_Sram compile run as Sram_Only warns in one line, --strict exits 2") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const std::string shared = test::velaFolder(*fixtures, "kws_ref_model", kSharedSram).tflite.string();
  const std::string sramOnly = test::velaFolder(*fixtures, "kws_ref_model", kSramOnly).tflite.string();

  const test::ProcessResult warned = test::runNpusim({"run", shared, "--memory-mode", "Sram_Only"});
  INFO(warned.err);
  CHECK(warned.exitCode == 0);
  const auto lines = test::normalizedLines(warned.err);
  const auto warning = std::find_if(lines.begin(), lines.end(),
                                    [](const std::string& l) { return l.rfind("npusim: warning: ", 0) == 0; });
  REQUIRE(warning != lines.end());
  CHECK(warning->find(shared + ": the model was compiled for constants in a memory slower than the arena") !=
        std::string::npos);
  CHECK(warning->find("memory mode Sram_Only puts the constants in Sram on Axi0") != std::string::npos);
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& l) { return l.rfind("npusim: warning: ", 0) == 0; }) == 1);

  const test::ProcessResult strict = test::runNpusim({"run", shared, "--memory-mode", "Sram_Only", "--strict"});
  CHECK(strict.exitCode == 2);
  CHECK(strict.err.find("npusim: error: " + shared + ": the model was compiled for constants") != std::string::npos);
  CHECK(strict.err.find("(--strict)") != std::string::npos);
  CHECK(strict.out.empty());

  // Each compile on the memory mode it was compiled for: no warning, --strict runs.
  for (const auto& [model, mode] : {std::pair{shared, "Shared_Sram"}, std::pair{sramOnly, "Sram_Only"}}) {
    const test::ProcessResult ok = test::runNpusim({"run", model, "--memory-mode", mode, "--strict"});
    INFO(mode, ok.err);
    CHECK(ok.exitCode == 0);
    CHECK(ok.err.find("warning") == std::string::npos);
  }
}

} // namespace npusim
