/// A short, stable fingerprint of some bytes (64-bit FNV-1a, in hex): the fixture's ETags, and the cache partition
/// that keeps one token's data apart from another's without writing the token itself to disk.
enum Fingerprint {
    /// The fingerprint of `bytes`, as 16 hex digits.
    static func hex(of bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
