#pragma once
// Host copies of a GPU-sized state (1e8 to 1e9 values: a checkpoint's f, a restart's): their
// elements start uninitialised, so the host's threads that fill them are the first to touch
// their pages. A std::vector<double> of that size is zeroed by one thread first: a pass as long
// as the copy itself, on one core, with every page fault on that core.
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace bolt {

template <class T>
class UninitialisedAllocator : public std::allocator<T> {
 public:
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}

  // A value-initialisation (resize, the size constructor) leaves the element as it is.
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

using HostValues = std::vector<double, UninitialisedAllocator<double>>;

}  // namespace bolt
