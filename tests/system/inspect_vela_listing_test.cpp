// SPDX-License-Identifier: Apache-2.0
// `npusim inspect --format vela` against Vela's own register listings: every fixture folder
// through the library, and a few folders through the npusim binary.

#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

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

// Vela 5.0's `//` annotation lines of each listing in `text`, each with the index of the command
// line it precedes.
using Annotations = std::vector<std::pair<size_t, std::string>>;
std::vector<Annotations> vela5AnnotationLines(const std::string& text) {
  std::vector<Annotations> out;
  std::istringstream in(text);
  size_t command = 0;
  std::optional<std::string> pending;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Register command stream:", 0) == 0) {
      out.emplace_back();
      command = 0;
    } else if (!out.empty() && line.rfind("//", 0) == 0) {
      pending = line;
    } else if (!out.empty() && line.rfind("0x", 0) == 0) {
      if (pending) out.back().emplace_back(command, *pending);
      pending.reset();
      ++command;
    }
  }
  return out;
}

// The fields of an annotation line that the stream determines, by name: a kernel operation's
// size, stride, dilation, padding (t,l,b,r), OFM block (H,W,C), OFM micro-block, traversal and
// accumulator type (Vela's "SHRAM_" prefix of SHRAM accumulators dropped); a DMA's source and
// destination use (what Vela keeps in the region; Vela's memory names depend on the memory mode,
// which the model does not record), addresses, sizes and length.
std::map<std::string, std::string> annotationFields(const std::string& line) {
  std::map<std::string, std::string> f;
  const auto between = [&line](size_t from, std::string_view end) {
    const size_t stop = line.find(end, from);
    return line.substr(from, stop == std::string::npos ? std::string::npos : stop - from);
  };
  if (line.rfind("// DMA src: ", 0) == 0) {
    size_t at = 0;
    for (const char* key : {"src: ", "address: ", "dest: ", "address: ", "sizes: ", "length: "}) {
      at = line.find(key, at) + std::string_view(key).size();
      std::string value = std::string_view(key) == "sizes: " ? between(at, "), ") + ")" : between(at, ", ");
      if (std::string_view(key) == "src: " || std::string_view(key) == "dest: ") value = value.substr(value.find(':') + 1);
      f[std::string(key) + (f.count(std::string(key) + "1") ? "2" : "1")] = value;
    }
    return f;
  }
  for (const char* key : {"size=", "stride=", "dilation=", "Traversal=", "AccType="}) {
    const size_t at = line.find(key);
    if (at == std::string::npos) continue;
    std::string value = between(at + std::string_view(key).size(), " ");
    while (!value.empty() && value.back() == ',') value.pop_back();
    if (value.rfind("SHRAM_", 0) == 0) value = value.substr(6);
    f[key] = value;
  }
  for (const char* key : {"padding=[", "OFM Block=[", "OFM UBlock=["}) {
    const size_t at = line.find(key);
    if (at != std::string::npos) f[key] = between(at + std::string_view(key).size(), "]");
  }
  return f;
}

std::vector<long> numbers(const std::string& text) {
  std::vector<long> out;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      size_t used = 0;
      out.push_back(std::stol(text.substr(i), &used));
      i += used;
    } else {
      ++i;
    }
  }
  return out;
}

struct AnnotationCounts {
  size_t lines = 0, fields = 0;
};

// Checks npusim's annotation lines against Vela's: one before the same command, and every field
// the stream determines equal, with two differences that are Vela's: its padding is the
// operator's, while a stripe's registers hold only its own edges (0 inside the operator); and
// its OFM block is its plan, while the OFM_BLK registers hold that block modulo their field width
// (a 256-wide elementwise block is written as 128 into the U85's 7-bit OFM_BLK_WIDTH_M1).
void checkVela5Annotations(const std::string& velaText, const std::string& output, const arch::CommandSet& set,
                           AnnotationCounts& counts) {
  const std::vector<Annotations> vela = vela5AnnotationLines(velaText), ours = vela5AnnotationLines(output);
  REQUIRE(vela.size() == ours.size());
  const auto fieldWidth = [&set](arch::CommandId id) { return set.info(id).fields->front().width; };
  const long blockLimit[] = {1L << fieldWidth(arch::CommandId::OfmBlkHeightM1),
                             1L << fieldWidth(arch::CommandId::OfmBlkWidthM1),
                             1L << fieldWidth(arch::CommandId::OfmBlkDepthM1)};
  for (size_t s = 0; s < vela.size(); ++s) {
    REQUIRE(vela[s].size() == ours[s].size());
    for (size_t i = 0; i < vela[s].size(); ++i) {
      INFO("vela:   " << vela[s][i].second);
      INFO("npusim: " << ours[s][i].second);
      REQUIRE(vela[s][i].first == ours[s][i].first);   // before the same command
      const auto want = annotationFields(vela[s][i].second), got = annotationFields(ours[s][i].second);
      for (const auto& [key, value] : want) {
        const auto it = got.find(key);
        if (it == got.end()) continue;   // not in the stream (a chained member's kernel, ...)
        INFO("field " << key);
        if (key == "padding=[") {
          const std::vector<long> v = numbers(value), n = numbers(it->second);
          for (size_t k = 0; k < 4; ++k) CHECK((n.at(k) == v.at(k) || n.at(k) == 0));
        } else if (key == "OFM Block=[") {
          const std::vector<long> v = numbers(value), n = numbers(it->second);
          REQUIRE(v.size() >= 3);
          for (size_t k = 0; k < 3; ++k) CHECK(n.at(k) - 1 == (v[v.size() - 3 + k] - 1) % blockLimit[k]);
        } else {
          CHECK(it->second == value);
        }
        ++counts.fields;
      }
      ++counts.lines;
    }
  }
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

// Every folder of a Vela 5.0 tree: command lines as written, annotation lines where the stream
// determines them; `alsoCheck` sees each folder's model.
void checkVela5Tree(const std::string& tree,
                    const std::function<void(const test::VelaFolder&, const io::CompiledNetwork&)>& alsoCheck = {}) {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const std::vector<test::VelaFolder> folders = test::velaFoldersOrSkip(*root, tree);
  size_t listings = 0, lines = 0;
  AnnotationCounts annotations;
  for (const test::VelaFolder& folder : folders) {
    INFO("fixture folder ", folder.name());
    const std::string velaText = test::readText(folder.listing);
    const io::CompiledNetwork net = test::loadModel(folder);
    std::ostringstream os;
    report::writeInspect(os, net, io::decodeAll(net), report::InspectFormat::Vela, false, config::VelaVersion::V5_0);
    CHECK(test::vela5Listings(velaText).size() == net.npuOperatorCount());
    lines += checkVela5Listings(velaText, os.str());
    checkVela5Annotations(velaText, os.str(), *net.hardware()->arch->commands, annotations);
    listings += net.npuOperatorCount();
    if (alsoCheck) alsoCheck(folder, net);
  }
  MESSAGE("compared " << listings << " Vela 5.0 listings (" << lines << " command lines; " << annotations.lines
                      << " annotation lines, " << annotations.fields << " fields the stream determines) in "
                      << folders.size() << " " << tree << " fixture folders");
}

TEST_CASE("vela listing: every Vela 5.0 fixture folder matches its --verbose-register-command-stream listing") {
  checkVela5Tree("vela5");
}

TEST_CASE("vela listing: every Ethos-U85 fixture folder matches Vela 5.0's listing (the U85's register interface)") {
  // The loader on each: the configuration the folder was compiled for (its name's accelerator),
  // Vela 5.0's tensor names by position, and input 3 repeating input 2 exactly when the memory
  // mode has no separate staging area (ethos-u85.md 2.1: Shared_Sram, Sram_Only).
  checkVela5Tree("vela-u85", [](const test::VelaFolder& folder, const io::CompiledNetwork& net) {
    REQUIRE(net.hardware() != nullptr);
    CHECK(folder.config.rfind(std::string(net.hardware()->name) + "_", 0) == 0);
    for (const io::Operator& op : net.operators) {
      if (op.kind != io::OperatorKind::Npu) continue;
      const io::NpuOp& npu = op.npu;
      const auto name = [&net](int tensor) { return net.tensors.at(static_cast<size_t>(tensor)).name; };
      CHECK(name(npu.commandStreamTensorIndex) == "ethos_u_command_stream");
      CHECK(name(npu.flashTensorIndex) == "read_only");
      CHECK(name(npu.scratchTensorIndex) == "scratch");
      const bool stagingInArena = folder.config.find("Dedicated_Sram") == std::string::npos;
      CHECK((npu.scratchFastTensorIndex == npu.scratchTensorIndex) == stagingInArena);
      if (!stagingInArena) CHECK(name(npu.scratchFastTensorIndex) == "scratch_fast");
      CHECK(npu.header.archMajor == 2);
      CHECK(npu.header.sramPorts == net.hardware()->sramPorts);
    }
  });
}

TEST_CASE("vela listing: the annotation comparison notices a changed field and a moved line") {
  const std::string vela = "Register command stream: 3 words\n// DMA src: Sram:Staging, address: 0x10, dest: "
                           "lutram:LUT, address: 0x0, sizes: (N/A), length: 256\n0x000000: ...\n// Conv2D , subOps:[  - ], "
                           "size=3,3 stride=1,1, dilation=1,1 padding=[t:1,l:1,b:1,r:1,n:0,f:0] OFM Block=[1, 2, 256, 16], "
                           "IFM Block=[1, 4, 4, 16], OFM UBlock=[1, 2, 16] Traversal=Depthwise, AccType=Acc32\n0x000004: ...\n";
  const auto fields = annotationFields(vela5AnnotationLines(vela).at(0).at(1).second);
  CHECK(fields.at("size=") == "3,3");
  CHECK(fields.at("stride=") == "1,1");
  CHECK(fields.at("OFM Block=[") == "1, 2, 256, 16");
  CHECK(fields.at("Traversal=") == "Depthwise");
  const auto dma = annotationFields(vela5AnnotationLines(vela).at(0).at(0).second);
  CHECK(dma.at("src: 1") == "Staging");
  CHECK(dma.at("dest: 1") == "LUT");
  CHECK(dma.at("address: 2") == "0x0");
  CHECK(dma.at("length: 1") == "256");
  CHECK(vela5AnnotationLines(vela).at(0).at(1).first == 1);
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
