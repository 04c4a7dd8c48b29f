// wormsim command line: run / validate / list / study. Exit codes (docs/cli.md):
//   0 run completed, every packet delivered, scoreboard clean
//   1 internal error or scoreboard violation
//   2 configuration or usage error (message names the key and line)
//   3 deadlock detected by the watchdog (report on stderr and in results.json)
//   4 drain incomplete: packets still outstanding after drain_max_cycles
#include <systemc>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "collective_harness.h"
#include "collective_report.h"
#include "config_loader.h"
#include "exit_status.h"
#include "machine_preset.h"
#include "network.h"
#include "results.h"
#include "study_command.h"
#include "router_backend.h"
#include "synthetic_network.h"
#include "wave_tracer.h"

#ifndef WORMSIM_VERSION
#error "WORMSIM_VERSION must be the project version (systemc/app/CMakeLists.txt)"
#endif
#ifndef WORMSIM_STUDY_SCRIPT
#error "WORMSIM_STUDY_SCRIPT must be the path of scripts/study (systemc/app/CMakeLists.txt)"
#endif

namespace wormsim {
// The source tree's `git describe --always --dirty` at build time, or "unknown" outside a git
// checkout: build_info.cpp, generated at every build (systemc/app/CMakeLists.txt).
const char* build_git_commit();
}  // namespace wormsim

namespace {

using namespace wormsim;

// A problem with where the run writes (--out, trace.file): exit 2, like a config error.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kOk = static_cast<int>(ExitCode::kOk);
constexpr int kError = static_cast<int>(ExitCode::kError);
constexpr int kConfigError = static_cast<int>(ExitCode::kConfigError);

template <typename E>
std::string names() {
  std::string s;
  for (E v : all_values<E>()) s += (s.empty() ? "" : ", ") + to_string(v);
  return s;
}

int list_command() {
  std::cout << "topologies:        " << names<TopologyKind>() << "\n"
            << "routing:           dor (mesh, torus; network.routing.order e.g. [0,1] = XY, "
               "[1,0] = YX; tori use dateline VC classes), ecube (hypercube; "
            << names<EcubeOrder>() << ")\n"
            << "port models:       " << names<PortModel>() << "\n"
            << "allocators:        " << names<AllocatorKind>() << "\n"
            << "pipeline models:   " << names<PipelineModel>() << "\n"
            << "traffic patterns:  " << names<TrafficPattern>() << "\n"
            << "multicast patterns: " << names<MulticastPattern>()
            << " (traffic.multicast_pattern)\n"
            << "config presets:    default (built in; `wormsim run` with no file); example "
               "configs in configs/\n"
            << "workloads:         " << names<Workload>() << "\n"
            << "algorithms (collective.algorithms; docs/collectives.md), by operation:\n";
  for (CollectiveKind kind : all_values<CollectiveKind>()) {
    std::string algs;
    for (CollectiveAlgorithm a : all_values<CollectiveAlgorithm>())
      if (kind_of(a) == kind) algs += (algs.empty() ? "" : ", ") + to_string(a);
    std::cout << fmt::format("  {:<17}{}\n", to_string(kind) + ":", algs);
  }
  std::cout << "root selection:    " << names<RootSelection>() << "\n"
            << "machine presets (machine.preset; docs/presets.md; 1-byte flits, one flit per "
               "cycle per channel):\n";
  for (const MachinePreset& p : machine_presets()) {
    auto cycles = [&](double us, long c) {
      const double err = static_cast<double>(c) * p.beta_us_per_byte - us;
      return std::abs(err) < 1e-9 * std::max(1.0, us)
                 ? fmt::format("{:g} us = {} cycles", us, c)
                 : fmt::format("{:g} us = {} cycles ({:+.3g} us rounding)", us, c, err);
    };
    std::cout << fmt::format(
        "  {:<16} {}: beta {:g} us/byte (clock {:.4g} ns), alpha {}, gamma {}{}{}\n"
        "  {:<16} {}{}\n",
        p.name, p.machine, p.beta_us_per_byte, p.clock_period_ns(),
        cycles(p.alpha_us, p.alpha_cycles()), cycles(p.gamma_us, p.gamma_cycles()),
        p.max_packet_bytes > 0
            ? fmt::format(", {}-byte packets ({} header)", p.max_packet_bytes, p.header_bytes)
            : std::string(),
        p.send_packet_us > 0 || p.receive_packet_us > 0
            ? fmt::format(", each further packet: send {}, receive {}",
                          cycles(p.send_packet_us, p.send_packet_cycles()),
                          cycles(p.receive_packet_us, p.receive_packet_cycles()))
            : std::string(),
        "", p.source, p.note.empty() ? "" : "; " + p.note);
  }
  std::cout << "  (alpha and gamma are charged by the node processors in collective runs)\n";
  return kOk;
}

// Loads CONFIG (or the built-in default) with the --set overrides; `given` receives the keys
// the user gave: the file's and the overrides (the built-in default's own keys are not theirs).
Config load(const std::string& file, const std::vector<std::string>& sets, std::string& source,
            std::vector<GivenKey>& given) {
  if (file.empty()) {
    source = "<built-in default>";
    Config c =
        load_config(default_config_yaml(), source, sets, check_router_implementation, &given);
    given.erase(std::remove_if(given.begin(), given.end(),
                               [&](const GivenKey& k) { return k.source == source; }),
                given.end());
    return c;
  }
  source = file;
  return load_config_file(file, sets, check_router_implementation, &given);
}

// One warning per key the user gave that this run does not read (docs/cli.md).
void warn_unused(const Config& config, const std::vector<GivenKey>& given) {
  for (const UnusedKey& u : unused_keys(config, given))
    std::cerr << "wormsim: warning: " << text(u) << "\n";
}

// Fails with an OutputError naming `what` unless `path` can be written (it is created and
// removed again if it did not exist).
void check_writable(const std::filesystem::path& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw OutputError(fmt::format("{}: cannot write {}: it is a directory", what, path.string()));
  const bool existed = fs::exists(path, ec);
  errno = 0;
  std::ofstream probe(path, std::ios::app);
  if (!probe) {
    const int err = errno;
    throw OutputError(
        fmt::format("{}: cannot write {}{}", what, path.string(),
                    err != 0 ? ": " + std::generic_category().message(err) : std::string()));
  }
  probe.close();
  if (!existed) fs::remove(path, ec);
}

// Before the run: the output directory exists (created) and every file the run will write
// there can be written, so a long run does not fail at its end. Errors name --out or
// trace.file.
void prepare_outputs(const std::string& out_dir, const Config& config) {
  namespace fs = std::filesystem;
  const fs::path out(out_dir);
  const std::string out_what = "--out " + out_dir;
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw OutputError(fmt::format("{}: exists and is not a directory", out_what));
  fs::create_directories(out, ec);
  if (ec)
    throw OutputError(fmt::format("{}: cannot create the directory: {}", out_what, ec.message()));
  check_writable(out / "results.json", out_what);
  if (config.workload == Workload::kCollective && config.trace.timeline)
    check_writable(out / "timeline.json", out_what);
  if (config.trace.enabled) {
    const fs::path base = out / config.trace.file;
    const std::string what = fmt::format("trace.file {} (in --out {})", config.trace.file, out_dir);
    fs::create_directories(base.parent_path(), ec);
    if (ec)
      throw OutputError(fmt::format("{}: cannot create the directory {}: {}", what,
                                    base.parent_path().string(), ec.message()));
    check_writable(base.string() + ".vcd", what);
    check_writable(base.string() + ".gtkw", what);
  }
}

// Writes `text` to `path` or fails with an OutputError naming --out.
void write_output(const std::filesystem::path& path, const std::string& text,
                  const std::string& out_dir) {
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) throw OutputError(fmt::format("--out {}: cannot write {}", out_dir, path.string()));
}

std::unique_ptr<WaveTracer> make_tracer(Network& network, const Config& config,
                                        const std::string& out_dir) {
  if (!config.trace.enabled) return nullptr;
  network.set_probe_window(config.trace.window_cycles);
  return std::make_unique<WaveTracer>(
      network, traced_routers(config),
      (std::filesystem::path(out_dir) / config.trace.file).string());
}

// Closes the VCD and writes its layout; a layout that cannot be written names trace.file.
void finish_tracer(std::unique_ptr<WaveTracer>& tracer) {
  if (!tracer) return;
  try {
    tracer->finish();
  } catch (const std::runtime_error& e) {
    throw OutputError(fmt::format("trace.file: {}", e.what()));
  }
}

// With tracing on, RTL routers among the traced ones also write FST waves (docs/rtl.md).
NetworkOptions network_options(const Config& config, const std::string& out_dir, bool quiet) {
  NetworkOptions options;
  options.quiet = quiet;
  std::string prefix;
  std::vector<NodeId> traced;
  if (config.trace.enabled) {
    prefix = (std::filesystem::path(out_dir) / config.trace.file).string();
    traced = traced_routers(config);
  }
  options.router_factory = make_router_factory(config, prefix, traced);
  return options;
}

// Names the RTL routers' FST waves (closed by Network::close_router_traces) and converts them to
// VCD when trace.rtl_vcd asks for it (gtkwave's fst2vcd). Runs after the results are written;
// a failed conversion is a warning, not a lost run.
void report_rtl_traces(const Network& network, const Config& config) {
  for (const std::string& fst : network.router_trace_files()) {
    std::cout << "rtl trace: " << fst << "\n";
    if (!config.trace.rtl_vcd) continue;
    const std::string vcd = std::filesystem::path(fst).replace_extension(".vcd").string();
    if (fst.find('\'') != std::string::npos) {
      std::cerr << "wormsim: warning: trace.rtl_vcd: no conversion of a path with a quote: " << fst
                << "\n";
      continue;
    }
    const std::string command = fmt::format("fst2vcd -f '{}' -o '{}'", fst, vcd);
    if (std::system(command.c_str()) != 0)
      std::cerr << "wormsim: warning: trace.rtl_vcd: '" << command << "' failed\n";
    else
      std::cout << "rtl trace: " << vcd << "\n";
  }
}

// workload: collective -- node firmware runs the configured collective operations.
// --flit-log: every router departure of the run, one line each, in canonical order.
struct FlitLog {
  FlitLog(Network& network, const std::string& path) : file(path), writer(&file) {
    if (!file) throw OutputError(fmt::format("--flit-log: cannot write {}", path));
    network.add_router_observer(&writer);
  }
  void close() {
    writer.flush();
    file.close();
    if (!file) throw OutputError("--flit-log: write failed");
  }
  std::ofstream file;
  FlitEventWriter writer;
};

// Cycles a synthetic run's network evaluates per activation of its SystemC process
// (NetworkOptions::cycles_per_activation).
constexpr int kCyclesPerActivation = 1024;

// Runs of this many nodes or more end the process once every output is written, without
// tearing the simulation down: Debian's SystemC 2.3.4 removes each destroyed module from its
// registry by a linear search, which made the teardown of a 256 x 256 network take 13 s
// (docs/performance.md, "Firmware at scale"); the OS reclaims the memory at once.
constexpr std::uint64_t kNoTeardownNodes = 16384;

int end_run(int code, std::uint64_t nodes) {
  if (nodes < kNoTeardownNodes) return code;
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(code);
}

int run_collective(const Config& config, const RunInfo& run_info, const std::string& out_dir,
                   bool quiet, const std::string& flit_log) {
  CollectiveHarness harness("harness", config, network_options(config, out_dir, quiet));
  std::unique_ptr<FlitLog> log;
  if (!flit_log.empty()) log = std::make_unique<FlitLog>(harness.network(), flit_log);
  std::unique_ptr<WaveTracer> tracer = make_tracer(harness.network(), config, out_dir);
  if (!quiet)
    std::cerr << fmt::format("[wormsim] {} collective operations on {} nodes\n",
                             harness.operations().size(), harness.network().topology().nodes());
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  harness.finish();
  if (log) log->close();
  RunInfo info = run_info;
  info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  finish_tracer(tracer);
  harness.network().close_router_traces();

  const std::filesystem::path out(out_dir);
  nlohmann::json results = results_json(harness.network(), info);
  results["collective"] = collective_json(harness);
  if (harness.firmware_fault()) results["firmware_fault"] = *harness.firmware_fault();
  if (harness.stall()) results["firmware_stall"] = *harness.stall();
  write_output(out / "results.json", results.dump(2) + "\n", out_dir);
  if (config.trace.timeline)
    write_output(out / "timeline.json", timeline_json(harness).dump() + "\n", out_dir);
  std::cout << collective_summary_text(harness);
  report_rtl_traces(harness.network(), config);
  std::cout << fmt::format("simulated {} cycles in {:.2f} s\n", harness.network().cycles(),
                           info.wall_seconds);
  std::cout << "results: " << (out / "results.json").string() << "\n";
  if (config.trace.timeline)
    std::cout << "timeline: " << (out / "timeline.json").string()
              << " (Chrome trace events; open in Perfetto)\n";
  if (config.trace.enabled)
    std::cout << fmt::format("trace: {} (layout {})\n",
                             (out / (config.trace.file + ".vcd")).string(),
                             (out / (config.trace.file + ".gtkw")).string());
  const RunStatus status = collective_status(harness);
  std::cerr << status.message;
  return end_run(static_cast<int>(status.code), harness.network().topology().nodes());
}

int run_command(const std::string& file, const std::vector<std::string>& sets,
                const std::string& out_dir, bool trace, bool quiet, const std::string& flit_log,
                const std::vector<std::string>& command_line) {
  RunInfo info;
  std::vector<GivenKey> given;
  Config config = load(file, sets, info.config_source, given);
  if (trace) config.trace.enabled = true;
  warn_unused(config, given);
  info.version = WORMSIM_VERSION;
  info.git_commit = build_git_commit();
  info.command_line = command_line;
  prepare_outputs(out_dir, config);
  if (config.workload == Workload::kCollective)
    return run_collective(config, info, out_dir, quiet, flit_log);

  NetworkOptions options = network_options(config, out_dir, quiet);
  // Nothing but the network watches SystemC time in a synthetic run without waveforms or RTL
  // routers: the network evaluates up to kCyclesPerActivation cycles per activation.
  if (!config.trace.enabled &&
      config.network.router.implementation == RouterImplementation::kSystemC)
    options.cycles_per_activation = kCyclesPerActivation;
  SyntheticNetwork network("net", config, options);
  std::unique_ptr<FlitLog> log;
  if (!flit_log.empty()) log = std::make_unique<FlitLog>(network, flit_log);
  std::unique_ptr<WaveTracer> tracer = make_tracer(network, config, out_dir);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (log) log->close();
  finish_tracer(tracer);  // flush the VCD, write its layout
  network.close_router_traces();

  const std::string results_path = (std::filesystem::path(out_dir) / "results.json").string();
  write_output(results_path, results_json(network, info).dump(2) + "\n", out_dir);
  std::cout << summary_text(network, info);
  std::cout << "results: " << results_path << "\n";
  report_rtl_traces(network, config);
  if (config.trace.enabled)
    std::cout << fmt::format(
        "trace: {} (layout {})\n",
        (std::filesystem::path(out_dir) / (config.trace.file + ".vcd")).string(),
        (std::filesystem::path(out_dir) / (config.trace.file + ".gtkw")).string());
  const RunStatus status = synthetic_status(network);
  std::cerr << status.message;
  return end_run(static_cast<int>(status.code), network.topology().nodes());
}

}  // namespace

// SystemC prints its banner on stdout before sc_main runs unless this variable is set;
// stdout is for results, so set it during static initialisation (before libsystemc's main).
[[maybe_unused]] static const bool kQuietSystemC =
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

int sc_main(int argc, char* argv[]) {
  CLI::App app{"wormsim: cycle-level wormhole network simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       fmt::format("wormsim {} ({})", WORMSIM_VERSION, build_git_commit()),
                       "print the version and the git commit it was built from");
  std::string config_file;
  std::vector<std::string> sets;
  std::string out_dir = "out";
  bool trace = false;
  bool quiet = false;

  CLI::App* run = app.add_subcommand("run", "run a simulation (built-in default without CONFIG)");
  run->add_option("config", config_file, "YAML config file");
  run->add_option("--set", sets, "override a config key: --set network.router.vcs=2 (after CONFIG)")
      ->take_all();
  run->add_option("--out", out_dir, "output directory for results.json and traces");
  run->add_flag("--trace", trace, "write a VCD of trace.routers and its .gtkw layout");
  run->add_flag("--quiet", quiet, "no progress lines on stderr");
  std::string threads;
  run->add_option("--threads", threads,
                  "threads evaluating routers: same as --set simulation.threads=N (0 = one per "
                  "core, capped by network size; one for collective runs); results do not depend "
                  "on it");
  std::string flit_log;
  run->add_option("--flit-log", flit_log,
                  "write every flit departure (cycle, router, port, VC, packet, flit) to FILE");

  std::string validate_file;
  std::vector<std::string> validate_sets;
  CLI::App* validate = app.add_subcommand("validate", "check a config and print it resolved");
  validate->add_option("config", validate_file, "YAML config file")->required();
  validate->add_option("--set", validate_sets, "override a config key")->take_all();

  CLI::App* list = app.add_subcommand("list", "list topologies, routing, traffic and presets");

  // Everything after `study` goes to the study runner (its own --help lists the options).
  CLI::App* study = app.add_subcommand(
      "study", "run a design study: variants x workloads x loads (docs/study.md; study --help)");
  study->prefix_command();
  study->set_help_flag();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kConfigError;
  }
  try {
    if (list->parsed()) return list_command();
    if (study->parsed()) return study_command(WORMSIM_STUDY_SCRIPT, study->remaining());
    if (validate->parsed()) {
      std::string source;
      std::vector<GivenKey> given;
      const Config c = load(validate_file, validate_sets, source, given);
      std::cout << to_json(c).dump(2) << "\n";  // stdout stays a loadable config
      warn_unused(c, given);
      std::cerr << source << ": valid\n";
      return kOk;
    }
    if (!threads.empty()) sets.push_back("simulation.threads=" + threads);
    return run_command(config_file, sets, out_dir, trace, quiet, flit_log,
                       std::vector<std::string>(argv, argv + argc));
  } catch (const ConfigError& e) {
    std::cerr << "wormsim: config error: " << e.what() << "\n";
    return kConfigError;
  } catch (const OutputError& e) {
    std::cerr << "wormsim: output error: " << e.what() << "\n";
    return kConfigError;
  } catch (const std::exception& e) {
    std::cerr << "wormsim: error: " << e.what() << "\n";
    return kError;
  }
}
