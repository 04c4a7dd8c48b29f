// A measurement prototype for issue 23, not part of wormsim and not built by CMake
// (docs/drafts/issue23-engine.md, docs/performance.md "A data-oriented prototype of the matched
// model"): how fast can a cycle-level model of the BookSim2-matched configuration run when its
// state is laid out for the cycle loop? It models what configs/bench/booksim_matched.yaml asks
// of wormsim: a k x k mesh, XY routing, 5-port one-port routers, V VCs x D flits, the delay
// pipeline (a flit competes for VC and switch allocation DELAY = pipeline_depth - 1 cycles after
// its buffer write), link and credit latency 1, separable input-first VC and switch allocation
// with round-robin pointers, ejection without back-pressure, uniform random destinations,
// Bernoulli arrivals (geometric gaps drawn as wormsim's Terminal::draw_gap draws them), 5-flit
// packets, S warm-up and 3S measured cycles, then the drain of the measured packets.
// Left out: payloads and their checksums, the scoreboard, every statistic but the mean latency
// and hops of measured packets, the deadlock watchdog, observers, threads.
// Layout: one flat block per router (VC rings of 16-byte flit records with their eligibility
// cycle, credits, owners, masks, arbiter pointers); links as one register per input port and
// cycle parity (written for cycle t + 1, read in cycle t + 1, so routers can be evaluated in any
// order); wake flags instead of an event calendar.
//
//   g++ -O3 -std=c++17 -o /tmp/proto docs/drafts/issue23-prototype.cpp
//   /tmp/proto K RATE S        e.g. /tmp/proto 8 0.1 50000
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

namespace {
constexpr int P = 5;  // 0 +x, 1 -x, 2 +y, 3 -y, 4 local
constexpr int V = 2;
constexpr int D = 8;
constexpr std::uint32_t DELAY = 3;
constexpr int LEN = 5;

struct Flit {  // 16 bytes
  std::uint32_t pkt = 0;
  std::uint32_t dst = 0;
  std::uint16_t idx = 0;
  std::uint8_t vc = 0;
  std::uint8_t type = 0;  // bit0 head, bit1 tail
  std::uint32_t hops = 0;
};
struct Entry {
  Flit f;
  std::uint32_t ready;
};
struct Ivc {
  std::uint8_t head = 0, count = 0, state = 0, out_port = 0, out_vc = 0;
};
struct alignas(64) Router {
  std::uint8_t busy[P] = {};    // per input port: VCs with flits
  std::uint8_t active[P] = {};  // per input port: VCs holding an output VC
  std::int8_t owner[P][V];
  std::uint8_t credits[P][V];
  std::uint8_t sa_in_ptr[P] = {}, sa_out_ptr[P] = {};
  std::uint8_t va_in_ptr[P * V] = {}, va_out_ptr[P * V] = {};
  std::uint16_t x = 0, y = 0;
  Ivc ivc[P][V];
  Entry buf[P][V][D];
};
struct Slot {
  Flit f;
  bool valid = false;
};
struct Packet {
  std::uint64_t created;
  bool measured;
};
struct Ni {
  std::mt19937_64 rng;
  std::uint64_t next_arrival = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> queue;  // FIFO of (packet, destination)
  std::size_t qhead = 0;
  bool busy = false;
  std::uint32_t pkt = 0, dst = 0;
  int next = 0, vc = 0, vc_ptr = 0;
  std::uint8_t credits[V];
};
}  // namespace

int main(int argc, char** argv) {
  const int k = argc > 1 ? std::atoi(argv[1]) : 8;
  const double rate = argc > 2 ? std::atof(argv[2]) : 0.1;
  const std::uint64_t warm = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 50000;
  const std::uint64_t measure = 3 * warm;
  const int n = k * k;
  const double p = std::min(1.0, rate / LEN);
  std::vector<Router> routers(static_cast<std::size_t>(n));
  std::vector<Ni> nis(static_cast<std::size_t>(n));
  // Links by parity: in[parity][router * P + input port]; credits back: cred[parity][router * P +
  // output port] = vc + 1 (one per link and cycle). The NI side: eject[parity][node], nicred.
  std::vector<Slot> in[2] = {std::vector<Slot>(n * P), std::vector<Slot>(n * P)};
  std::vector<std::uint8_t> cred[2] = {std::vector<std::uint8_t>(n * P, 0),
                                       std::vector<std::uint8_t>(n * P, 0)};
  std::vector<Slot> eject[2] = {std::vector<Slot>(n), std::vector<Slot>(n)};
  std::vector<std::uint8_t> nicred[2] = {std::vector<std::uint8_t>(n, 0),
                                         std::vector<std::uint8_t>(n, 0)};
  std::vector<std::uint8_t> wake[2] = {std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)};
  std::vector<std::uint8_t> niwake[2] = {std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)};
  std::vector<std::uint16_t> held(n, 0);  // flits buffered per router
  std::vector<int> neighbour(static_cast<std::size_t>(n * P), -1);
  for (int r = 0; r < n; ++r) {
    Router& R = routers[r];
    R.x = static_cast<std::uint16_t>(r % k);
    R.y = static_cast<std::uint16_t>(r / k);
    for (int o = 0; o < P; ++o)
      for (int v = 0; v < V; ++v) {
        R.owner[o][v] = -1;
        R.credits[o][v] = o == 4 ? 255 : D;
      }
    if (R.x + 1 < k) neighbour[r * P + 0] = r + 1;
    if (R.x > 0) neighbour[r * P + 1] = r - 1;
    if (R.y + 1 < k) neighbour[r * P + 2] = r + k;
    if (R.y > 0) neighbour[r * P + 3] = r - k;
    Ni& N = nis[r];
    N.rng.seed(1 * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(r));
    for (int v = 0; v < V; ++v) N.credits[v] = D;
  }
  auto gap = [&](Ni& N) -> std::uint64_t {
    const double u = 1.0 - std::generate_canonical<double, 53>(N.rng);
    return static_cast<std::uint64_t>(std::floor(std::log(u) / std::log1p(-p)));
  };
  for (auto& N : nis) N.next_arrival = gap(N);
  std::vector<Packet> packets;
  packets.reserve(static_cast<std::size_t>(n * (warm + measure) * p * 1.2) + 16);
  std::vector<std::uint32_t> latencies;
  std::uint64_t hops_sum = 0, measured_out = 0, delivered_measured = 0, flits_moved = 0;
  const std::uint64_t gen_until = warm + measure;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t t = 0;
  for (;; ++t) {
    if (t >= gen_until && delivered_measured == measured_out) break;
    const int cur = static_cast<int>(t & 1), nxt = cur ^ 1;
    const bool measuring = t >= warm && t < gen_until;
    for (int r = 0; r < n; ++r) {
      if (!wake[cur][r] && held[r] == 0) continue;
      wake[cur][r] = 0;
      Router& R = routers[r];
      Slot* inr = &in[cur][r * P];
      std::uint8_t* cr = &cred[cur][r * P];
      // Receive flits and credits.
      for (int ip = 0; ip < P; ++ip) {
        if (inr[ip].valid) {
          inr[ip].valid = false;
          const Flit& f = inr[ip].f;
          Ivc& q = R.ivc[ip][f.vc];
          int slot = q.head + q.count;
          if (slot >= D) slot -= D;
          R.buf[ip][f.vc][slot] = {f, static_cast<std::uint32_t>(t) + DELAY};
          ++q.count;
          ++held[r];
          R.busy[ip] |= static_cast<std::uint8_t>(1u << f.vc);
        }
        if (cr[ip] != 0) {
          ++R.credits[ip][cr[ip] - 1];
          cr[ip] = 0;
        }
      }
      // VC allocation for heads at the front, eligible.
      std::uint8_t taken[P] = {};  // output VCs granted this cycle (bit v)
      for (int ip = 0; ip < P; ++ip) {
        for (unsigned m = R.busy[ip] & ~R.active[ip]; m != 0; m &= m - 1) {
          const int v = __builtin_ctz(m);
          Ivc& q = R.ivc[ip][v];
          const Entry& e = R.buf[ip][v][q.head];
          if (e.ready > t) continue;
          const std::uint32_t dx = e.f.dst % k, dy = e.f.dst / k;
          const int op = dx > R.x ? 0 : dx < R.x ? 1 : dy > R.y ? 2 : dy < R.y ? 3 : 4;
          const int iv = ip * V + v;
          int pick = -1;
          for (int j = 0; j < V; ++j) {
            int ov = R.va_in_ptr[iv] + j;
            if (ov >= V) ov -= V;
            if (R.owner[op][ov] < 0 && !((taken[op] >> ov) & 1)) {
              pick = ov;
              break;
            }
          }
          if (pick < 0) continue;
          taken[op] |= static_cast<std::uint8_t>(1u << pick);
          R.owner[op][pick] = static_cast<std::int8_t>(iv);
          R.va_in_ptr[iv] = static_cast<std::uint8_t>(pick + 1 == V ? 0 : pick + 1);
          q.state = 2;
          q.out_port = static_cast<std::uint8_t>(op);
          q.out_vc = static_cast<std::uint8_t>(pick);
          R.active[ip] |= static_cast<std::uint8_t>(1u << v);
        }
      }
      // Switch allocation, input first.
      int want_vc[P];
      std::uint32_t out_req[P] = {};
      for (int ip = 0; ip < P; ++ip) {
        want_vc[ip] = -1;
        unsigned cand = 0;
        for (unsigned m = R.busy[ip] & R.active[ip]; m != 0; m &= m - 1) {
          const int v = __builtin_ctz(m);
          const Ivc& q = R.ivc[ip][v];
          if (R.buf[ip][v][q.head].ready > t) continue;
          if (R.credits[q.out_port][q.out_vc] == 0) continue;
          cand |= 1u << v;
        }
        if (cand == 0) continue;
        const unsigned after = cand & (~0u << R.sa_in_ptr[ip]);
        const int v = __builtin_ctz(after ? after : cand);
        want_vc[ip] = v;
        out_req[R.ivc[ip][v].out_port] |= 1u << ip;
      }
      for (int op = 0; op < P; ++op) {
        const std::uint32_t req = out_req[op];
        if (req == 0) continue;
        const std::uint32_t after = req & (~0u << R.sa_out_ptr[op]);
        const int ip = __builtin_ctz(after ? after : req);
        const int v = want_vc[ip];
        R.sa_out_ptr[op] = static_cast<std::uint8_t>(ip + 1 == P ? 0 : ip + 1);
        R.sa_in_ptr[ip] = static_cast<std::uint8_t>(v + 1 == V ? 0 : v + 1);
        // Traverse.
        Ivc& q = R.ivc[ip][v];
        Flit f = R.buf[ip][v][q.head].f;
        q.head = static_cast<std::uint8_t>(q.head + 1 == D ? 0 : q.head + 1);
        --held[r];
        if (--q.count == 0) {
          q.head = 0;
          R.busy[ip] &= static_cast<std::uint8_t>(~(1u << v));
        }
        // Credit upstream.
        if (ip == 4)
          nicred[nxt][r] = static_cast<std::uint8_t>(v + 1), niwake[nxt][r] = 1;
        else {
          const int up = neighbour[r * P + ip];
          cred[nxt][up * P + (ip ^ 1)] = static_cast<std::uint8_t>(v + 1);
          wake[nxt][up] = 1;
        }
        const int ov = q.out_vc;
        f.vc = static_cast<std::uint8_t>(ov);
        if (op == 4) {
          eject[nxt][r] = {f, true};
          niwake[nxt][r] = 1;
        } else {
          --R.credits[op][ov];
          ++f.hops;
          const int down = neighbour[r * P + op];
          in[nxt][down * P + (op ^ 1)] = {f, true};
          wake[nxt][down] = 1;
        }
        ++flits_moved;
        if (f.type & 2) {
          R.owner[op][ov] = -1;
          q.state = 0;
          R.active[ip] &= static_cast<std::uint8_t>(~(1u << v));
        }
      }
    }
    // NIs: ejection, credits, arrivals, injection.
    for (int r = 0; r < n; ++r) {
      Ni& N = nis[r];
      if (!niwake[cur][r] && !N.busy && N.qhead == N.queue.size() && N.next_arrival != t) continue;
      niwake[cur][r] = 0;
      Slot& ej = eject[cur][r];
      if (ej.valid) {
        ej.valid = false;
        if (ej.f.type & 2) {
          const Packet& pk = packets[ej.f.pkt];
          if (pk.measured) {
            latencies.push_back(static_cast<std::uint32_t>(t - pk.created));
            hops_sum += ej.f.hops;
            ++delivered_measured;
          }
        }
      }
      if (nicred[cur][r] != 0) {
        ++N.credits[nicred[cur][r] - 1];
        nicred[cur][r] = 0;
      }
      if (N.next_arrival == t && t < gen_until) {
        std::uint32_t dst = static_cast<std::uint32_t>(
            std::uniform_int_distribution<std::uint32_t>(0, static_cast<std::uint32_t>(n - 2))(
                N.rng));
        if (dst >= static_cast<std::uint32_t>(r)) ++dst;
        packets.push_back({t, measuring});
        if (measuring) ++measured_out;
        N.queue.emplace_back(static_cast<std::uint32_t>(packets.size() - 1), dst);
        N.next_arrival = t + 1 + gap(N);
      }
      if (!N.busy && N.qhead < N.queue.size()) {
        int pick = -1;
        for (int j = 0; j < V && pick < 0; ++j) {
          const int v = (N.vc_ptr + j) % V;
          if (N.credits[v] == D) pick = v;
        }
        for (int j = 0; j < V && pick < 0; ++j) {
          const int v = (N.vc_ptr + j) % V;
          if (N.credits[v] > 0) pick = v;
        }
        if (pick >= 0) {
          N.vc_ptr = (pick + 1) % V;
          N.busy = true;
          N.vc = pick;
          N.next = 0;
          N.pkt = N.queue[N.qhead].first;
          N.dst = N.queue[N.qhead].second;
          ++N.qhead;
          if (N.qhead == N.queue.size()) {
            N.queue.clear();
            N.qhead = 0;
          }
        }
      }
      if (N.busy && N.credits[N.vc] > 0) {
        Flit f;
        f.pkt = N.pkt;
        f.dst = N.dst;
        f.idx = static_cast<std::uint16_t>(N.next);
        f.vc = static_cast<std::uint8_t>(N.vc);
        f.type = static_cast<std::uint8_t>((N.next == 0 ? 1 : 0) | (N.next == LEN - 1 ? 2 : 0));
        --N.credits[N.vc];
        in[nxt][r * P + 4] = {f, true};
        wake[nxt][r] = 1;
        if (++N.next == LEN) N.busy = false;
      }
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double mean = 0;
  for (auto l : latencies) mean += l;
  mean /= latencies.empty() ? 1 : static_cast<double>(latencies.size());
  std::printf("k %d rate %.3f cycles %llu secs %.3f packets %zu latency %.2f hops %.2f flits_moved %llu\n",
              k, rate, static_cast<unsigned long long>(t), secs, latencies.size(), mean,
              latencies.empty() ? 0.0 : static_cast<double>(hops_sum) / latencies.size(),
              static_cast<unsigned long long>(flits_moved));
}
