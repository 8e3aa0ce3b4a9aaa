// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-record measurements of a model instrumented with an NPU_OP_IRQ after every launch
// (`probe write --irq`), compared with npusim's launch manifest (launches.h). A driver that
// reads and resets the PMU at each interrupt writes one record per interrupt it services: the
// cycles (CCNT) and beats since the previous one, and the IRQ history mask, whose bits
// (irqMaskOf) say which launches finished since then — several when interrupts came close
// together. A final tail record (the end-of-inference PMU read) covers the rest. Plain C++.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/probe/launches.h"

namespace npusim::probe {

struct Record {
  size_t line = 0;             // its line in the file
  bool tail = false;           // is_tail: the stretch after the last interrupt to the end
  uint16_t irqMask = 0;        // irq_mask (not read for the tail)
  uint64_t cycles = 0;         // ccnt
  std::optional<uint64_t> active; // npu_active, where the file has the column
  std::vector<uint64_t> beats; // per RecordFile::beatColumns
};

struct RecordFile {
  std::string path;
  std::vector<std::string> beatColumns; // the beat columns asked for that the file has
  std::vector<std::string> otherBeats;  // columns named *_beats that were not asked for
  std::vector<Record> records;          // the selected rows, in file order
};

// Rows to keep: each `column` equals `value` (the data set's segments.csv holds many cells:
// model=kws_micronet_m, config=256_Low).
using RecordFilter = std::vector<std::pair<std::string, std::string>>;

// Reads per-record measurements: a CSV file whose header names the columns ccnt, irq_mask and
// is_tail (0 or 1), and optionally rec (the records' numbers, which must then count up from 0:
// a file of several runs or cells needs `where`), npu_active and any of `beatColumns`; other columns are
// ignored. Throws InputError naming the file, the column and the line for a missing column, a
// value that is not a count, mask or 0/1, a filter column the file lacks, no row selected, or a
// record after the tail.
RecordFile readRecords(const std::string& path, const std::vector<std::string>& beatColumns, const RecordFilter& where);

// Measured against simulated, per record, at record boundaries and per layer type.
struct RecordComparison {
  struct Row {
    size_t line = 0;                  // the record's line in its file
    bool tail = false;
    size_t firstLaunch = 0, launches = 0; // the launches it covers: [firstLaunch, firstLaunch + launches)
    std::string type;                 // the type of its kernel launches: one type, "mixed", or "other" (none)
    uint64_t measuredCycles = 0, simulatedCycles = 0;   // the record alone
    uint64_t measuredRunning = 0, simulatedRunning = 0; // from the start to the record's end (boundary)
    std::vector<uint64_t> measuredBeats, simulatedBeats; // per beatColumns
  };
  // Cycles of the records whose kernel launches are all of one type, per type; then "mixed" (of
  // several types) and "other" (no kernel launch) when there are such records.
  struct TypeSum {
    std::string type;
    size_t records = 0, launches = 0;
    uint64_t measured = 0, simulated = 0;
  };
  std::vector<std::string> beatColumns; // compared: in the manifest and the records file
  std::vector<Row> rows;
  std::vector<TypeSum> types;
  size_t launches = 0;                  // the manifest's launches
  size_t covered = 0;                   // of them, covered by the records (all, when they end with a tail)
  uint64_t quantum = 0;                 // the measuring platform's interrupt quantum (0: none)
  // Records whose simulated running sum is within `fraction` of the measured one, or within
  // `cycles` cycles when that is more.
  size_t withinRunning(double fraction, uint64_t cycles) const;
};

// Maps each record to the launches it covers by the IRQ history masks: the first record starts
// at launch 0, each non-tail record covers the launches of its mask's bits, which must be the
// next ones (bits irqMaskOf(n), irqMaskOf(n + 1), ... of the next launch n, wrapping at 16), and
// the tail covers the rest. The simulated boundary of a record is the manifest's simulatedEnd of
// its last launch (the tail's: the END row's), its simulated beats those of its launches' rows
// (the tail's with the END row's). With a `quantum` (cycles; 0: none), the measuring platform
// sees an interrupt only at whole quanta after the previous record's read and reads the record
// its ccnt modulo the quantum after that edge (the FVP's scheduling quantum; its reads come 15
// cycles after the edge): a record's simulated boundary is then the previous boundary plus that
// read offset plus the fewest whole quanta that reach its last launch's end (the tail's: the END
// row's, or the previous boundary if that is later). The tail's measured cycles are its npu_active where the file gives
// it (the NPU's busy cycles: its ccnt also counts the idle ones until the end-of-inference read).
// Throws InputError naming the records file, `irq_mask` and the
// line for a mask of no launch, or not of the next launches, or past the model's last launch
// (more records than launches).
RecordComparison compareRecords(const LaunchManifest& manifest, const RecordFile& records, uint64_t quantum = 0);

} // namespace npusim::probe
