#include "statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace wormsim {

// Exact order statistics without sorting (sorting the samples, several times per run, took
// 1.3 % of the instructions of a 20,000-cycle BookSim2-matched 8x8 run). Samples are cycle or
// hop counts, whose span is rarely much larger than their number, so they are counted by value:
// one pass to count and one over the span. A sample set spread wider (a span over 4x the count
// plus 4096) selects the three quantiles with std::nth_element instead. Either way the quantile
// of q is the sorted samples' element llround(q * (count - 1)).
Distribution Distribution::of(std::vector<std::uint32_t> samples, std::size_t bins) {
  Distribution d;
  if (samples.empty()) return d;
  bins = std::max<std::size_t>(bins, 1);
  d.count = samples.size();
  d.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(d.count);
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  d.min = *lo;
  d.max = *hi;
  const std::uint64_t span = d.max - d.min + 1;
  d.bin_width = (span + bins - 1) / bins;
  d.histogram.assign((span + d.bin_width - 1) / d.bin_width, 0);
  auto rank = [&](double q) {
    const auto i = static_cast<std::size_t>(std::llround(q * static_cast<double>(d.count - 1)));
    return std::min(i, samples.size() - 1);
  };
  const std::array<std::size_t, 3> ranks{rank(0.50), rank(0.95), rank(0.99)};
  std::array<std::uint64_t, 3> values{};
  if (span <= 4 * static_cast<std::uint64_t>(d.count) + 4096) {
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(span), 0);
    for (std::uint32_t s : samples) ++counts[s - d.min];
    std::size_t below = 0;  // samples at or below the value d.min + v
    std::size_t next = 0;   // the next rank to find (ranks ascend)
    for (std::size_t v = 0; v < counts.size(); ++v) {
      below += counts[v];
      while (next < ranks.size() && ranks[next] < below) values[next++] = d.min + v;
      d.histogram[v / d.bin_width] += counts[v];
    }
  } else {
    auto from = samples.begin();
    for (std::size_t k = 0; k < ranks.size(); ++k) {  // ranks ascend: each selection narrows
      const auto nth = samples.begin() + static_cast<std::ptrdiff_t>(ranks[k]);
      std::nth_element(from, nth, samples.end());
      values[k] = *nth;
      from = nth;
    }
    for (std::uint32_t s : samples) ++d.histogram[(s - d.min) / d.bin_width];
  }
  d.p50 = values[0];
  d.p95 = values[1];
  d.p99 = values[2];
  return d;
}

}  // namespace wormsim
