// Queries (BEGIN_QUERY / END_QUERY) on GL: GL_SAMPLES_PASSED counts and GL_TIMESTAMP times,
// read when the FENCE that follows their END completes (the GL work is done by then) and stored
// into the channel's query_results before that fence is completed.
//
// GL allows one active GL_SAMPLES_PASSED query at a time while D3D9's occlusion queries overlap,
// so, as in the Vulkan plugin, a slot's count is the sum of segments: a new GL query begins
// whenever the set of counting slots changes, shared by every slot counting during it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "novem/channel.hpp"
#include "novem_gl.h"

namespace novem_gl {

class Queries {
public:
  explicit Queries(const NovemGL &gl) : gl_(gl) {}

  void begin_occlusion(uint32_t slot); // starts (or restarts) counting for slot
  void end_occlusion(uint32_t slot);   // stops it; 0 when it never counted
  void timestamp(uint32_t slot);
  // A FENCE was issued: every query ended so far is answered when it completes.
  void fence_issued(uint64_t value);
  // Fence `value` completed: stores the answers that came with it.
  void resolve(uint64_t value, nv_channel &channel);
  void clear(); // deletes every GL query object; the context must be current

private:
  struct Segment {
    explicit Segment(const NovemGL &api) : gl(api) { gl.GenQueries(1, &name); }
    ~Segment() { gl.DeleteQueries(1, &name); }
    const NovemGL &gl;
    GLuint name = 0;
    bool read = false;
    uint64_t samples = 0;
  };
  struct Counting {
    uint32_t slot;
    std::vector<std::shared_ptr<Segment>> segments;
  };
  struct Answer {
    uint32_t slot;
    uint64_t fence = 0; // 0: no fence issued after it yet
    std::vector<std::shared_ptr<Segment>> segments; // occlusion: summed
    std::shared_ptr<Segment> time;                  // timestamp
  };
  void next_segment(); // ends the running GL query; begins one when some slot counts

  const NovemGL &gl_;
  std::vector<Counting> counting_;
  std::shared_ptr<Segment> open_;
  std::deque<Answer> answers_;
};

} // namespace novem_gl
