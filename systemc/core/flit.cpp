#include "flit.h"

namespace wormsim {

std::string_view to_string(FlitType t) {
  switch (t) {
    case FlitType::kHead: return "head";
    case FlitType::kBody: return "body";
    case FlitType::kTail: return "tail";
    case FlitType::kHeadTail: return "head_tail";
  }
  return "?";
}

}  // namespace wormsim
