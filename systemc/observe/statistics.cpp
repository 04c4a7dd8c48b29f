#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace wormsim {

Distribution Distribution::of(std::vector<std::uint32_t> samples, std::size_t bins) {
  Distribution d;
  if (samples.empty()) return d;
  bins = std::max<std::size_t>(bins, 1);
  std::sort(samples.begin(), samples.end());
  d.count = samples.size();
  d.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(d.count);
  d.min = samples.front();
  d.max = samples.back();
  auto quantile = [&](double q) {
    const auto i = static_cast<std::size_t>(std::llround(q * static_cast<double>(d.count - 1)));
    return static_cast<std::uint64_t>(samples[std::min(i, samples.size() - 1)]);
  };
  d.p50 = quantile(0.50);
  d.p95 = quantile(0.95);
  d.p99 = quantile(0.99);
  const std::uint64_t span = d.max - d.min + 1;
  d.bin_width = (span + bins - 1) / bins;
  d.histogram.assign((span + d.bin_width - 1) / d.bin_width, 0);
  for (std::uint32_t s : samples) ++d.histogram[(s - d.min) / d.bin_width];
  return d;
}

}  // namespace wormsim
