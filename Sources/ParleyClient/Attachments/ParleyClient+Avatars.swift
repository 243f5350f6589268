extension ParleyClient {
    /// The longest side of an avatar, in pixels.
    public static let avatarSide = AvatarBook.side
}
