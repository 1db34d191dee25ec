import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which sanitizer the tests run under, for the few bounds a sanitizer's own runtime changes.
enum Sanitizers {
    /// Whether AddressSanitizer's runtime is in this process (and so in the child processes built beside it): its
    /// allocator, shadow memory and per-thread stacks add megabytes to a process's resident set.
    static let isAddressSanitizerOn: Bool = {
        #if canImport(Glibc)
        return dlsym(nil, "__asan_init") != nil  // nil: RTLD_DEFAULT, every loaded object
        #else
        return false
        #endif
    }()
}
