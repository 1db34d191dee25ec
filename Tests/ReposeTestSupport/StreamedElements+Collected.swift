import Repose

extension StreamedElements {
    /// Every element, read to the end, and the error that ended the reading, if one did.
    func collected() async -> ([Element], RequestError?) {
        var collected: [Element] = []
        do {
            for try await element in self {
                collected.append(element)
            }
            return (collected, nil)
        } catch {
            return (collected, error as? RequestError)
        }
    }
}
