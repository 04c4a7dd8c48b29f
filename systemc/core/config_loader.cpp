#include "config_loader.h"

#include "machine_preset.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace wormsim {
namespace {

constexpr const char* kSetSource = "--set";         // source of errors about --set overrides
constexpr const char* kDocumentKey = "<document>";  // key of errors about the whole document
constexpr const char* kYamlKey = "<yaml>";          // key of YAML syntax errors

// ---------------------------------------------------------------------------------------------
// Where a leaf value came from.

// Never assign an Entry (or a YAML::Node): YAML::Node::operator= writes through to the node
// it refers to. Copy construction shares the node and is fine.
struct Entry {
  YAML::Node value;
  bool from_file = true;  // false: a --set override (its marks refer to the override text)
  int key_line = 0;       // 1-based line of the key in the document; 0 for overrides
  std::string source;     // the document's source name, or "--set"
  std::string note;       // appended to every message about this entry ("" for the document)
};

// Leaf entries in the order they were given (document order, then overrides in order).
using Entries = std::vector<std::pair<std::string, Entry>>;

const Entry* find_entry(const Entries& entries, const std::string& path) {
  for (const auto& [p, e] : entries)
    if (p == path) return &e;
  return nullptr;
}

// 1-based line of a node's mark, 0 when the node carries none.
int line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.is_null() ? 0 : m.line + 1;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// Human description of a YAML value for "expected X, got Y" messages.
std::string describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return "nothing (null)";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Scalar: break;
  }
  if (n.Tag() == "!") return fmt::format("the quoted string \"{}\"", n.Scalar());
  return fmt::format("'{}'", n.Scalar());
}

// A plain (unquoted) scalar: quoted scalars are strings in YAML and never numbers or booleans.
bool is_plain_scalar(const YAML::Node& n) { return n.IsScalar() && n.Tag() != "!"; }

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// ---------------------------------------------------------------------------------------------
// A value being converted, with what its error messages need.

class Val {
 public:
  Val(const YAML::Node& node, std::string key, int line, const Entry& entry)
      : node_(node), key_(std::move(key)), line_(line), entry_(&entry) {}

  const YAML::Node& node() const { return node_; }

  // Element i of a sequence value: key "key[i]", located at the element's own line.
  Val element(std::size_t i) const {
    const YAML::Node& n = node_;
    YAML::Node e = n[i];
    const int own = entry_->from_file ? line_of(e) : 0;
    return Val(e, fmt::format("{}[{}]", key_, i), own > 0 ? own : line_, *entry_);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ConfigError(key_, message + entry_->note, line_, entry_->source);
  }

 private:
  YAML::Node node_;
  std::string key_;
  int line_;
  const Entry* entry_;
};

// Integer scalar syntax: optional sign, then decimal digits, 0x<hex> or 0o<octal>. (A leading
// zero does not mean octal, unlike yaml-cpp's own as<int>().)
struct ParsedInt {
  bool negative = false;
  std::uint64_t magnitude = 0;
  bool overflow = false;  // well-formed but larger than 2^64-1
};

std::optional<ParsedInt> parse_integer(std::string_view s) {
  ParsedInt r;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    r.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'o') {
    base = 8;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, r.magnitude, base);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    r.overflow = true;
    return r;
  }
  if (ec != std::errc()) return std::nullopt;
  return r;
}

ParsedInt integer_of(const Val& v) {
  const YAML::Node& n = v.node();
  std::optional<ParsedInt> p;
  if (is_plain_scalar(n)) p = parse_integer(n.Scalar());
  if (!p) v.fail(fmt::format("expected an integer, got {}", describe(n)));
  return *p;
}

int to_int(const Val& v) {
  const ParsedInt p = integer_of(v);
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  if (p.overflow || p.magnitude > kMax + (p.negative ? 1 : 0))
    v.fail(fmt::format("{} is out of range for a 32-bit integer", v.node().Scalar()));
  if (p.negative) return static_cast<int>(-static_cast<long long>(p.magnitude));
  return static_cast<int>(p.magnitude);
}

// A non-negative integer no larger than `max`.
std::uint64_t to_unsigned(const Val& v, std::uint64_t max) {
  const ParsedInt p = integer_of(v);
  if (p.negative && (p.magnitude != 0 || p.overflow))
    v.fail(fmt::format("must not be negative (got {})", v.node().Scalar()));
  if (p.overflow || p.magnitude > max)
    v.fail(fmt::format("{} is out of range (at most {})", v.node().Scalar(), max));
  return p.magnitude;
}

Cycle to_cycles(const Val& v) { return to_unsigned(v, std::numeric_limits<Cycle>::max()); }
NodeId to_node(const Val& v) {
  return static_cast<NodeId>(to_unsigned(v, std::numeric_limits<NodeId>::max()));
}

double to_double(const Val& v) {
  const YAML::Node& n = v.node();
  std::optional<double> out;
  if (is_plain_scalar(n)) {
    std::string_view s = n.Scalar();
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    double d = 0;
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, d);
    if (!s.empty() && ec == std::errc() && ptr == end) out = d;
  }
  if (!out) v.fail(fmt::format("expected a number, got {}", describe(n)));
  if (!std::isfinite(*out)) v.fail(fmt::format("must be a finite number (got {})", n.Scalar()));
  return *out;
}

bool to_bool(const Val& v) {
  const YAML::Node& n = v.node();
  bool b = false;
  if (!is_plain_scalar(n) || !YAML::convert<bool>::decode(n, b))
    v.fail(fmt::format("expected true or false, got {}", describe(n)));
  return b;
}

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points
// above U+10FFFF). Strings go into results.json, which is UTF-8.
bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int more = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (b < 0x80) {
      ++i;
      continue;
    }
    if (b >= 0xC2 && b <= 0xDF) {
      more = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      more = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      more = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(more) >= s.size()) return false;  // truncated
    for (int k = 1; k <= more; ++k) {
      const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return false;
    }
    i += static_cast<std::size_t>(more) + 1;
  }
  return true;
}

std::string to_nonempty_string(const Val& v) {
  const YAML::Node& n = v.node();
  if (!n.IsScalar()) v.fail(fmt::format("expected a string, got {}", describe(n)));
  if (n.Scalar().empty()) v.fail("must not be empty");
  if (!valid_utf8(n.Scalar())) v.fail("must be valid UTF-8 text");
  return n.Scalar();
}

// An enum by name; `what` names the enum in messages ("topology").
template <typename E>
E to_enum(const Val& v, const char* what) {
  const YAML::Node& n = v.node();
  std::vector<std::string> names;
  for (E e : all_values<E>()) names.push_back(to_string(e));
  if (!n.IsScalar())
    v.fail(fmt::format("expected a {} name ({}), got {}", what, join(names, ", "), describe(n)));
  if (std::optional<E> e = parse_enum<E>(n.Scalar())) return *e;
  v.fail(fmt::format("unknown {} '{}'; allowed: {}", what, n.Scalar(), join(names, ", ")));
}

// A list whose elements convert with `element` (called with the element's Val).
template <typename T, typename F>
std::vector<T> to_list(const Val& v, const char* what, F element) {
  const YAML::Node& n = v.node();
  if (!n.IsSequence()) v.fail(fmt::format("expected a list of {}, got {}", what, describe(n)));
  std::vector<T> out;
  for (std::size_t i = 0; i < n.size(); ++i) out.push_back(element(v.element(i)));
  return out;
}

// network.routing.order: a list of dimension indices, or a string of axis letters ("yx").
std::vector<int> to_dimension_order(const Val& v) {
  const YAML::Node& n = v.node();
  if (n.IsSequence()) return to_list<int>(v, "dimension indices", to_int);
  if (n.IsScalar() && !n.Scalar().empty()) {
    std::vector<int> out;
    for (char ch : n.Scalar()) {
      const char lower = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      if (lower < 'x' || lower > 'z')
        v.fail(
            fmt::format("'{}' is not an axis letter string like \"xy\" or \"zyx\" "
                        "(letters x, y, z) nor a list of dimension indices like [1, 0]",
                        n.Scalar()));
      out.push_back(lower - 'x');
    }
    return out;
  }
  v.fail(
      fmt::format("expected a list of dimension indices like [1, 0] or axis letters like "
                  "\"yx\", got {}",
                  describe(n)));
}

// ---------------------------------------------------------------------------------------------
// The schema: every leaf key, how to read it into a Config and how to write it as JSON. The
// order is the documented YAML layout. Sections are the proper prefixes of these paths.

struct Field {
  const char* path;
  void (*read)(const Val&, Config&);
  nlohmann::json (*write)(const Config&);
};

using Json = nlohmann::json;

const std::vector<Field>& schema() {
  static const std::vector<Field> fields{
      {"machine.preset", [](const Val& v, Config& c) { c.machine.preset = to_nonempty_string(v); },
       [](const Config& c) -> Json { return c.machine.preset; }},
      {"workload", [](const Val& v, Config& c) { c.workload = to_enum<Workload>(v, "workload"); },
       [](const Config& c) -> Json { return to_string(c.workload); }},
      {"network.topology",
       [](const Val& v, Config& c) {
         c.network.topology.kind = to_enum<TopologyKind>(v, "topology");
       },
       [](const Config& c) -> Json { return to_string(c.network.topology.kind); }},
      {"network.dims",
       [](const Val& v, Config& c) {
         c.network.topology.dims = to_list<int>(v, "side lengths", to_int);
       },
       [](const Config& c) -> Json { return c.network.topology.dims; }},
      {"network.hypercube_dimension",
       [](const Val& v, Config& c) { c.network.topology.hypercube_dimension = to_int(v); },
       [](const Config& c) -> Json { return c.network.topology.hypercube_dimension; }},
      {"network.flit_bytes", [](const Val& v, Config& c) { c.network.flit_bytes = to_int(v); },
       [](const Config& c) -> Json { return c.network.flit_bytes; }},
      {"network.clock_period_ns",
       [](const Val& v, Config& c) { c.network.clock_period_ns = to_double(v); },
       [](const Config& c) -> Json { return c.network.clock_period_ns; }},
      {"network.routing.algorithm",
       [](const Val& v, Config& c) {
         c.network.routing.algorithm = to_enum<RoutingAlgorithm>(v, "routing algorithm");
       },
       [](const Config& c) -> Json { return to_string(c.network.routing.algorithm); }},
      {"network.routing.order",
       [](const Val& v, Config& c) { c.network.routing.order = to_dimension_order(v); },
       [](const Config& c) -> Json { return c.network.routing.order; }},
      {"network.routing.ecube_order",
       [](const Val& v, Config& c) {
         c.network.routing.ecube_order = to_enum<EcubeOrder>(v, "e-cube order");
       },
       [](const Config& c) -> Json { return to_string(c.network.routing.ecube_order); }},
      {"network.routing.dateline",
       [](const Val& v, Config& c) { c.network.routing.dateline = to_bool(v); },
       [](const Config& c) -> Json { return c.network.routing.dateline; }},
      {"network.router.vcs", [](const Val& v, Config& c) { c.network.router.vcs = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.vcs; }},
      {"network.router.buffer_depth",
       [](const Val& v, Config& c) { c.network.router.buffer_depth = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.buffer_depth; }},
      {"network.router.pipeline_depth",
       [](const Val& v, Config& c) { c.network.router.pipeline_depth = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.pipeline_depth; }},
      {"network.router.pipeline",
       [](const Val& v, Config& c) {
         c.network.router.pipeline = to_enum<PipelineModel>(v, "pipeline model");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.pipeline); }},
      {"network.router.link_latency",
       [](const Val& v, Config& c) { c.network.router.link_latency = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.link_latency; }},
      {"network.router.credit_latency",
       [](const Val& v, Config& c) { c.network.router.credit_latency = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.credit_latency; }},
      {"network.router.allocator",
       [](const Val& v, Config& c) {
         c.network.router.allocator = to_enum<AllocatorKind>(v, "allocator");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.allocator); }},
      {"network.router.port_model",
       [](const Val& v, Config& c) {
         c.network.router.port_model = to_enum<PortModel>(v, "port model");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.port_model); }},
      {"network.router.ports", [](const Val& v, Config& c) { c.network.router.ports = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.ports; }},
      {"network.router.multidest",
       [](const Val& v, Config& c) {
         c.network.router.multidest = to_enum<MultidestMode>(v, "multidestination mode");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.multidest); }},
      {"network.router.replication",
       [](const Val& v, Config& c) {
         c.network.router.replication = to_enum<Replication>(v, "replication handshake");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.replication); }},
      {"network.router.header_encoding",
       [](const Val& v, Config& c) {
         c.network.router.header_encoding = to_enum<HeaderEncoding>(v, "header encoding");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.header_encoding); }},
      {"network.router.path_ir",
       [](const Val& v, Config& c) {
         c.network.router.path_ir = to_enum<PathIr>(v, "path-IR router");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.path_ir); }},
      {"network.router.header_decode",
       [](const Val& v, Config& c) {
         c.network.router.header_decode = to_enum<HeaderDecode>(v, "header decode");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.header_decode); }},
      {"network.router.consumption_channels",
       [](const Val& v, Config& c) { c.network.router.consumption_channels = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.consumption_channels; }},
      {"network.router.multidest_vcs",
       [](const Val& v, Config& c) { c.network.router.multidest_vcs = to_int(v); },
       [](const Config& c) -> Json { return c.network.router.multidest_vcs; }},
      {"network.router.replication_flow",
       [](const Val& v, Config& c) {
         c.network.router.replication_flow = to_enum<ReplicationFlow>(v, "replication flow");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.replication_flow); }},
      {"network.router.implementation",
       [](const Val& v, Config& c) {
         c.network.router.implementation =
             to_enum<RouterImplementation>(v, "router implementation");
       },
       [](const Config& c) -> Json { return to_string(c.network.router.implementation); }},
      {"network.router.rtl_nodes",
       [](const Val& v, Config& c) {
         c.network.router.rtl_nodes = to_list<NodeId>(v, "node ids", to_node);
       },
       [](const Config& c) -> Json { return c.network.router.rtl_nodes; }},
      {"traffic.pattern",
       [](const Val& v, Config& c) {
         c.traffic.pattern = to_enum<TrafficPattern>(v, "traffic pattern");
       },
       [](const Config& c) -> Json { return to_string(c.traffic.pattern); }},
      {"traffic.injection_rate",
       [](const Val& v, Config& c) { c.traffic.injection_rate = to_double(v); },
       [](const Config& c) -> Json { return c.traffic.injection_rate; }},
      {"traffic.packet_length",
       [](const Val& v, Config& c) { c.traffic.packet_length = to_int(v); },
       [](const Config& c) -> Json { return c.traffic.packet_length; }},
      {"traffic.multicast_fraction",
       [](const Val& v, Config& c) { c.traffic.multicast_fraction = to_double(v); },
       [](const Config& c) -> Json { return c.traffic.multicast_fraction; }},
      {"traffic.multicast_destinations",
       [](const Val& v, Config& c) { c.traffic.multicast_destinations = to_int(v); },
       [](const Config& c) -> Json { return c.traffic.multicast_destinations; }},
      {"traffic.software_multicast",
       [](const Val& v, Config& c) {
         c.traffic.software_multicast =
             to_enum<SoftwareMulticastScheme>(v, "software multicast scheme");
       },
       [](const Config& c) -> Json { return to_string(c.traffic.software_multicast); }},
      {"traffic.software_forward_cycles",
       [](const Val& v, Config& c) { c.traffic.software_forward_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.traffic.software_forward_cycles; }},
      {"traffic.multicast_pattern",
       [](const Val& v, Config& c) {
         c.traffic.multicast_pattern = to_enum<MulticastPattern>(v, "multicast pattern");
       },
       [](const Config& c) -> Json { return to_string(c.traffic.multicast_pattern); }},
      {"traffic.hotspot.nodes",
       [](const Val& v, Config& c) {
         c.traffic.hotspot.nodes = to_list<NodeId>(v, "node ids", to_node);
       },
       [](const Config& c) -> Json { return c.traffic.hotspot.nodes; }},
      {"traffic.hotspot.fraction",
       [](const Val& v, Config& c) { c.traffic.hotspot.fraction = to_double(v); },
       [](const Config& c) -> Json { return c.traffic.hotspot.fraction; }},
      {"traffic.seed", [](const Val& v, Config& c) { c.traffic.seed = to_cycles(v); },
       [](const Config& c) -> Json { return c.traffic.seed; }},
      {"simulation.warmup_cycles",
       [](const Val& v, Config& c) { c.simulation.warmup_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.simulation.warmup_cycles; }},
      {"simulation.measure_cycles",
       [](const Val& v, Config& c) { c.simulation.measure_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.simulation.measure_cycles; }},
      {"simulation.drain_max_cycles",
       [](const Val& v, Config& c) { c.simulation.drain_max_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.simulation.drain_max_cycles; }},
      {"simulation.watchdog_cycles",
       [](const Val& v, Config& c) { c.simulation.watchdog_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.simulation.watchdog_cycles; }},
      {"simulation.progress_interval",
       [](const Val& v, Config& c) { c.simulation.progress_interval = to_cycles(v); },
       [](const Config& c) -> Json { return c.simulation.progress_interval; }},
      {"simulation.threads", [](const Val& v, Config& c) { c.simulation.threads = to_int(v); },
       [](const Config& c) -> Json { return c.simulation.threads; }},
      {"simulation.parallel_min_routers",
       [](const Val& v, Config& c) { c.simulation.parallel_min_routers = to_int(v); },
       [](const Config& c) -> Json { return c.simulation.parallel_min_routers; }},
      {"simulation.cache_hints",
       [](const Val& v, Config& c) {
         c.simulation.cache_hints = to_enum<CacheHints>(v, "cache hints setting");
       },
       [](const Config& c) -> Json { return to_string(c.simulation.cache_hints); }},
      {"simulation.engine",
       [](const Val& v, Config& c) { c.simulation.engine = to_enum<Engine>(v, "engine"); },
       [](const Config& c) -> Json { return to_string(c.simulation.engine); }},
      {"node.alpha_cycles", [](const Val& v, Config& c) { c.node.alpha_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.node.alpha_cycles; }},
      {"node.gamma_cycles", [](const Val& v, Config& c) { c.node.gamma_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.node.gamma_cycles; }},
      {"node.send_packet_cycles",
       [](const Val& v, Config& c) { c.node.send_packet_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.node.send_packet_cycles; }},
      {"node.receive_packet_cycles",
       [](const Val& v, Config& c) { c.node.receive_packet_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.node.receive_packet_cycles; }},
      {"node.send_mode",
       [](const Val& v, Config& c) { c.node.send_mode = to_enum<SendMode>(v, "send mode"); },
       [](const Config& c) -> Json { return to_string(c.node.send_mode); }},
      {"node.max_packet_bytes",
       [](const Val& v, Config& c) { c.node.max_packet_bytes = to_int(v); },
       [](const Config& c) -> Json { return c.node.max_packet_bytes; }},
      {"node.header_bytes", [](const Val& v, Config& c) { c.node.header_bytes = to_int(v); },
       [](const Config& c) -> Json { return c.node.header_bytes; }},
      {"node.combine_cycles_per_element",
       [](const Val& v, Config& c) { c.node.combine_cycles_per_element = to_cycles(v); },
       [](const Config& c) -> Json { return c.node.combine_cycles_per_element; }},
      {"node.tx_queue_depth", [](const Val& v, Config& c) { c.node.tx_queue_depth = to_int(v); },
       [](const Config& c) -> Json { return c.node.tx_queue_depth; }},
      {"collective.algorithms",
       [](const Val& v, Config& c) {
         c.collective.algorithms = to_list<CollectiveAlgorithm>(
             v, "algorithm names",
             [](const Val& e) { return to_enum<CollectiveAlgorithm>(e, "algorithm"); });
       },
       [](const Config& c) -> Json {
         Json j = Json::array();
         for (CollectiveAlgorithm a : c.collective.algorithms) j.push_back(to_string(a));
         return j;
       }},
      {"collective.message_bytes",
       [](const Val& v, Config& c) {
         c.collective.message_bytes = to_list<std::uint32_t>(v, "sizes in bytes", [](const Val& e) {
           return static_cast<std::uint32_t>(
               to_unsigned(e, std::numeric_limits<std::uint32_t>::max()));
         });
       },
       [](const Config& c) -> Json { return c.collective.message_bytes; }},
      {"collective.roots",
       [](const Val& v, Config& c) {
         c.collective.roots = to_enum<RootSelection>(v, "root selection");
       },
       [](const Config& c) -> Json { return to_string(c.collective.roots); }},
      {"collective.root", [](const Val& v, Config& c) { c.collective.root = to_node(v); },
       [](const Config& c) -> Json { return c.collective.root; }},
      {"collective.sample", [](const Val& v, Config& c) { c.collective.sample = to_int(v); },
       [](const Config& c) -> Json { return c.collective.sample; }},
      {"collective.destinations",
       [](const Val& v, Config& c) {
         c.collective.destinations = to_list<NodeId>(v, "node ids", to_node);
       },
       [](const Config& c) -> Json { return c.collective.destinations; }},
      {"collective.random_destinations",
       [](const Val& v, Config& c) { c.collective.random_destinations = to_int(v); },
       [](const Config& c) -> Json { return c.collective.random_destinations; }},
      {"collective.peer", [](const Val& v, Config& c) { c.collective.peer = to_int(v); },
       [](const Config& c) -> Json { return c.collective.peer; }},
      {"collective.seed", [](const Val& v, Config& c) { c.collective.seed = to_cycles(v); },
       [](const Config& c) -> Json { return c.collective.seed; }},
      {"collective.reduce_op",
       [](const Val& v, Config& c) {
         c.collective.reduce_op = to_enum<ReduceOp>(v, "reduction operator");
       },
       [](const Config& c) -> Json { return to_string(c.collective.reduce_op); }},
      {"collective.reduce_type",
       [](const Val& v, Config& c) {
         c.collective.reduce_type = to_enum<ReduceType>(v, "element type");
       },
       [](const Config& c) -> Json { return to_string(c.collective.reduce_type); }},
      {"collective.split_gamma",
       [](const Val& v, Config& c) { c.collective.split_gamma = to_double(v); },
       [](const Config& c) -> Json { return c.collective.split_gamma; }},
      {"collective.segments", [](const Val& v, Config& c) { c.collective.segments = to_int(v); },
       [](const Config& c) -> Json { return c.collective.segments; }},
      {"collective.background.load",
       [](const Val& v, Config& c) { c.collective.background.load = to_double(v); },
       [](const Config& c) -> Json { return c.collective.background.load; }},
      {"collective.background.packet_length",
       [](const Val& v, Config& c) { c.collective.background.packet_length = to_int(v); },
       [](const Config& c) -> Json { return c.collective.background.packet_length; }},
      {"collective.background.pattern",
       [](const Val& v, Config& c) {
         c.collective.background.pattern = to_enum<TrafficPattern>(v, "traffic pattern");
       },
       [](const Config& c) -> Json { return to_string(c.collective.background.pattern); }},
      {"collective.background.warmup_cycles",
       [](const Val& v, Config& c) { c.collective.background.warmup_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.collective.background.warmup_cycles; }},
      {"collective.background.seed",
       [](const Val& v, Config& c) { c.collective.background.seed = to_cycles(v); },
       [](const Config& c) -> Json { return c.collective.background.seed; }},
      {"trace.enabled", [](const Val& v, Config& c) { c.trace.enabled = to_bool(v); },
       [](const Config& c) -> Json { return c.trace.enabled; }},
      {"trace.routers",
       [](const Val& v, Config& c) { c.trace.routers = to_list<NodeId>(v, "router ids", to_node); },
       [](const Config& c) -> Json { return c.trace.routers; }},
      {"trace.file", [](const Val& v, Config& c) { c.trace.file = to_nonempty_string(v); },
       [](const Config& c) -> Json { return c.trace.file; }},
      {"trace.window_cycles", [](const Val& v, Config& c) { c.trace.window_cycles = to_cycles(v); },
       [](const Config& c) -> Json { return c.trace.window_cycles; }},
      {"trace.timeline", [](const Val& v, Config& c) { c.trace.timeline = to_bool(v); },
       [](const Config& c) -> Json { return c.trace.timeline; }},
      {"trace.rtl_vcd", [](const Val& v, Config& c) { c.trace.rtl_vcd = to_bool(v); },
       [](const Config& c) -> Json { return c.trace.rtl_vcd; }},
  };
  return fields;
}

const Field* find_field(const std::string& path) {
  for (const Field& f : schema())
    if (path == f.path) return &f;
  return nullptr;
}

struct Child {
  std::string name;
  bool section;  // true: a map of further keys; false: a leaf value
};

// The keys directly under `prefix` ("" = top level), in schema order.
std::vector<Child> children_of(const std::string& prefix) {
  std::vector<Child> out;
  for (const Field& f : schema()) {
    std::string_view rest = f.path;
    if (!prefix.empty()) {
      if (rest.size() <= prefix.size() || rest.compare(0, prefix.size(), prefix) != 0 ||
          rest[prefix.size()] != '.')
        continue;
      rest.remove_prefix(prefix.size() + 1);
    }
    const std::size_t dot = rest.find('.');
    const std::string name(rest.substr(0, dot));
    if (std::none_of(out.begin(), out.end(), [&](const Child& c) { return c.name == name; }))
      out.push_back({name, dot != std::string_view::npos});
  }
  return out;
}

std::string join_path(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string last_component(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// " (did you mean 'x'?)" for a mistyped or misplaced key, or "". `path` is the full dotted
// path that was given, `candidates` the names that are valid where it was given.
std::string suggestion(const std::string& path, const std::vector<std::string>& candidates,
                       bool candidates_are_paths) {
  const std::string name = last_component(path);
  // Misplaced: the same name exists elsewhere (as a leaf or as a section).
  for (const Field& f : schema()) {
    const std::string_view full = f.path;
    for (std::size_t end = full.find('.');; end = full.find('.', end + 1)) {
      const std::string known(full.substr(0, end));
      if (last_component(known) == name && known != path)
        return fmt::format(" (did you mean '{}'?)", known);
      if (end == std::string_view::npos) break;
    }
  }
  const std::string& typed = candidates_are_paths ? path : name;
  const std::string* best = nullptr;
  std::size_t best_distance = std::max<std::size_t>(2, typed.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best_distance = d;
      best = &c;
    }
  }
  return best ? fmt::format(" (did you mean '{}'?)", *best) : std::string();
}

// ---------------------------------------------------------------------------------------------
// Document walk and overrides.

// Checks the map `node` at section `prefix` against the schema and records its leaves.
void collect(const YAML::Node& node, const std::string& prefix, const std::string& source,
             Entries& entries) {
  const std::vector<Child> kids = children_of(prefix);
  std::vector<std::string> names;
  for (const Child& k : kids) names.push_back(k.name);
  if (node.IsNull()) return;  // "network:" with nothing under it: all defaults
  if (!node.IsMap()) {
    throw ConfigError(
        prefix.empty() ? kDocumentKey : prefix,
        fmt::format("expected a map with the keys {}, got {}", join(names, ", "), describe(node)),
        line_of(node), source);
  }
  std::vector<std::pair<std::string, int>> seen;  // key -> line
  for (const auto& item : node) {  // (it->first would dangle: yaml-cpp's -> yields a proxy)
    const YAML::Node& key = item.first;
    const int line = line_of(key);
    if (!key.IsScalar())
      throw ConfigError(prefix.empty() ? kDocumentKey : prefix,
                        fmt::format("keys must be plain names, got {}", describe(key)), line,
                        source);
    const std::string path = join_path(prefix, key.Scalar());
    for (const auto& [name, first_line] : seen)
      if (name == key.Scalar())
        throw ConfigError(path, fmt::format("duplicate key (first given on line {})", first_line),
                          line, source);
    seen.emplace_back(key.Scalar(), line);
    const auto kid = std::find_if(kids.begin(), kids.end(),
                                  [&](const Child& k) { return k.name == key.Scalar(); });
    if (kid == kids.end()) {
      throw ConfigError(
          path,
          fmt::format("unknown key{}; allowed {}: {}", suggestion(path, names, false),
                      prefix.empty() ? "top-level keys" : "keys in " + prefix, join(names, ", ")),
          line, source);
    }
    if (kid->section)
      collect(item.second, path, source, entries);
    else
      entries.emplace_back(path, Entry{item.second, true, line, source, ""});
  }
}

std::string trim(std::string_view s) {
  const auto space = [](char ch) { return ch == ' ' || ch == '\t'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// Applies one "a.b.c=value" override on top of `entries`.
void apply_override(const std::string& text, Entries& entries) {
  const std::size_t eq = text.find('=');
  const std::string key = eq == std::string::npos ? std::string() : trim(text.substr(0, eq));
  if (key.empty())
    throw ConfigError(text.empty() ? "''" : text,
                      "malformed override: expected KEY=VALUE, e.g. --set network.router.vcs=2", 0,
                      kSetSource);
  const std::string value_text = text.substr(eq + 1);
  const std::string note = fmt::format(" (from --set {})", text);
  if (!find_field(key)) {
    const std::vector<Child> kids = children_of(key);
    if (!kids.empty())
      throw ConfigError(key,
                        fmt::format("is a section; set its keys one by one, e.g. --set {}.{}=...{}",
                                    key, kids.front().name, note),
                        0, kSetSource);
    std::vector<std::string> paths;
    for (const Field& f : schema()) paths.emplace_back(f.path);
    throw ConfigError(key,
                      fmt::format("unknown key in --set {}{}; docs/config.md lists the keys", text,
                                  suggestion(key, paths, true)),
                      0, kSetSource);
  }
  const YAML::Node value = [&] {
    try {
      return YAML::Load(value_text);
    } catch (const YAML::Exception& e) {
      throw ConfigError(
          key, fmt::format("cannot parse the value '{}' as YAML: {}{}", value_text, e.msg, note), 0,
          kSetSource);
    }
  }();
  // Rebuilt rather than erased from: erase() assigns elements, and assigning a YAML::Node
  // overwrites the node it refers to (inside the document) instead of rebinding it.
  Entries kept;
  for (const auto& entry : entries)
    if (entry.first != key) kept.push_back(entry);
  kept.emplace_back(key, Entry{value, false, 0, kSetSource, note});
  entries.swap(kept);
}

// Re-throws an error of Config::validate() (which knows only the key path) located at the
// entry that set that key: its line and source, or "--set".
ConfigError locate(const ConfigError& e, const Entries& entries, const std::string& source) {
  const std::string& key = e.key();
  // validate() throws ConfigError(key, message) whose what() is "key: message".
  std::string message = e.what();
  if (message.compare(0, key.size() + 2, key + ": ") == 0) message.erase(0, key.size() + 2);
  const std::size_t bracket = key.find('[');
  const Entry* entry = find_entry(entries, key.substr(0, bracket));
  if (!entry) return ConfigError(key, message + " (not set, so the default applies)", 0, source);
  if (!entry->from_file) return ConfigError(key, message + entry->note, 0, entry->source);
  int line = entry->key_line;
  if (bracket != std::string::npos && entry->value.IsSequence()) {
    std::size_t index = 0;
    const char* first = key.data() + bracket + 1;
    const auto [ptr, ec] = std::from_chars(first, key.data() + key.size(), index);
    const YAML::Node& seq = entry->value;
    if (ec == std::errc() && *ptr == ']' && index < seq.size()) {
      const int element_line = line_of(seq[index]);
      if (element_line > 0) line = element_line;
    }
  }
  return ConfigError(key, message, line, entry->source);
}

// How many YAML documents `text` holds, counting to two. Not YAML::LoadAll: yaml-cpp 0.7
// (Debian 12) loops forever, allocating, on some malformed input such as a stray "," line
// (jbeder/yaml-cpp#1040, fixed upstream by #1319); its parser reports such input as one more
// (empty) document per call, so counting stops the loop and the input is an error here.
struct DocumentCount {
  int documents = 0;
  int second_line = 0;  // 1-based
};
class DocumentCounter : public YAML::EventHandler {
 public:
  DocumentCount count;
  // The second document's line is that of its first node (else of its start marker).
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++count.documents == 2) start_line_ = mark.is_null() ? 0 : mark.line + 1;
  }
  void OnDocumentEnd() override {
    if (count.documents == 2 && count.second_line == 0) count.second_line = start_line_;
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark) {
    if (count.documents == 2 && count.second_line == 0 && !mark.is_null())
      count.second_line = mark.line + 1;
  }
  int start_line_ = 0;
};
DocumentCount count_documents(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentCounter counter;
  while (counter.count.documents < 2 && parser.HandleNextDocument(counter)) {
  }
  return counter.count;
}

}  // namespace

Config load_config(const std::string& yaml_text, const std::string& source,
                   const std::vector<std::string>& overrides, const ConfigCheck& extra_check,
                   std::vector<GivenKey>* given_keys) {
  YAML::Node document;
  try {
    const DocumentCount count = count_documents(yaml_text);
    if (count.documents > 1)
      throw ConfigError(kYamlKey, "expected one YAML document; a second one starts here",
                        count.second_line, source);
    if (count.documents == 1) document = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(kYamlKey, fmt::format("invalid YAML: {}", e.msg),
                      e.mark.is_null() ? 0 : e.mark.line + 1, source);
  }

  Entries entries;
  if (document) collect(document, "", source, entries);
  for (const std::string& o : overrides) apply_override(o, entries);

  Config c;
  for (const auto& [path, entry] : entries)
    find_field(path)->read(Val(entry.value, path, entry.key_line, entry), c);
  // Convenience (docs/config.md): a hypercube routes with e-cube unless told otherwise.
  if (c.network.topology.kind == TopologyKind::kHypercube &&
      !find_entry(entries, "network.routing.algorithm"))
    c.network.routing.algorithm = RoutingAlgorithm::kEcube;

  // A machine preset sets the clock period and flit width; giving either as well, with a
  // different value, is ambiguous and an error naming the key. (Equal values are accepted,
  // so a resolved config, e.g. from results.json, loads back.)
  try {
    if (c.machine.preset != kNoPreset) {
      const Config given = c;
      apply_machine_preset(c);
      if (find_entry(entries, "network.clock_period_ns") &&
          given.network.clock_period_ns != c.network.clock_period_ns)
        throw ConfigError(
            "network.clock_period_ns",
            fmt::format("is set by machine.preset '{}' ({} ns); remove one of the two",
                        c.machine.preset, c.network.clock_period_ns));
      if (find_entry(entries, "network.flit_bytes") &&
          given.network.flit_bytes != c.network.flit_bytes)
        throw ConfigError(
            "network.flit_bytes",
            fmt::format("is set by machine.preset '{}' ({} bytes); remove one of the two",
                        c.machine.preset, c.network.flit_bytes));
      const std::pair<const char*, std::pair<long long, long long>> node_keys[] = {
          {"node.alpha_cycles",
           {static_cast<long long>(given.node.alpha_cycles),
            static_cast<long long>(c.node.alpha_cycles)}},
          {"node.gamma_cycles",
           {static_cast<long long>(given.node.gamma_cycles),
            static_cast<long long>(c.node.gamma_cycles)}},
          {"node.send_packet_cycles",
           {static_cast<long long>(given.node.send_packet_cycles),
            static_cast<long long>(c.node.send_packet_cycles)}},
          {"node.receive_packet_cycles",
           {static_cast<long long>(given.node.receive_packet_cycles),
            static_cast<long long>(c.node.receive_packet_cycles)}},
          {"node.max_packet_bytes", {given.node.max_packet_bytes, c.node.max_packet_bytes}},
          {"node.header_bytes", {given.node.header_bytes, c.node.header_bytes}}};
      for (const auto& [key, values] : node_keys)
        if (find_entry(entries, key) && values.first != values.second)
          throw ConfigError(key, fmt::format("is set by machine.preset '{}' ({}); remove one of "
                                             "the two",
                                             c.machine.preset, values.second));
    }
    c.validate();
    if (extra_check) extra_check(c);
  } catch (const ConfigError& e) {
    throw locate(e, entries, source);
  }
  if (given_keys != nullptr) {
    given_keys->clear();
    for (const auto& [path, entry] : entries)
      given_keys->push_back({path, entry.source, entry.key_line});
  }
  return c;
}

Config load_config_file(const std::string& path, const std::vector<std::string>& overrides,
                        const ConfigCheck& extra_check, std::vector<GivenKey>* given) {
  // Only regular files (or links to them): reading a named pipe would block until a writer
  // comes, a device may never end.
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  switch (st.type()) {
    case std::filesystem::file_type::directory:
      throw ConfigError("<file>", "is a directory, not a YAML file", 0, path);
    case std::filesystem::file_type::fifo:
      throw ConfigError("<file>",
                        "is a named pipe (FIFO), not a regular file; write the config "
                        "to a file and give that",
                        0, path);
    case std::filesystem::file_type::block:
    case std::filesystem::file_type::character:
    case std::filesystem::file_type::socket:
    case std::filesystem::file_type::unknown:
      throw ConfigError("<file>", "is not a regular file (a device or socket); give a YAML file", 0,
                        path);
    default: break;  // regular, or missing / unreadable: opening reports why
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw ConfigError("<file>",
                      err != 0 ? "cannot open: " + std::generic_category().message(err)
                               : std::string("cannot open"),
                      0, path);
  }
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw ConfigError("<file>", "read error", 0, path);
  return load_config(text, path, overrides, extra_check, given);
}

nlohmann::json to_json(const Config& c) {
  Json j = Json::object();
  for (const Field& f : schema()) {
    std::string pointer = std::string("/") + f.path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    j[Json::json_pointer(pointer)] = f.write(c);
  }
  return j;
}

}  // namespace wormsim

namespace wormsim {
namespace {

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Why `key` is not read by a run of `c`, or "" when it is. One rule per key or section; the
// first that applies wins, so the reason names the most general cause (the workload first).
std::string unused_reason(const Config& c, const std::string& key) {
  const bool synthetic = c.workload == Workload::kSynthetic;
  const TopologyKind kind = c.network.topology.kind;
  const RouterConfig& r = c.network.router;
  const CollectiveConfig& col = c.collective;
  const auto has = [&](CollectiveAlgorithm a) {
    return std::find(col.algorithms.begin(), col.algorithms.end(), a) != col.algorithms.end();
  };
  // The workload.
  if (synthetic && (starts_with(key, "collective.") || starts_with(key, "node.")))
    return "workload is synthetic; collective.* and node.* configure collective runs "
           "(workload: collective)";
  if (synthetic && key == "trace.timeline")
    return "workload is synthetic; only collective runs write the message timeline";
  if (!synthetic && starts_with(key, "traffic."))
    return "workload is collective; traffic.* configures synthetic runs (workload: synthetic)";
  if (!synthetic && (key == "simulation.warmup_cycles" || key == "simulation.measure_cycles" ||
                     key == "simulation.drain_max_cycles"))
    return "workload is collective: the run lasts until its operations end; warm-up, "
           "measurement window and drain are phases of synthetic runs (workload: synthetic). "
           "To keep a traced collective run short, use trace.window_cycles, or fewer "
           "collective.message_bytes and roots";
  // Tracing.
  if (!c.trace.enabled && starts_with(key, "trace.") && key != "trace.enabled" &&
      key != "trace.timeline")
    return "trace.enabled is false (turn it on, or run with --trace)";
  if (key == "trace.rtl_vcd" && r.implementation == RouterImplementation::kSystemC)
    return "network.router.implementation is systemc; only RTL routers write FST waves to convert";
  // The network.
  if (key == "network.hypercube_dimension" && kind != TopologyKind::kHypercube)
    return fmt::format("network.topology is {}; the size is network.dims", to_string(kind));
  if ((key == "network.dims" || key == "network.routing.order") && kind == TopologyKind::kHypercube)
    return key == "network.dims"
               ? "network.topology is hypercube; the size is network.hypercube_dimension"
               : "network.topology is hypercube; e-cube resolves dimensions by "
                 "network.routing.ecube_order";
  if (key == "network.routing.ecube_order" && kind != TopologyKind::kHypercube)
    return fmt::format("network.topology is {}; only hypercubes route by e-cube order",
                       to_string(kind));
  if (key == "network.routing.dateline" && kind != TopologyKind::kTorus)
    return fmt::format("network.topology is {}; dateline classes exist only on a torus",
                       to_string(kind));
  if (key == "network.router.ports" && r.port_model != PortModel::kKPort)
    return fmt::format("network.router.port_model is {}; ports sets k of k_port",
                       to_string(r.port_model));
  if ((key == "network.router.replication" || key == "network.router.header_encoding" ||
       key == "network.router.path_ir" || key == "network.router.header_decode" ||
       key == "network.router.multidest_vcs" || key == "network.router.replication_flow") &&
      r.multidest == MultidestMode::kNone)
    return "network.router.multidest is none; it configures multidestination worms";
  if (key == "network.router.rtl_nodes" && r.implementation == RouterImplementation::kSystemC)
    return "network.router.implementation is systemc; rtl_nodes picks the nodes of an rtl "
           "network";
  // Synthetic traffic.
  const bool hotspot_worms =
      c.traffic.multicast_fraction > 0 && c.traffic.multicast_pattern == MulticastPattern::kHotspot;
  if (synthetic && key == "traffic.hotspot.nodes" &&
      c.traffic.pattern != TrafficPattern::kHotspot && !hotspot_worms)
    return fmt::format(
        "traffic.pattern is {} and no hotspot multicast: hotspot.nodes is used by pattern "
        "hotspot and multicast_pattern hotspot",
        to_string(c.traffic.pattern));
  if (synthetic && key == "traffic.hotspot.fraction" &&
      c.traffic.pattern != TrafficPattern::kHotspot)
    return fmt::format("traffic.pattern is {}; hotspot.fraction is used by pattern hotspot",
                       to_string(c.traffic.pattern));
  if (synthetic &&
      (key == "traffic.multicast_destinations" || key == "traffic.multicast_pattern") &&
      c.traffic.multicast_fraction == 0)
    return "traffic.multicast_fraction is 0: no multidestination worms";
  if (synthetic &&
      (key == "traffic.software_multicast" || key == "traffic.software_forward_cycles")) {
    if (r.multidest != MultidestMode::kNone)
      return fmt::format(
          "network.router.multidest is {}: multicasts are multidestination worms, not "
          "software trees",
          to_string(r.multidest));
    if (c.traffic.multicast_fraction == 0) return "traffic.multicast_fraction is 0: no multicasts";
    if (key == "traffic.software_forward_cycles" &&
        c.traffic.software_multicast == SoftwareMulticastScheme::kSeparateAddressing)
      return "traffic.software_multicast is separate_addressing: no node forwards";
  }
  // Collective operations.
  if (!synthetic) {
    const bool only_ping_pong =
        std::all_of(col.algorithms.begin(), col.algorithms.end(),
                    [](CollectiveAlgorithm a) { return a == CollectiveAlgorithm::kPingPong; });
    if (key == "collective.root" && col.roots != RootSelection::kOne)
      return fmt::format("collective.roots is {}; root is the root of roots: one",
                         to_string(col.roots));
    if (key == "collective.sample" && col.roots != RootSelection::kSample)
      return fmt::format("collective.roots is {}; sample is the count of roots: sample",
                         to_string(col.roots));
    const bool reduces = std::any_of(col.algorithms.begin(), col.algorithms.end(), [](auto a) {
      return kind_of(a) == CollectiveKind::kReduce || kind_of(a) == CollectiveKind::kAllreduce;
    });
    if ((key == "collective.reduce_op" || key == "collective.reduce_type" ||
         key == "node.combine_cycles_per_element") &&
        !reduces)
      return "collective.algorithms has no reduction; it configures reduce and allreduce";
    if (key == "collective.split_gamma" && !has(CollectiveAlgorithm::kO2aLogpLevRec) &&
        !has(CollectiveAlgorithm::kA2oLogpLevRec))
      return "collective.algorithms has no o2a_logp_lev_rec or a2o_logp_lev_rec; split_gamma "
             "is their gamma";
    if (key == "collective.segments" && !has(CollectiveAlgorithm::kFibonacciTree))
      return "collective.algorithms has no fibonacci_tree; segments is its k";
    if (key == "collective.peer" && !has(CollectiveAlgorithm::kPingPong))
      return "collective.algorithms has no ping_pong; peer is its partner";
    if ((key == "collective.destinations" || key == "collective.random_destinations") &&
        only_ping_pong)
      return "collective.algorithms is only ping_pong, which sends to collective.peer";
    if (starts_with(key, "collective.background.") && key != "collective.background.load" &&
        col.background.load == 0)
      return "collective.background.load is 0: no background traffic";
    if (key == "collective.seed" && col.roots != RootSelection::kSample &&
        col.random_destinations == 0)
      return fmt::format(
          "collective.roots is {} and random_destinations 0: nothing is drawn at "
          "random",
          to_string(col.roots));
  }
  return {};
}

}  // namespace

std::vector<UnusedKey> unused_keys(const Config& config, const std::vector<GivenKey>& given) {
  std::vector<UnusedKey> out;
  for (const GivenKey& g : given) {
    std::string reason = unused_reason(config, g.key);
    if (!reason.empty()) out.push_back({g, std::move(reason)});
  }
  return out;
}

std::string text(const UnusedKey& u) {
  const GivenKey& w = u.where;
  return fmt::format("{}:{} {}: not used: {}", w.source,
                     w.line > 0 ? fmt::format("{}:", w.line) : std::string(), w.key, u.reason);
}

}  // namespace wormsim
