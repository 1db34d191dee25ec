import Foundation
import Repose
import ReposeStorage

@testable import ReposeTestSupport

// The Swift blocks of Docs/Writes.md, verbatim, so that they compile (GuideSnippetTests checks that each block
// appears here). WritesGuideTests runs them.

@MainActor
enum WritesGuide {
    /// The layers section: a change on the resource written to, then one on another resource.
    static func layers(api: Service) -> Resource {
        let repo = api.resource("/repos/ada/engine")
        repo.request(.patch, json: ["archived": true], showing: .merge(["archived": true]))

        let starred = api.resource("/user/starred/ada/engine")
        starred.request(.put, showing: .update([String: Any].self) { $0["stargazers_count"] = 214 }, on: repo)
        return repo
    }

    /// The `try await` section; returns what it printed.
    static func awaited(repo: Resource) async -> String {
        var printed = ""
        func print(_ items: Any...) { printed = items.map { "\($0)" }.joined(separator: " ") }

        do {
            let topics = ["topics": ["history"]]
            let request = repo.request(.patch, json: topics, showing: .merge(topics))
            let saved = try await request.content(as: [String: Any].self)
            print("saved:", saved)
        } catch {
            print("rolled back:", error.userMessage)
        }
        return printed
    }

    static func invalidation(api: Service) {
        let writes: [RequestMethod] = [.post, .put, .patch, .delete]
        api.configure("/users/**", requestMethods: writes) { $0.invalidation = .targetAndParent }  // /users/42, /users
        api.configure("/posts/*", requestMethods: [.post]) { $0.invalidation.others = ["/feed", "/users/me"] }
    }

    static func invalidateByHand(api: Service) {
        api.invalidateResources(matching: "/users/**")
    }

    static func invalidationForOneWrite(post: Resource) {
        post.request(.delete, options: RequestOptions(invalidation: .targetAndParent))
    }

    /// The outbox section's service, with two writes made.
    static func outbox(appSupport: URL) -> Service {
        let notesAPI = Service(
            baseURL: "https://api.example.com",
            options: .init(outbox: .files(in: appSupport.appendingPathComponent("outbox"))))
        notesAPI.configure("/notes/**", requestMethods: [.post, .put, .patch, .delete]) { $0.usesOutbox = true }

        let note = notesAPI.resource("/notes/7")
        note.request(.patch, json: ["text": "Milk, eggs"], showing: .merge(["text": "Milk, eggs"]))
        note.request(.delete, options: RequestOptions(usesOutbox: true))  // or for one write
        return notesAPI
    }

    /// The multipart section: an upload that drives a progress bar and shows its failure in a banner.
    static func upload(
        api: Service, photoURL: URL, metadataJSON: Data, uploadBar: WritesGuideBar, banner: WritesGuideLabel
    ) {
        let photos = api.resource("/albums/7/photos")
        photos.request(
            .post,
            multipart: [
                .field("caption", "Dawn over the bay"),
                .data("meta", metadataJSON, fileName: "meta.json", contentType: "application/json"),
                .file("image", at: photoURL, contentType: "image/jpeg"),
            ]
        )
        .onProgress { fraction in uploadBar.progress = fraction }
        .onFailure { error in banner.text = error.userMessage }
    }
}

/// A progress bar, as a screen holds one.
final class WritesGuideBar {
    var progress = 0.0
}

/// A label, as a screen holds one.
final class WritesGuideLabel {
    var text = ""
}

/// The guide's screen that says what the outbox still has to send.
@MainActor
final class WritesGuideScreen {
    let syncLabel = WritesGuideLabel()
    private(set) var shown: [String] = []

    func show(_ message: String) {
        shown.append(message)
    }

    func watch(_ notesAPI: Service) {
        notesAPI.outbox.state.observe(owner: self) { owner, status in
            owner.syncLabel.text = status.isEmpty ? "Saved" : "Saving…"
            for failure in status.failures {
                owner.show("Not saved: \(failure.item.url): \(failure.error.userMessage)")
            }
        }
    }
}
