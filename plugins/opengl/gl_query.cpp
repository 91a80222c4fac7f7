#include "gl_query.hpp"

#include <algorithm>

#include "gl_executor.hpp"
#include "gl_log.hpp"

namespace novem_gl {

void Queries::next_segment() {
  if (open_) {
    gl_.EndQuery(GL_SAMPLES_PASSED);
    for (Counting &c : counting_) c.segments.push_back(open_);
    open_.reset();
  }
}

void Queries::begin_occlusion(uint32_t slot) {
  next_segment();
  auto it = std::find_if(counting_.begin(), counting_.end(), [&](const Counting &c) { return c.slot == slot; });
  if (it != counting_.end()) it->segments.clear();
  else counting_.push_back(Counting{slot, {}});
  open_ = std::make_shared<Segment>(gl_);
  gl_.BeginQuery(GL_SAMPLES_PASSED, open_->name);
}

void Queries::end_occlusion(uint32_t slot) {
  next_segment();
  Answer answer{slot};
  auto it = std::find_if(counting_.begin(), counting_.end(), [&](const Counting &c) { return c.slot == slot; });
  if (it != counting_.end()) {
    answer.segments = std::move(it->segments);
    counting_.erase(it);
  }
  answers_.push_back(std::move(answer));
  if (!counting_.empty()) {
    open_ = std::make_shared<Segment>(gl_);
    gl_.BeginQuery(GL_SAMPLES_PASSED, open_->name);
  }
}

void Queries::timestamp(uint32_t slot) {
  Answer answer{slot};
  answer.time = std::make_shared<Segment>(gl_);
  gl_.QueryCounter(answer.time->name, GL_TIMESTAMP);
  answers_.push_back(std::move(answer));
}

void Queries::fence_issued(uint64_t value) {
  for (auto it = answers_.rbegin(); it != answers_.rend() && it->fence == 0; ++it) it->fence = value;
}

void Queries::resolve(uint64_t value, nv_channel &channel) {
  const bool lost = channel.device_lost.load(std::memory_order_relaxed);
  while (!answers_.empty() && answers_.front().fence != 0 && answers_.front().fence <= value) {
    Answer &a = answers_.front();
    uint64_t result = 0;
    if (a.time) {
      if (!lost) gl_.GetQueryObjectui64v(a.time->name, GL_QUERY_RESULT, &result); // nanoseconds
    } else {
      for (const auto &s : a.segments) {
        if (!s->read && !lost) gl_.GetQueryObjectui64v(s->name, GL_QUERY_RESULT, &s->samples);
        s->read = true;
        result += s->samples;
      }
    }
    channel.query_results[a.slot].store(result, std::memory_order_relaxed);
    answers_.pop_front();
  }
}

void Queries::clear() {
  if (open_) gl_.EndQuery(GL_SAMPLES_PASSED);
  open_.reset();
  counting_.clear();
  answers_.clear();
}

// ---- the executor's query commands ----

void Executor::begin_query(const nv_cmd_begin_query &a, const nv_cmd_header *) {
  if (const char *why = novem::checks::begin_query(a)) return violations_.report(NV_OP_BEGIN_QUERY, why);
  queries_.begin_occlusion(a.slot);
}

void Executor::end_query(const nv_cmd_end_query &a, const nv_cmd_header *) {
  if (const char *why = novem::checks::end_query(a)) return violations_.report(NV_OP_END_QUERY, why);
  if (a.type == NV_QUERY_OCCLUSION) queries_.end_occlusion(a.slot);
  else queries_.timestamp(a.slot);
  unflushed_ = true;
}

} // namespace novem_gl
