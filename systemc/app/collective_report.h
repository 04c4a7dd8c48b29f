// Reports of a collective run: the "collective" section of results.json (docs/results.md),
// the stdout table, the tau-model fit of ping-pong runs (seed 000 section 5.1-5.2) and the
// Chrome trace-event message timeline (opens in Perfetto / chrome://tracing).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collective_harness.h"

namespace wormsim {

// Least-squares fit of one-way latency = T_s + T_n * bytes over ping-pong runs (one point per
// message size, averaged over roots), compared with the machine's alpha + gamma and beta.
struct TauFit {
  int points = 0;
  double ts_us = 0;
  double tn_us_per_byte = 0;
  double tau = 0;                   // T_n / T_s (seed 000 Eq. 5.2)
  double model_ts_us = 0;           // alpha + gamma
  double model_tn_us_per_byte = 0;  // beta = clock period / flit bytes
  double ts_error = 0;              // relative
  double tn_error = 0;
};
std::optional<TauFit> tau_fit(const CollectiveHarness& harness);

// One row of the summary: an algorithm and message size, averaged over the roots.
struct CollectiveSummaryRow {
  CollectiveAlgorithm algorithm;
  std::uint32_t bytes = 0;
  int roots = 0;
  double max_latency_cycles = 0;    // mean over roots of the per-root maximum
  double avg_latency_cycles = 0;    // mean over roots of the per-root average
  double worst_latency_cycles = 0;  // the largest maximum over roots
  int min_steps = 0;
  int max_steps = 0;
  double flit_hops = 0;
  double avg_path_length = 0;
  double contention_stepwise = 0;
  double contention_depth = 0;
  double header_flits = 0;       // mean over roots
  double blocked_cycles = 0;     // mean over roots
  std::size_t max_sends = 0;     // the largest OperationResult::max_sends over roots
  std::size_t max_receives = 0;  // the largest OperationResult::max_receives over roots
};
std::vector<CollectiveSummaryRow> summarise(const CollectiveHarness& harness);

nlohmann::json collective_json(const CollectiveHarness& harness);
std::string collective_summary_text(const CollectiveHarness& harness);
// Chrome trace-event JSON: per node a "cpu" track (send start-up, receive overhead) and a
// "network" track (each message from doorbell to its arrival at the destination NI).
nlohmann::json timeline_json(const CollectiveHarness& harness);

}  // namespace wormsim
