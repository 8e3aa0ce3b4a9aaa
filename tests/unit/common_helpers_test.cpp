// SPDX-License-Identifier: Apache-2.0
// The generic helpers of sim/common: edit distance and "did you mean", JSON input with key paths.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/common/edit_distance.h"
#include "sim/common/error.h"
#include "sim/common/json_node.h"
#include "support/fixtures.h"

using namespace npusim;

TEST_CASE("editDistance: textbook Levenshtein distances") {
  // kitten -> sitten -> sittin -> sitting: two substitutions and one insertion.
  CHECK(editDistance("kitten", "sitting") == 3);
  // flaw -> law (delete f) -> lawn (insert n).
  CHECK(editDistance("flaw", "lawn") == 2);
  CHECK(editDistance("", "abc") == 3);
  CHECK(editDistance("abc", "") == 3);
  CHECK(editDistance("same", "same") == 0);
  // Case matters to the distance itself.
  CHECK(editDistance("Sram", "sram") == 1);
}

TEST_CASE("nearestName: case-insensitive, first of equally near names, bounded by maxDistance") {
  const std::vector<std::string_view> keys{"read_latency", "write_latency", "burst_length"};
  CHECK(nearestName("READ_LATENCY", keys) == "read_latency");
  CHECK(nearestName("wrte_latency", keys) == "write_latency");
  // "ab" is one substitution from both; the first listed wins.
  CHECK(nearestName("ab", {"aa", "bb"}) == "aa");
  // "xyz" is 3 edits from "abc": nothing within 2.
  CHECK(nearestName("xyz", {"abc"}, 2).empty());
  CHECK(nearestName("xyz", {"abc"}, 3) == "abc");
  CHECK(nearestName("anything", {}).empty());
}

TEST_CASE("parseJsonText: malformed JSON names the file and the 0-based offset of the bad byte") {
  // The '}' at offset 6 is where a value was expected.
  const InputError e = test::errorOf([] { parseJsonText("{\"a\": }", "spec.json"); });
  CHECK(e.where().file == "spec.json");
  REQUIRE(e.where().byteOffset.has_value());
  CHECK(*e.where().byteOffset == 6);
  CHECK(parseJsonText("{\"a\": 1}", "spec.json")["a"] == 1);
}

TEST_CASE("JsonNode: errors name the key path from the root") {
  const auto json = parseJsonText(R"({"models": [{"path": 1}], "grid": {"system.sram.read_latency": [1, "x"]}})", "s.json");
  const JsonNode root(json, "s.json");
  const InputError path = test::errorOf([&] { root.member("models").elements()[0].member("path").string(); });
  CHECK(path.where().file == "s.json");
  CHECK(path.where().key == "models[0].path");
  CHECK(path.message().find("expected a string") != std::string::npos);

  const JsonNode latency = root.member("grid").member("system.sram.read_latency");
  CHECK(latency.elements(true)[0].integer() == 1);
  const InputError quoted = test::errorOf([&] { latency.elements()[1].integer(); });
  CHECK(quoted.where().key == "grid[\"system.sram.read_latency\"][1]");

  const InputError missing = test::errorOf([&] { root.member("points"); });
  CHECK(missing.where().key == "points");
  CHECK(missing.message() == "missing");

  CHECK(root.has("models"));
  CHECK_FALSE(root.has("points"));
  CHECK_FALSE(root.member("models").has("path"));   // an array has no members
}

TEST_CASE("JsonNode: allowOnly suggests the nearest allowed key") {
  const auto json = parseJsonText(R"({"modles": []})", "s.json");
  const InputError e = test::errorOf([&] { JsonNode(json, "s.json").allowOnly({"models", "grid", "points"}); });
  CHECK(e.where().key == "modles");
  CHECK(e.message().find("did you mean 'models'?") != std::string::npos);
  CHECK(e.message().find("allowed here: models, grid, points") != std::string::npos);
  JsonNode(json, "s.json").allowOnly({"modles"});   // nothing to refuse
}
