/// Who may create an account (`--registration`, docs/OPERATIONS.md §7).
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone who reaches the port.
    case open
    /// Only with an invite code the operator made (`parley server admin invites create`).
    case invite
    /// Nobody: the accounts there are all there will be.
    case closed
}
