/// The people and repositories the embedded fixture API serves: a handful of computing pioneers, with enough
/// repositories for Ada's to span three pages, and one archived repository whose stars the server refuses to
/// change.
enum FixtureData {
    /// A user as the fixture stores it.
    struct User {
        /// The user's handle, as in URLs.
        let login: String
        /// The user's full name.
        let name: String
        let location: String
        let bio: String
        let followers: Int
        /// The user's repositories, in the order pages list them.
        let repositories: [Repository]
    }

    /// A repository as the fixture stores it; its star count lives in ``FixtureServer``, which changes it.
    struct Repository {
        let name: String
        let description: String
        let language: String
        let stars: Int
        /// An archived repository is read-only: the server refuses to star or unstar it.
        var archived = false
    }

    /// Everyone, in the order search results list them.
    static let users: [User] = [
        User(
            login: "ada", name: "Ada Lovelace", location: "London", bio: "Poetical scientist. Wrote the first program.",
            followers: 1_843, repositories: adasRepositories),
        User(
            login: "adele", name: "Adele Goldberg", location: "Palo Alto", bio: "Smalltalk-80, and the Blue Book.",
            followers: 612,
            repositories: [
                Repository(
                    name: "smalltalk-80", description: "The language and its image", language: "Smalltalk", stars: 980),
                Repository(name: "blue-book", description: "Smalltalk-80: The Language", language: "TeX", stars: 214),
            ]),
        User(
            login: "adi", name: "Adi Shamir", location: "Rehovot", bio: "The S in RSA.", followers: 530,
            repositories: [
                Repository(name: "rsa", description: "Public-key encryption, 1977", language: "C", stars: 3_021),
                Repository(name: "secret-sharing", description: "k of n shares", language: "C", stars: 733),
            ]),
        User(
            login: "edsger", name: "Edsger W. Dijkstra", location: "Austin", bio: "Go To Statement Considered Harmful.",
            followers: 2_210,
            repositories: [
                Repository(name: "shortest-path", description: "The algorithm, 1956", language: "ALGOL", stars: 4_512),
                Repository(name: "ewd-notes", description: "EWD0 to EWD1318", language: "TeX", stars: 1_305),
            ]),
        User(
            login: "grace", name: "Grace Hopper", location: "Arlington", bio: "Found the first bug.", followers: 2_954,
            repositories: [
                Repository(
                    name: "cobol", description: "Common business-oriented language", language: "COBOL", stars: 1_959),
                Repository(name: "nanoseconds", description: "30 cm of wire", language: "Markdown", stars: 300),
                Repository(
                    name: "mark-i", description: "The Harvard Mark I", language: "Assembly", stars: 44, archived: true),
            ]),
        User(
            login: "radia", name: "Radia Perlman", location: "Seattle", bio: "Spanning trees, and the poem about them.",
            followers: 847,
            repositories: [
                Repository(name: "spanning-tree", description: "STP, 1985", language: "C", stars: 1_121),
                Repository(
                    name: "algorhyme", description: "I think that I shall never see…", language: "Text", stars: 402),
            ]),
    ]

    private static let adasRepositories: [Repository] = [
        Repository(name: "analytical-engine", description: "A general-purpose engine", language: "Swift", stars: 1_843),
        Repository(name: "babbage-letters", description: "Correspondence, 1843", language: "Markdown", stars: 377),
        Repository(name: "bernoulli-numbers", description: "Note G, the first program", language: "Swift", stars: 962),
        Repository(
            name: "difference-engine", description: "Superseded by the analytical engine", language: "C", stars: 212,
            archived: true),
        Repository(name: "engine-simulator", description: "Run Note G on a laptop", language: "Swift", stars: 518),
        Repository(name: "flying-machine", description: "Flyology, age 12", language: "Markdown", stars: 149),
        Repository(name: "jacquard-loom", description: "Punched cards for patterns", language: "C", stars: 265),
        Repository(name: "music-by-numbers", description: "The engine might compose", language: "Swift", stars: 231),
        Repository(
            name: "notes-on-menabrea", description: "The translation, and notes A to G", language: "TeX", stars: 688),
        Repository(
            name: "poetical-science", description: "Imagination and mathematics", language: "Markdown", stars: 120),
        Repository(name: "racing-odds", description: "A system that did not work", language: "Python", stars: 37),
        Repository(
            name: "symbols", description: "Operations on symbols, not only numbers", language: "Swift", stars: 451),
    ]
}
