import Repose

extension DemoClient {
    /// Runs `command` and returns once what it started has settled; `false` after `quit`.
    func run(_ command: Command) async -> Bool {
        switch command {
        case .search(let text): await search.type(text, every: setup.keystrokeInterval)
        case .user(let login): await showProfile(login)
        case .repos: await repositoryListOrHint()?.show()
        case .more: await repositoryListOrHint()?.more()
        case .star(let fullName): await changeStar(of: fullName, starring: true)
        case .unstar(let fullName): await changeStar(of: fullName, starring: false)
        case .refresh: await refresh()
        case .offline: await switchNetwork(on: false)
        case .online: await switchNetwork(on: true)
        case .download(let fullName): await download(fullName)
        case .live(let fullName): await watchLive(fullName)
        case .inspect: inspect()
        case .help: print(Command.summary)
        case .quit:
            await quit()
            return false
        }
        return true
    }

    private func inspect() {
        for line in service.inspect().table().split(separator: "\n") {
            say(String(line))
        }
    }

    private func repositoryListOrHint() -> RepositoryList? {
        guard let list = repositories() else {
            say("no user on screen: try `user \(setup.login)`")
            return nil
        }
        return list
    }

    private func refresh() async {
        guard let profile else { return say("no user on screen: try `user \(setup.login)`") }
        await profile.refresh(pages: repositoryList?.list)
    }

    /// Stars or unstars, printing the star count as it changes: at once, then back if the server refuses.
    private func changeStar(of fullName: String, starring: Bool) async {
        guard let repository = repository(fullName) else { return say("“\(fullName)” is not OWNER/REPO") }
        if repository.latestData == nil { _ = await repository.loadIfNeeded()?.response }
        guard let before = repository.jsonDict["stargazers_count"] as? Int else {
            return say("⚠️  \(fullName): \(repository.latestError?.userMessage ?? "no star count to change")")
        }
        var waiting = true
        let count = repository.state.map { $0.jsonDict["stargazers_count"] as? Int }.removeDuplicates()
        let subscription = count.observe { stars in
            let pending = waiting && stars != before ? " (shown at once; the server has not answered)" : ""
            say("★ \(fullName): \(stars.map(String.init) ?? "?") stars\(pending)")
        }
        let outcome = starring ? await stars.star(repository) : await stars.unstar(repository)
        waiting = false
        subscription.cancel()
        switch outcome {
        case .kept:
            say("✓ \(fullName): \(starring ? "starred" : "unstarred"); the server agreed")
        case .rolledBack(let error):
            let reason = error.jsonDict["message"] as? String ?? error.userMessage
            let status = error.httpStatusCode.map { "HTTP \($0): " } ?? ""
            say("↩️  \(fullName): the server refused (\(status)\(reason)); that change alone was rolled back")
        }
    }

    /// Makes the embedded API fail every request (or stop failing), and shows what the profile makes of it.
    private func switchNetwork(on: Bool) async {
        guard let fixture = setup.fixture else {
            return say("offline and online switch the embedded API; a live API's network is your own")
        }
        fixture.isOffline = !on
        if on {
            say("📶 back online: the service reloads every observed resource whose data is stale")
            reconnected.send(())
            await profile?.retryFailed()
        } else {
            say("📴 the embedded API now fails every request, as with no network; refreshing")
            await profile?.refresh(pages: repositoryList?.list)
        }
    }

    private func download(_ fullName: String?) async {
        let first = profile?.repositories.jsonArray.lazy.compactMap { ($0 as? [String: Any])?["full_name"] as? String }
        guard let fullName = fullName ?? first?.first, let archive = repository(fullName, "tarball") else {
            return say("download needs OWNER/REPO, or a user on screen with a repository")
        }
        say("⬇️  the archive of \(fullName)")
        await Download.run(archive)
    }
}
