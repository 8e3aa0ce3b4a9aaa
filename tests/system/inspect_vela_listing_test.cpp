// SPDX-License-Identifier: Apache-2.0
// `npusim inspect --format vela` against Vela's own register listings: every fixture folder
// through the library, and a few folders through the npusim binary.

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "harness/report/inspect_report.h"
#include "sim/platform/compile_target.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace npusim {
namespace {

using Listing = std::vector<std::string>;

std::vector<std::string> flatten(const std::vector<Listing>& listings) {
  std::vector<std::string> lines;
  for (const Listing& l : listings) {
    lines.insert(lines.end(), l.begin(), l.end());
  }
  return lines;
}

// Checks that `output` consists of exactly the listings in `expected`, line for line.
void checkSameListings(const std::vector<Listing>& expected, const std::string& output) {
  const std::vector<Listing> actual = test::velaListings(output);
  CHECK(actual.size() == expected.size());
  const std::vector<std::string> want = flatten(expected);
  const std::vector<std::string> got = test::normalizedLines(output);
  if (const auto at = test::firstDifference(want, got)) {
    const std::string wantLine = *at < want.size() ? want[*at] : "<end of listing>";
    const std::string gotLine = *at < got.size() ? got[*at] : "<end of output>";
    FAIL_CHECK("first difference at listing line " << *at << ":\n  vela:   " << wantLine << "\n  npusim: " << gotLine);
  }
}

// The listing of the Vela that compiled the folder's model (as `inspect --format vela` picks it).
std::string libraryListing(const test::VelaFolder& folder, size_t* npuOperators) {
  const io::CompiledNetwork net = test::loadModel(folder);
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  *npuOperators = net.npuOperatorCount();
  std::ostringstream os;
  report::writeInspect(os, net, decoded, report::InspectFormat::Vela, false, platform::compiledBy(net));
  return os.str();
}

// Checks Vela 5.0's listings of one folder against npusim's, line for line as written.
size_t checkVela5Listings(const std::string& velaText, const std::string& output) {
  const std::vector<Listing> expected = test::vela5Listings(velaText);
  const std::vector<Listing> actual = test::vela5Listings(output);
  CHECK(actual.size() == expected.size());
  const std::vector<std::string> want = flatten(expected);
  const std::vector<std::string> got = flatten(actual);
  if (const auto at = test::firstDifference(want, got)) {
    const std::string wantLine = *at < want.size() ? want[*at] : "<end of listing>";
    const std::string gotLine = *at < got.size() ? got[*at] : "<end of output>";
    FAIL_CHECK("first difference at listing line " << *at << ":\n  vela:   " << wantLine << "\n  npusim: " << gotLine);
  }
  return want.size();
}

void checkTree(const std::string& tree) {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const std::vector<test::VelaFolder> folders = test::velaFoldersOrSkip(*root, tree);
  size_t listings = 0;
  for (const test::VelaFolder& folder : folders) {
    INFO("fixture folder ", folder.name());
    const std::vector<Listing> expected = test::velaListings(test::readText(folder.listing));
    REQUIRE_FALSE(expected.empty());
    size_t npuOperators = 0;
    const std::string output = libraryListing(folder, &npuOperators);
    CHECK(expected.size() == npuOperators); // one listing per ethos-u operator
    checkSameListings(expected, output);
    listings += expected.size();
  }
  MESSAGE("compared " << listings << " listings in " << folders.size() << " " << tree << " fixture folders");
}

} // namespace

TEST_CASE("vela listing: every fixture folder matches Vela's register-level command stream") { checkTree("vela"); }

TEST_CASE("vela listing: every Ethos-U65 fixture folder matches Vela's listing (product 1, parallel mode)") {
  checkTree("vela-u65");
}

TEST_CASE("vela listing: every Vela 5.0 fixture folder matches its --verbose-register-command-stream listing") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const std::vector<test::VelaFolder> folders = test::velaFoldersOrSkip(*root, "vela5");
  size_t listings = 0, lines = 0;
  for (const test::VelaFolder& folder : folders) {
    INFO("fixture folder ", folder.name());
    const std::string velaText = test::readText(folder.listing);
    size_t npuOperators = 0;
    const std::string output = libraryListing(folder, &npuOperators);
    CHECK(test::vela5Listings(velaText).size() == npuOperators);
    lines += checkVela5Listings(velaText, output);
    listings += npuOperators;
  }
  MESSAGE("compared " << listings << " Vela 5.0 listings (" << lines << " lines, annotation lines left out) in "
                      << folders.size() << " vela5 fixture folders");
}

TEST_CASE("vela listing: the npusim binary prints the listing of the Vela that compiled the model, or the one asked for") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const std::filesystem::path dir = *root / "vela5" / "kws_ref_model" / "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";
  if (!std::filesystem::is_directory(dir)) {
    test::skip("no " + dir.string());
    return;
  }
  const std::string model = (dir / "kws_ref_model_vela.tflite").string();
  const test::ProcessResult run = test::runNpusim({"inspect", "--format", "vela", model});
  CHECK(run.exitCode == 0);
  checkVela5Listings(test::readText(dir / "register_command_stream.txt"), run.out);
  const test::ProcessResult asked = test::runNpusim({"inspect", "--format", "vela", "--vela", "3.10", model});
  CHECK(asked.exitCode == 0);
  CHECK(test::velaListings(asked.out).size() == 1);
  CHECK(test::vela5Listings(asked.out).empty());
}

TEST_CASE("vela listing: the npusim binary prints the same listing") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  // One single-stream model and one with six ethos-u operators between CPU operators.
  const test::VelaFolder folders[] = {
      test::velaFolder(*root, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram"),
      test::velaFolder(*root, "keyword_scrambled_8bit", "ethos-u55-64_Ethos_U55_Deep_Embedded_Sram_Only"),
  };
  for (const test::VelaFolder& folder : folders) {
    INFO("fixture folder ", folder.name());
    const test::ProcessResult run = test::runNpusim({"inspect", "--format", "vela", folder.tflite.string()});
    CHECK(run.exitCode == 0);
    CHECK(run.err.empty());
    const std::vector<Listing> expected = test::velaListings(test::readText(folder.listing));
    CHECK(expected.size() == (folder.model == "kws_ref_model" ? 1u : 6u));
    checkSameListings(expected, run.out);
  }
}

TEST_CASE("vela listing: the comparison notices a changed line") {
  const std::vector<Listing> expected{{"Register-Level Command Stream: Output", "0x000000: ffff 0000 - cmd0.NPU_OP_STOP 65535",
                                       "Number of commands = 1", "Command stream length = 4 bytes"}};
  const std::string same = "Register-Level Command Stream: Output\n0x000000:   ffff 0000 - cmd0.NPU_OP_STOP    65535\n"
                           "Number of commands = 1\nCommand stream length = 4 bytes\n";
  CHECK(test::velaListings(same) == expected);
  CHECK_FALSE(test::firstDifference(flatten(expected), test::normalizedLines(same)).has_value());
  const std::string changed = "Register-Level Command Stream: Output\n0x000000: ffff 0000 - cmd0.NPU_OP_STOP 65534\n"
                              "Number of commands = 1\nCommand stream length = 4 bytes\nextra\n";
  CHECK(test::firstDifference(flatten(expected), test::normalizedLines(changed)) == std::optional<size_t>(1));
  CHECK(test::firstDifference(flatten(expected), test::normalizedLines(same + "extra\n")) == std::optional<size_t>(4));
}

} // namespace npusim
