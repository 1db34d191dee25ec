// The Swift blocks of Docs/Downloads.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
final class DownloadsGuide {
    final class ProgressBar { var value = 0.0 }
    final class Preview { func show(_ file: URL) {} }
    final class Label { var text = "" }

    let api: Service
    let documents: URL
    let reportFile: URL
    let progressBar = ProgressBar()
    let preview = Preview()
    let status = Label()

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

    func outcome() {
        let status = status
        let destination = documents.appendingPathComponent("catalog.zip")
        let download = api.resource("/exports/catalog.zip").download(to: destination)
        download.onProgress { [weak download] fraction in
            guard let download else { return }
            let bytes = download.transfer
            status.text = "\(bytes.bytesReceived) of \(bytes.bytesExpectedToReceive.map(String.init) ?? "?") bytes"
            guard fraction == 1, let outcome = download.completedResponse?.response else { return }
            switch outcome {
            case .success: status.text = "Saved"
            case .failure(let error) where error.isCancellation: status.text = "Cancelled"
            case .failure(let error): status.text = error.userMessage
            }
        }
    }

    func resuming(_ service: Service, downloads: URL) {
        let file = downloads.appendingPathComponent("dataset.zip")
        let dataset = service.resource("/exports/dataset.zip")
        dataset.download(to: file)  // the connection breaks at 1.8 GB: the bytes are kept
        dataset.download(to: file)  // later: asks for the rest, and the file is whole
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
