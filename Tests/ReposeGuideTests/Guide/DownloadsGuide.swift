// The Swift blocks of Docs/Downloads.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
final class DownloadsGuide {
    final class ProgressBar { var value = 0.0 }
    final class Preview { func show(_ file: URL) {} }

    let api: Service
    let documents: URL
    let reportFile: URL
    let progressBar = ProgressBar()
    let preview = Preview()

    init(api: Service, documents: URL) {
        self.api = api
        self.documents = documents
        reportFile = documents.appendingPathComponent("2024.pdf")
    }

    func catalog() {
        let progressBar = progressBar
        let destination = documents.appendingPathComponent("catalog.zip")
        api.resource("/exports/catalog.zip").download(to: destination)
            .onProgress { fraction in progressBar.value = fraction }
            .onSuccess { entity in print("saved \(entity.content as? URL == destination)") }
            .onFailure { error in print(error.userMessage) }
    }

    func report() {
        let preview = preview
        let report = api.resource("/reports/2024.pdf")
        report.load(using: report.download(to: reportFile))
        report.addObserver(owner: self) { resource, event in
            if let file = resource.latestData?.content as? URL { preview.show(file) }
        }
    }
}
