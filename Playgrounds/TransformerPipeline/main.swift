// TransformerPipeline: from response bytes to Decodable models, with no network.
//
// Every response runs through a staged pipeline once, off the main actor: raw data, decoding (text), parsing
// (JSON), model, cleanup. This tour answers requests from a tiny in-file provider and prints what each stage made.

import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider that answers every request at once, from another thread as a network would, from a table of canned
/// responses keyed by path.
struct CannedAPI: NetworkingProvider {
    struct Done: NetworkingTask {
        func cancel() {}
    }

    let responses: [String: NetworkResponse]

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        let response = responses[request.url?.path ?? ""] ?? NetworkResponse(statusCode: 404)
        DispatchQueue.global().async { sink.deliver(.success(response)) }
        return Done()
    }
}

func json(_ text: String, status: Int = 200) -> NetworkResponse {
    NetworkResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
}

let api = CannedAPI(responses: [
    "/v1/greeting": NetworkResponse(
        statusCode: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("Grüß dich".utf8)),
    "/v1/users/1": json(#"{"id": 1, "full_name": "Zoe Quinn", "joined_at": "2024-05-01T10:00:00Z"}"#),
    "/v1/users/2": json(#"{"error": "no such user"}"#, status: 404),
    "/v1/teams/red": json(#"{"name": "Red", "members": [{"id": 1, "full_name": "Zoe Quinn"}, {"id": "two"}]}"#),
    "/v1/stats": json(#"{"visits": 1024, "pages": ["/", "/about"]}"#),
])

struct User: Decodable {
    let id: Int
    let fullName: String
    let joinedAt: Date?
}

struct Team: Decodable {
    let name: String
    let members: [User]
}

@MainActor
func describe(_ resource: Resource) -> String {
    if let error = resource.latestError {
        let cause = error.cause.map { " — cause: \($0)" } ?? ""
        return "error \"\(error.userMessage)\"\(cause)"
    }
    guard let content = resource.latestData?.content else { return "nothing" }
    return "\(type(of: content)): \(content)"
}

@MainActor
func tour() async {
    let service = Service(baseURL: "https://api.example.com/v1", options: .init(networking: api))

    // 1. The standard transformers are installed by default: text/* becomes a String (with the response's
    //    charset), JSON becomes dictionaries and arrays.
    let greeting = service.resource("/greeting")
    await _ = greeting.load().response
    print("1. /greeting →", describe(greeting))

    let stats = service.resource("/stats")
    await _ = stats.load().response
    print("   /stats →", "visits =", stats.jsonDict["visits"] ?? "?")

    // 2. One line maps a URL pattern to a Decodable model. The decoder reads the response bytes directly: for
    //    these resources the JSON dictionary parse never runs.
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    service.configureTransformer("/users/*", decoding: User.self, decoder: decoder)

    let zoe = service.resource("/users/1")
    await _ = zoe.load().response
    let user: User? = zoe.typedContent()
    print(
        "2. /users/1 →",
        user.map { "User #\($0.id) \($0.fullName), joined \($0.joinedAt.map(String.init(describing:)) ?? "?")" }
            ?? describe(zoe))

    // 3. Error bodies are still parsed as JSON, so the server's own message is at hand.
    let missing = service.resource("/users/2")
    await _ = missing.load().response
    print("3. /users/2 →", describe(missing), "— server said:", missing.latestError?.jsonDict["error"] ?? "?")

    // 4. A decoding failure names the model and the coding path where it stopped.
    service.configureTransformer("/teams/*", decoding: Team.self, decoder: decoder)
    let red = service.resource("/teams/red")
    await _ = red.load().response
    if let cause = red.latestError?.cause as? RequestError.Cause.ModelDecodingFailed {
        print("4. /teams/red → \(red.latestError?.userMessage ?? ""): \(cause.modelType) at \(cause.codingPath)")
    }

    // 5. The model stage can map models further, here to a display string.
    service.configureTransformer("/users/*") { (entity: Entity<User>) in
        "\(entity.content.fullName) (#\(entity.content.id))"
    }
    await _ = zoe.load().response
    print("5. /users/1 after a model-stage transformer →", describe(zoe))

    // 6. Custom transformers see each response once and may rewrite it: here a cleanup stage that tags content.
    service.configure {
        $0.pipeline[.cleanup].add(
            ResponseContentTransformer<String, String>(onInputTypeMismatch: .skip) { "«\($0.content)»" })
    }
    await _ = greeting.load().response
    print("6. /greeting with a cleanup transformer →", describe(greeting))
}

await tour()
