#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

#if canImport(UIKit) || canImport(AppKit)
/// `image/*` bodies to platform images (rule F12); only where UIKit or AppKit exists.
enum ImageTransformer {
    #if canImport(UIKit)
    typealias PlatformImage = UIImage
    #else
    typealias PlatformImage = NSImage
    #endif

    /// Bytes that are not an image the platform can read fail with `TransformerReturnedNil`.
    static let transformer = ContentTypeFilteredTransformer(
        ResponseContentTransformer<Data, PlatformImage>(description: "image") { entity in
            PlatformImage(data: entity.content)
        },
        matcher: .image)
}
#endif
