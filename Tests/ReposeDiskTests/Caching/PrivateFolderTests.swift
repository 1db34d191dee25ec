import Foundation
import Testing

@testable import Repose
@testable import ReposeStorage
@testable import ReposeTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cache folder as a hostile machine leaves it: open to others, owned by someone else, with symbolic links and
/// debris planted in it (rule T8).
@Suite("T8 a cache folder others could touch is tightened or refused", .hangLimit)
struct PrivateFolderTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("repose-folder-\(UUID().uuidString)")
    var folder: URL { root.appendingPathComponent("cache") }

    func entity(_ text: String) -> Entity<Any> {
        Entity<Any>(content: Data(text.utf8), contentType: "text/plain", timestamp: 1)
    }

    func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("T8 a folder that others could write to is tightened to 0700 and emptied before any entry is read")
    func openFolderIsTightenedAndEmptied() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        FileEntityCache(directory: folder).writeEntity(entity("planted"), forKey: "k")
        #expect(chmod(folder.path, 0o777) == 0)  // as if someone else had opened it up and planted the entry

        let cache = FileEntityCache(directory: folder)
        #expect(cache.readEntity(forKey: "k") == nil)
        #expect(try permissions(of: folder) == 0o700)
        #expect(names().isEmpty)
        cache.writeEntity(entity("mine"), forKey: "k")
        #expect(cache.readEntity(forKey: "k")?.content as? Data == Data("mine".utf8))
    }

    @Test("T8 a folder readable (not writable) by others is tightened to 0700 and its entries are kept")
    func readableFolderIsTightened() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        FileEntityCache(directory: folder).writeEntity(entity("mine"), forKey: "k")
        #expect(chmod(folder.path, 0o755) == 0)
        let cache = FileEntityCache(directory: folder)
        #expect(cache.readEntity(forKey: "k")?.content as? Data == Data("mine".utf8))
        #expect(try permissions(of: folder) == 0o700)
    }

    @Test(
        "T8 a folder owned by another user is refused: reads miss, writes are dropped, one log line says why",
        .enabled(if: geteuid() == 0, "needs root to give a folder to another user"))
    func foreignFolderIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        FileEntityCache(directory: folder).writeEntity(entity("theirs"), forKey: "k")
        #expect(chown(folder.path, 65534, 65534) == 0)
        let before = names()
        let cache = FileEntityCache(directory: folder)
        let recorder = RecordingLogHandler()
        ReposeLog.withEnabled(.cache) {
            ReposeLog.withHandler(recorder.handler) {
                #expect(cache.readEntity(forKey: "k") == nil)
                cache.writeEntity(entity("mine"), forKey: "other")
                cache.writeEntity(entity("mine"), forKey: "k")
            }
        }
        #expect(names() == before)
        #expect(recorder.lines.count == 1)
        #expect(recorder.lines.first?.contains(folder.path) == true)
        #expect(recorder.lines.first?.contains("another user") == true)
        #expect(PrivateFiles.write(Data("x".utf8), named: "x", in: folder) == false)
    }

    @Test("T8 a folder path that is a symbolic link is refused, and nothing is written where it points")
    func symlinkedFolderIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("mine"), forKey: "k")
        #expect(cache.readEntity(forKey: "k") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("T8 a symbolic link planted where an entry goes is never followed, on read or on write")
    func plantedSymlinkIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("mine"), forKey: "k")
        // An entry file elsewhere that a symbolic link in the folder points to.
        let outside = root.appendingPathComponent("outside.entity")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(FileEntityCache.fileName(for: "k")), to: outside)
        let name = FileEntityCache.fileName(for: "k")
        try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: outside)
        let outsideBefore = try Data(contentsOf: outside)

        let reopened = FileEntityCache(directory: folder)
        #expect(reopened.readEntity(forKey: "k") == nil)
        reopened.writeEntity(entity("new"), forKey: "k")
        #expect(try Data(contentsOf: outside) == outsideBefore)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try permissions(of: folder.appendingPathComponent(name)) == 0o600)
    }

    @Test("T8 a FIFO planted where an entry goes is a miss that blocks nothing, and a write replaces it")
    func plantedFIFO() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = FileEntityCache(directory: folder)
        cache.writeEntity(entity("mine"), forKey: "k")
        let entry = folder.appendingPathComponent(FileEntityCache.fileName(for: "k"))
        try FileManager.default.removeItem(at: entry)
        #expect(mkfifo(entry.path, 0o600) == 0)
        #expect(cache.readEntity(forKey: "k") == nil)  // a blocking open would never return
        cache.writeEntity(entity("again"), forKey: "k")
        #expect(cache.readEntity(forKey: "k")?.content as? Data == Data("again".utf8))
    }

    @Test("T8 leftovers of any kind are removed when the folder is opened, and entries are made 0600")
    func leftoversRemovedOnOpen() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        FileEntityCache(directory: folder).writeEntity(entity("mine"), forKey: "k")
        let entryName = FileEntityCache.fileName(for: "k")
        #expect(chmod(folder.appendingPathComponent(entryName).path, 0o644) == 0)
        for leftover in [".dat.nosync1a2b.XyZ123", ".3F2A-0000.tmp", ".repose-1234.tmp"] {
            let path = folder.appendingPathComponent(leftover).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 10)))
        }
        // A write of this very process, under way through another cache over the folder, is spared.
        let live = PrivateFiles.temporaryPrefix + "under-way.tmp"
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(live).path, contents: Data()))
        let cache = FileEntityCache(directory: folder)
        #expect(cache.readEntity(forKey: "k")?.content as? Data == Data("mine".utf8))
        #expect(names() == [live, entryName].sorted())
        #expect(try permissions(of: folder.appendingPathComponent(entryName)) == 0o600)
    }

    @Test("T8 PrivateFiles.write creates the file 0600 in a 0700 folder and leaves no other file")
    func privateWrite() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(PrivateFiles.write(Data("one".utf8), named: "a.write", in: folder))
        #expect(PrivateFiles.write(Data("two".utf8), named: "a.write", in: folder))
        #expect(names() == ["a.write"])
        #expect(try permissions(of: folder) == 0o700)
        #expect(try permissions(of: folder.appendingPathComponent("a.write")) == 0o600)
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.write")) == Data("two".utf8))
    }
}
