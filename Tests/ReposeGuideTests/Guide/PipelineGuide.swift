// The Swift blocks of Docs/Pipeline.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
enum PipelineGuide {
    /// Stands in for the page's decryption step: passes every response through.
    struct Decrypter: ResponseTransformer {
        func process(_ response: Response) -> Response { response }
    }

    /// The page's CSV parser: text to rows of fields.
    struct CSVParser: ResponseTransformer {
        func process(_ response: Response) -> Response {
            ResponseContentTransformer<String, [[String]]> { entity in
                entity.content.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            }
            .process(response)
        }
    }

    struct User: Decodable, Sendable {
        var name: String

        init(json: [String: Any]) {
            name = json["name"] as? String ?? ""
        }
    }

    struct Event: Decodable, Sendable {
        var date: Date
    }

    static let isoDateDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func stages(_ service: Service) {
        service.configure {
            $0.pipeline[.rawData].add(Decrypter())  // every response
            $0.pipeline[.parsing].add(CSVParser(), contentTypes: ["text/csv"])
        }
    }

    static func replacingAStage(_ service: Service) {
        service.configure {
            $0.pipeline[.parsing].removeTransformers()
            $0.pipeline[.parsing].add(CSVParser(), contentTypes: ["text/csv"])
            $0.pipeline[.parsing].add(StandardTransformer.json.transformer)
        }
    }

    static func contentTransformer() -> ResponseContentTransformer<String, [[String]]> {
        let csv = ResponseContentTransformer<String, [[String]]> { entity in
            entity.content.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        }
        return csv
    }

    static func configureTransformer(_ service: Service) {
        service.configureTransformer("/users/*") { (entity: Entity<[String: Any]>) in
            User(json: entity.content)
        }
    }

    static func decodable(_ service: Service) -> User? {
        service.configureTransformer("/users/*", decoding: User.self)
        service.configureTransformer("/events/*", decoding: Event.self, decoder: isoDateDecoder)

        let user: User? = service.resource("/users/42").typedContent()
        return user
    }
}
