import Foundation
import Repose

extension PagedList {
    /// Observes `page` for as long as the list lives or until ``stopObserving(_:)``.
    func observe(_ page: Resource) {
        page.addObserver(owner: self) { [weak self] page, event in
            self?.pageChanged(page, event)
        }
    }

    /// Stops observing pages the list no longer uses. The first page is always observed.
    private func stopObserving(_ dropped: [Resource]) {
        for page in dropped where page !== firstPage && page !== pending && !book.contains(page) {
            page.removeObservers(ownedBy: self)
        }
    }

    /// One event of one of the list's pages becomes at most one change of the list, and one new snapshot.
    private func pageChanged(_ page: Resource, _ event: ResourceEvent) {
        switch event {
        case .observerAdded:
            return
        case .newData:
            if page === pending {
                pendingCompleted()
            } else if page === firstPage {
                startOver()
            } else if let index = book.index(of: page) {
                reread(at: index)
            }
        case .notModified:
            if page === pending {
                pendingCompleted()
            } else if page === firstPage {
                if book.pages.isEmpty { startOver() } else { succeeded() }
            }
        case .error:
            if page === pending {
                // The page's older data, if it has any, is not added: the list shows the failure instead.
                pending = nil
                stopObserving([page])
                if let error = page.latestError { failure = (page, error) }
            } else if page === firstPage, let error = page.latestError {
                failure = (page, error)
            }
        case .requestCancelled:
            if page === pending, !page.isLoading {
                pending = nil
                stopObserving([page])
            }
        default:
            break
        }
        publish()
    }

    /// The first page has new data, or the list takes its data for the first time: the list holds only the first
    /// page now (L5). The pages after it followed its old content: they are marked stale, so that they load again
    /// when asked for, and a next page on its way is no longer waited for.
    func startOver() {
        abandonPending()
        switch read(firstPage, number: 0, at: 0) {
        case .success(let page):
            dropStale(book.start(with: page))
            succeeded()
        case .failure(let error):
            // Content the list cannot read: keep what it shows, and say why it did not change.
            failure = (firstPage, error)
        case nil:
            dropStale(book.start(with: nil))  // wiped
        }
    }

    /// The page the list waited for completed, or was fresh already: add it, or record why it failed.
    func pendingCompleted() {
        guard let page = pending else { return }
        pending = nil
        let number = (book.last?.number ?? -1) + 1
        switch read(page, number: number, at: book.pages.count) {
        case .success(let loaded):
            stopObserving(book.append(loaded))
            succeeded()
        case .failure(let error):
            failure = (page, error)
            stopObserving([page])
        case nil:
            if let error = page.latestError { failure = (page, error) }
            stopObserving([page])
        }
    }

    /// A page after the first got new data from elsewhere (another screen reloaded it): show its new items; the
    /// pages after it followed its old content, so they are dropped and marked stale.
    private func reread(at index: Int) {
        let page = book.pages[index]
        switch read(page.handle, number: page.number, at: index) {
        case .success(let reread):
            dropStale(book.replace(at: index, with: reread))
        case .failure:
            return  // unreadable new content: keep the page's items as they were
        case nil:
            dropStale(book.replace(at: index, with: nil))  // wiped
        }
        if let pending, pending !== book.last?.next { abandonPending() }
    }

    /// Marks pages that followed content which changed as stale, and stops observing them.
    private func dropStale(_ dropped: [Resource]) {
        for page in dropped where page !== firstPage {
            page.invalidate()
        }
        stopObserving(dropped)
    }

    /// Stops waiting for the next page on its way; its load is cancelled unless something else observes the page.
    private func abandonPending() {
        guard let page = pending else { return }
        pending = nil
        stopObserving([page])
        page.cancelLoadIfUnobserved()
    }

    private func succeeded() {
        failure = nil
    }

    /// Decodes `page`'s data, to be the book's page at `index`: its items and the next page. `nil` when the page
    /// has no data.
    private func read(
        _ page: Resource, number: Int, at index: Int
    ) -> Result<PageBook<Resource, Item>.Page, RequestError>? {
        guard let entity = page.latestData else { return nil }
        do {
            let (items, next) = try reader.read(entity, page, firstPage, number)
            return .success(.init(handle: page, number: number, items: items, next: validated(next, page, index)))
        } catch let error as RequestError {
            return .failure(error)
        } catch {
            return .failure(RequestError.cannotParseResponse(cause: error, entity: entity))
        }
    }

    /// `next`, unless it is the page itself, the first page or one of the book's pages before `index`: a chain that
    /// loops ends there.
    private func validated(_ next: Resource?, _ page: Resource, _ index: Int) -> Resource? {
        guard let next, next !== page, next !== firstPage, book.index(of: next, before: index) == nil else {
            return nil
        }
        return next
    }
}
