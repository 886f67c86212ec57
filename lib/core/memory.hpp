#pragma once
// Owned, typed storage on one backend. No managed memory: host<->device copies are explicit.
#include <cstddef>
#include <utility>
#include <vector>

#include "backend.hpp"

namespace bolt {

void* allocate_bytes(Backend where, std::size_t bytes);
void free_bytes(Backend where, void* pointer) noexcept;
void copy_bytes(void* destination, Backend destination_backend, const void* source,
                Backend source_backend, std::size_t bytes);
void fill_zero_bytes(Backend where, void* pointer, std::size_t bytes);

// Page-locks a host range for its lifetime when `backend` is a GPU's: copies between the range
// and the GPU then run at the bus's rate, where a pageable copy is staged through the driver's
// buffer at a fraction of it. A CPU run pins nothing; where the driver refuses, the copies stay
// pageable (correct, slower). The range must outlive the object and not move while it lives.
class PinnedHostRange {
 public:
  PinnedHostRange() = default;
  PinnedHostRange(Backend backend, void* data, std::size_t bytes);
  ~PinnedHostRange();
  PinnedHostRange(const PinnedHostRange&) = delete;
  PinnedHostRange& operator=(const PinnedHostRange&) = delete;
  PinnedHostRange(PinnedHostRange&& other) noexcept : data_(std::exchange(other.data_, nullptr)) {}
  PinnedHostRange& operator=(PinnedHostRange&& other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  // Whether the range is page-locked: the driver refuses, for one, a range that shares a page
  // with one already locked.
  bool pinned() const { return data_ != nullptr; }

 private:
  void* data_ = nullptr;  // registered with the driver (null: nothing pinned)
};

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(Backend where, std::size_t size)
      : where_(where), size_(size),
        data_(static_cast<T*>(size ? allocate_bytes(where, size * sizeof(T)) : nullptr)) {}
  Buffer(Backend where, const std::vector<T>& host) : Buffer(where, host.size()) {
    upload(host);
  }
  ~Buffer() { free_bytes(where_, data_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    swap(other);
    return *this;
  }
  void swap(Buffer& other) noexcept {
    std::swap(where_, other.where_);
    std::swap(size_, other.size_);
    std::swap(data_, other.data_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  Backend where() const { return where_; }

  void upload(const std::vector<T>& host) { upload(host.data()); }
  void upload(const T* host) { copy_bytes(data_, where_, host, Backend::cpu, size_ * sizeof(T)); }
  void download(std::vector<T>& host) const {
    host.resize(size_);
    copy_bytes(host.data(), Backend::cpu, data_, where_, size_ * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> host;
    download(host);
    return host;
  }
  void set_zero() { fill_zero_bytes(where_, data_, size_ * sizeof(T)); }

 private:
  Backend where_ = Backend::cpu;
  std::size_t size_ = 0;
  T* data_ = nullptr;
};

}  // namespace bolt
