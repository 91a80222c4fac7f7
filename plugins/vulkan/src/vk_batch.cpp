#include "vk_batch.hpp"

#include "novem/log.hpp"

#include <cstdio>

#include "vk_device.hpp"

namespace novem::vk {

BatchQueue::BatchQueue(const Device &device, nv_channel &channel) : device_(device), channel_(channel) {
  VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  ci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  ci.queueFamilyIndex = device.queue_family();
  check(device_.vk().CreateCommandPool(device.handle(), &ci, nullptr, &pool_), "vkCreateCommandPool");
}

BatchQueue::~BatchQueue() {
  drain();
  VkDevice dev = device_.handle();
  if (cmd_) free_.emplace_back(cmd_, cmd_fence_);
  if (uploads_) free_uploads_.push_back(uploads_);
  for (auto &[cmd, fence] : free_) {
    device_.vk().FreeCommandBuffers(dev, pool_, 1, &cmd);
    device_.vk().DestroyFence(dev, fence, nullptr);
  }
  for (VkCommandBuffer cmd : free_uploads_) device_.vk().FreeCommandBuffers(dev, pool_, 1, &cmd);
  device_.vk().DestroyCommandPool(dev, pool_, nullptr);
}

VkCommandBuffer BatchQueue::allocate_command_buffer() {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  check(device_.vk().AllocateCommandBuffers(device_.handle(), &ai, &cmd), "vkAllocateCommandBuffers");
  return cmd;
}

VkCommandBuffer BatchQueue::begin() {
  if (cmd_) return cmd_;
  VkDevice dev = device_.handle();
  if (free_.empty()) {
    VkCommandBuffer cmd = allocate_command_buffer();
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VkResult r = device_.vk().CreateFence(dev, &fi, nullptr, &fence);
    if (r < 0) {
      device_.vk().FreeCommandBuffers(dev, pool_, 1, &cmd);
      throw VkError(r, "vkCreateFence");
    }
    free_.emplace_back(cmd, fence);
  }
  auto [cmd, fence] = free_.back();
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(device_.vk().BeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
  free_.pop_back();
  cmd_ = cmd;
  cmd_fence_ = fence;
  return cmd_;
}

VkCommandBuffer BatchQueue::begin_uploads() {
  if (uploads_) return uploads_;
  begin(); // the batch's fence comes with its recording command buffer
  if (free_uploads_.empty()) free_uploads_.push_back(allocate_command_buffer());
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(device_.vk().BeginCommandBuffer(free_uploads_.back(), &bi), "vkBeginCommandBuffer");
  uploads_ = free_uploads_.back();
  free_uploads_.pop_back();
  return uploads_;
}

// A retired or failed batch's command buffers and fence go back to the free lists.
void BatchQueue::recycle(Batch &batch) {
  if (batch.uploads) free_uploads_.push_back(batch.uploads);
  if (batch.cmd) free_.emplace_back(batch.cmd, batch.fence);
  batch.cmd = batch.uploads = VK_NULL_HANDLE;
  batch.fence = VK_NULL_HANDLE;
}

void BatchQueue::on_complete(BatchId id, std::function<void()> fn) {
  // Nothing unrecorded can use a resource: the recording batch counts only once it has begun.
  if (!recording() && id >= recording_id_) id = recording_id_ - 1;
  if (id <= completed_id_) {
    fn();
    return;
  }
  callbacks_.push(id, std::move(fn));
}

void BatchQueue::submit(VkSemaphore wait, VkPipelineStageFlags2 wait_stage, VkSemaphore signal) {
  if (!cmd_) return;
  Batch batch{recording_id_, cmd_, cmd_fence_, uploads_, {}};
  cmd_ = VK_NULL_HANDLE;
  cmd_fence_ = VK_NULL_HANDLE;
  uploads_ = VK_NULL_HANDLE;
  ++recording_id_;
  VkResult r = batch.uploads ? device_.vk().EndCommandBuffer(batch.uploads) : VK_SUCCESS;
  if (r >= 0) r = device_.vk().EndCommandBuffer(batch.cmd);
  if (r >= 0 && !lost_) {
    // The uploads first: submission order orders them before the batch's other commands.
    VkCommandBufferSubmitInfo cbi[2] = {{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO},
                                        {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO}};
    uint32_t count = 0;
    if (batch.uploads) cbi[count++].commandBuffer = batch.uploads;
    cbi[count++].commandBuffer = batch.cmd;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = count;
    si.pCommandBufferInfos = cbi;
    VkSemaphoreSubmitInfo wait_info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait_info.semaphore = wait;
    wait_info.stageMask = wait_stage;
    VkSemaphoreSubmitInfo signal_info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal_info.semaphore = signal;
    signal_info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    si.waitSemaphoreInfoCount = wait ? 1 : 0;
    si.pWaitSemaphoreInfos = &wait_info;
    si.signalSemaphoreInfoCount = signal ? 1 : 0;
    si.pSignalSemaphoreInfos = &signal_info;
    r = device_.vk().QueueSubmit2(device_.queue(), 1, &si, batch.fence);
    novem::bump(channel_.submits);
  }
  if (r == VK_ERROR_DEVICE_LOST) device_lost();
  else if (r < 0 && !lost_) novem::process_logger().write(novem::LogLevel::error, "novem-vulkan", "submit: %s", VkError::result_name(r));
  // A batch that did not reach the GPU retires at once (in order, behind the ones in flight).
  if (r < 0) recycle(batch);
  pending_.push_back(std::move(batch));
}

void BatchQueue::signal(uint64_t value) {
  if (recording()) {
    BatchId id = recording_id_;
    submit();
    for (auto &b : pending_)
      if (b.id == id) b.values.push_back(value);
  } else if (!pending_.empty()) {
    pending_.back().values.push_back(value);
  } else {
    channel_.complete_fence(value);
  }
}

void BatchQueue::device_lost() {
  if (!lost_) novem::process_logger().write(novem::LogLevel::error, "novem-vulkan", "the Vulkan device was lost; completing fences without it");
  lost_ = true;
  channel_.device_lost.store(true, std::memory_order_release);
}

void BatchQueue::retire(Batch &batch) {
  completed_id_ = batch.id;
  callbacks_.release(batch.id);
  for (uint64_t v : batch.values) channel_.complete_fence(v);
}

bool BatchQueue::poll() {
  while (!pending_.empty()) {
    Batch &b = pending_.front();
    if (b.fence && !lost_) {
      VkResult r = device_.vk().GetFenceStatus(device_.handle(), b.fence);
      if (r == VK_NOT_READY) return true;
      if (r == VK_ERROR_DEVICE_LOST) device_lost();
    }
    if (b.fence) {
      device_.vk().ResetFences(device_.handle(), 1, &b.fence);
      device_.vk().ResetCommandBuffer(b.cmd, 0);
      if (b.uploads) device_.vk().ResetCommandBuffer(b.uploads, 0);
      recycle(b);
    }
    Batch done = std::move(b);
    pending_.pop_front();
    retire(done);
  }
  return false;
}

void BatchQueue::wait(uint64_t timeout_ns) {
  if (pending_.empty() || lost_) return;
  VkFence fence = pending_.front().fence;
  if (!fence) return;
  VkResult r = device_.vk().WaitForFences(device_.handle(), 1, &fence, VK_TRUE, timeout_ns);
  if (r == VK_ERROR_DEVICE_LOST) device_lost();
}

void BatchQueue::drain() {
  submit();
  while (poll()) wait(1000000000ull);
  callbacks_.release(~BatchId(0));
}

} // namespace novem::vk
