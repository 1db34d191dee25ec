/// What a configuration closure saw: the token it read and how often it ran.
@MainActor
final class ConfigurationProbe {
    var token = "one"
    var runs = 0
}
