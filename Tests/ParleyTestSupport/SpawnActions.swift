import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File actions for `posix_spawn` in tests.
public enum SpawnActions {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Closes every descriptor from 3 up in the child.
    ///
    /// posix_spawn passes on every descriptor not marked close-on-exec, and a long-lived child (a postmaster,
    /// a tmux server) would keep a test server's listening socket open: still accepting into its backlog, and
    /// its port unusable for a restart. glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+) does it in
    /// one action, but its header hides it from Swift, so it is looked up at run time.
    public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {  // nil: RTLD_DEFAULT
            return
        }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, 3)
    }
}
