import NIOCore

extension EventLoop {
    /// Runs `body` on this loop at `first` and then every `interval`, by deadline (a late run does not
    /// push the later ones back), for as long as `goOn` says yes to the next deadline.
    func every(
        from first: NIODeadline, interval: TimeAmount, while goOn: @escaping @Sendable (NIODeadline) -> Bool,
        _ body: @escaping @Sendable (_ run: Int) -> Void
    ) {
        @Sendable func fire(at deadline: NIODeadline, run: Int) {
            guard goOn(deadline) else { return }
            scheduleTask(deadline: deadline) {
                body(run)
                fire(at: deadline + interval, run: run + 1)
            }
        }
        fire(at: first, run: 1)
    }
}
