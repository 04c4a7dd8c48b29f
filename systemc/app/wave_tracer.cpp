#include "wave_tracer.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include <fmt/format.h>

namespace wormsim {

std::string port_signal_name(const Topology& topology, const PortLayout& layout, int port,
                             bool input) {
  if (layout.is_network(port)) {
    if (topology.kind() == TopologyKind::kHypercube) return fmt::format("d{}", port);
    return fmt::format("{}{}", "xyz"[port / 2], port % 2 == 0 ? 'p' : 'm');
  }
  return fmt::format("{}{}", input ? "inj" : "ej", port - layout.network);
}

namespace {
constexpr const char* kScope = "SystemC";  // top scope SystemC's VCD writer uses

// GTKWave names a multi-bit VCD variable with its bit range ("vc[3:0]"); a layout must use
// that full name or the signal is silently not displayed.
constexpr int kOccupancyBits = 9;  // buffer depth <= 256
constexpr int kCycleBits = 64;

std::string gtkw_name(const std::string& name, int width) {
  return width > 1 ? fmt::format("{}[{}:0]", name, width - 1) : name;
}
}  // namespace

WaveTracer::WaveTracer(Network& network, const std::vector<NodeId>& routers,
                       const std::string& base_path)
    : vcd_path_(base_path + ".vcd"), gtkw_path_(base_path + ".gtkw") {
  network.enable_probes(routers);
  file_ = sc_core::sc_create_vcd_trace_file(base_path.c_str());
  if (file_ == nullptr) throw std::runtime_error("cannot create trace file " + vcd_path_);
  // SystemC announces the time unit as an info report on stdout; stdout is for results.
  sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
  file_->set_time_unit(1, sc_core::SC_PS);

  struct Group {
    std::string title;
    std::vector<std::pair<std::string, const char*>> signals;  // name, gtkw format flag
  };
  std::vector<std::pair<std::string, std::vector<Group>>> layout_groups;
  const Topology& topo = network.topology();
  for (NodeId id : routers) {
    Router& r = network.router(id);
    const PortLayout& layout = r.params().layout;
    const std::string base = fmt::format("{}.r{}", network.name(), id);
    std::vector<Group> groups;
    auto add_port = [&](const FlitProbe& p, const std::string& dir, int port, bool input) {
      const std::string prefix =
          fmt::format("{}.{}_{}", base, dir, port_signal_name(topo, layout, port, input));
      Group g;
      g.title = fmt::format("{} {}", dir, port_signal_name(topo, layout, port, input));
      auto trace = [&](const auto& value, const char* field, const char* fmtflag, int width) {
        const std::string name = prefix + "_" + field;
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, bool>)
          sc_core::sc_trace(file_, value, name);
        else
          sc_core::sc_trace(file_, value, name, width);
        g.signals.emplace_back(gtkw_name(name, width), fmtflag);
      };
      trace(p.valid, "valid", "@28", 1);
      trace(p.vc, "vc", "@24", 4);
      trace(p.head, "head", "@28", 1);
      trace(p.tail, "tail", "@28", 1);
      trace(p.packet, "packet", "@24", 64);
      trace(p.src, "src", "@24", 20);
      trace(p.dst, "dst", "@24", 20);
      trace(p.index, "index", "@24", 16);
      groups.push_back(std::move(g));
    };
    for (int p = 0; p < layout.inputs(); ++p)
      if (r.input(p).link != nullptr)
        add_port(r.input_probes()[static_cast<std::size_t>(p)], "in", p, true);
    for (int p = 0; p < layout.outputs(); ++p)
      if (r.output(p).link != nullptr)
        add_port(r.output_probes()[static_cast<std::size_t>(p)], "out", p, false);
    Group occ;
    occ.title = "buffer occupancy";
    const int vcs = r.params().vcs;
    for (int p = 0; p < layout.inputs(); ++p) {
      if (r.input(p).link == nullptr) continue;
      for (int v = 0; v < vcs; ++v) {
        const std::string name =
            fmt::format("{}.occ_{}_vc{}", base, port_signal_name(topo, layout, p, true), v);
        sc_core::sc_trace(file_, r.occupancy_probes()[static_cast<std::size_t>(p * vcs + v)], name,
                          kOccupancyBits);
        occ.signals.emplace_back(gtkw_name(name, kOccupancyBits), "@24");
      }
    }
    groups.push_back(std::move(occ));
    layout_groups.emplace_back(fmt::format("router {} {}", id, topo.node_name(id)),
                               std::move(groups));
  }
  const std::string cycle_name = fmt::format("{}.cycle", network.name());
  sc_core::sc_trace(file_, cycle_probe_, cycle_name, kCycleBits);

  // The signal groups of the layout; the header (paths, start time) is written by finish(),
  // once the VCD is complete.
  std::ostringstream g;
  auto emit = [&](const std::string& name, const char* flag) {
    const std::string full = std::string(kScope) + "." + name;
    g << flag << "\n" << full << "\n";
    signals_.push_back(full);
  };
  emit(gtkw_name(cycle_name, kCycleBits), "@24");
  for (const auto& [title, groups] : layout_groups) {
    g << "@800200\n-" << title << "\n";
    for (const Group& grp : groups) {
      g << "@800200\n-" << grp.title << "\n";
      for (const auto& [name, flag] : grp.signals) emit(name, flag);
      g << "@1000200\n-" << grp.title << "\n";
    }
    g << "@1000200\n-" << title << "\n";
  }
  layout_body_ = g.str();
  period_ps_ = network.clock_period().to_seconds() * 1e12;
  // Keep the cycle probe current: the network updates it through the router probes' cadence.
  network.set_cycle_probe(&cycle_probe_);
}

void WaveTracer::finish() {
  if (file_ == nullptr) return;
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
  first_activity_ps_ = first_valid_time(vcd_path_);
  write_layout();
}

WaveTracer::~WaveTracer() {
  try {
    finish();
  } catch (const std::exception&) {
    // A destructor must not throw; finish() reports the error where it is called.
  }
}

void WaveTracer::write_layout() {
  namespace fs = std::filesystem;
  std::ofstream g(gtkw_path_);
  if (!g) throw std::runtime_error("cannot write " + gtkw_path_);
  // Absolute paths: GTKWave resolves a relative [dumpfile] against its working directory.
  // With [savefile] as well it first looks for the dump at the same place relative to the
  // layout's current location, so a moved or copied output directory still opens.
  const std::string vcd = fs::absolute(vcd_path_).lexically_normal().string();
  const std::string gtkw = fs::absolute(gtkw_path_).lexically_normal().string();
  g << "[*] GTKWave save file generated by wormsim: one group per router, one per port\n";
  g << fmt::format("[dumpfile] \"{}\"\n[savefile] \"{}\"\n", vcd, gtkw);
  // Open at the first flit on a traced port (two cycles before it, the marker on it), zoomed
  // to about 64 clock cycles: GTKWave's zoom z shows about 5 * 2^-z time units (ps here)
  // across the default wave pane.
  const std::uint64_t first = first_activity_ps_.value_or(0);
  const auto lead = static_cast<std::uint64_t>(std::llround(2 * period_ps_));
  const double zoom = -std::log2(64.0 * period_ps_ / 5.0);
  g << fmt::format("[timestart] {}\n", first > lead ? first - lead : 0)
    << fmt::format("*{:.6f} {}", zoom, first_activity_ps_ ? static_cast<long long>(first) : -1LL);
  for (int i = 0; i < 26; ++i) g << " -1";  // no named markers
  g << "\n[size] 1600 1000\n[treeopen] " << kScope << ".\n[sst_width] 260\n[signals_width] 300\n";
  g << layout_body_;
  g.close();
  if (!g) throw std::runtime_error("cannot write " + gtkw_path_);
}

std::optional<std::uint64_t> first_valid_time(const std::string& vcd_path) {
  std::ifstream in(vcd_path);
  std::unordered_set<std::string> valid_ids;
  std::string line;
  // Header: "$var wire 1 <id> <name>_valid $end".
  while (std::getline(in, line)) {
    std::istringstream is(line);
    std::string tok;
    is >> tok;
    if (tok == "$enddefinitions") break;
    if (tok != "$var") continue;
    std::string kind, width, id, name;
    is >> kind >> width >> id >> name;
    const std::string suffix = "_valid";
    if (width == "1" && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      valid_ids.insert(id);
  }
  // Changes: "#<time>" lines, then "<value><id>" for scalars ("b<bits> <id>" for vectors).
  std::uint64_t now = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      now = std::strtoull(line.c_str() + 1, nullptr, 10);
    } else if (line[0] == '1' && valid_ids.count(line.substr(1)) > 0) {
      return now;
    }
  }
  return std::nullopt;
}

}  // namespace wormsim
