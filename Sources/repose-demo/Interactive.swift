import Repose

/// The interactive client: shows the first user, then runs each command typed at the prompt until `quit` or the
/// end of input. Commands may also come from a file or a pipe (for a live API); they are then echoed after the
/// prompt, as a terminal would have.
@MainActor
struct Interactive {
    /// The API to talk to.
    let setup: DemoSetup
    /// Whether to forget what earlier runs cached (`--fresh`).
    let startsCold: Bool

    /// Runs commands until `quit` or the end of input.
    func run() async {
        let client = DemoClient(setup: setup, cacheFolder: DemoSetup.cacheFolder, startsCold: startsCold)
        print("Type `help` for the commands. The disk cache is \(DemoSetup.cacheFolder.path) (--fresh forgets it).\n")
        print("repose> user \(setup.login)")
        _ = await client.run(.user(setup.login))
        Terminal.prompt()
        for await line in Terminal.lines() {
            Terminal.isPrompting = false
            if !Terminal.isInteractive { print(line) }
            switch Command.parse(line) {
            case .success(let command?):
                guard await client.run(command) else { return }
            case .success(nil):
                break
            case .failure(let error):
                say(error.message)
            }
            Terminal.prompt()
        }
        print("")
        await client.quit()
    }
}
