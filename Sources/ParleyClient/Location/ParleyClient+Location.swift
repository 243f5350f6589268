import Foundation
import ParleyLocation

/// Location sharing and following (docs/CLIENT.md §11) are the components `location`, `following` (with the live
/// stream of updates, `following.updates(from:)`) and `tracker`.
extension ParleyClient {
    /// Most waypoints per `post_waypoints` (the server's limit).
    public static let locationBatchSize = LocationSharing.batchSize
}
