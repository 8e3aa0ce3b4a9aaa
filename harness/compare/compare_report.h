// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writers for `npusim compare`: one model per layer, or a model x config table (--tree).

#include <ostream>
#include <string>
#include <vector>

#include "harness/compare/comparison.h"

namespace npusim::compare {

enum class CompareFormat { Text, Csv, Json, Md };

void writeModelComparison(std::ostream& os, const ModelComparison& c, CompareFormat format);
void writeTreeComparison(std::ostream& os, const std::vector<ModelComparison>& models, CompareFormat format);
// Every layer of every model, one CSV row each (input of scripts/plot_compare.py).
void writeLayerCsv(std::ostream& os, const std::vector<ModelComparison>& models);

// A compiled model inside a tree laid out like fixtures/vela: <dir>/<model>/<folder>/*_vela.tflite,
// with the system config and memory mode of its compile (config::compileSections: Vela's summary
// CSV beside it, else the folder name).
struct TreeModel {
  std::string model, folder, path, systemConfig, memoryMode;
};
struct TreeListing {
  std::vector<TreeModel> models;
  std::vector<std::string> skipped;  // "<folder>: reason" for model folders that cannot be compared
};
// Folders whose compile names no known system config and memory mode are listed as skipped.
// Throws InputError when `dir` is not a directory.
TreeListing findTreeModels(const std::string& dir);

} // namespace npusim::compare
