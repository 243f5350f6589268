import NIOConcurrencyHelpers
import NIOCore

/// A hostile server's flood, for the tests that check a client stops reading: writes `chunk` again each time the
/// last write completed, for as long as the connection is open, counting in `taken` what the kernel accepted (more
/// than any client can have read).
public enum Flood {
    public static func keepWriting(_ chunk: [UInt8], on context: ChannelHandlerContext, counting taken: NIOLockedValueBox<Int>) {
        guard context.channel.isActive else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        // A write can complete inside writeAndFlush: go on from the event loop's queue, not deeper in the stack.
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: chunk))).whenSuccess {
            taken.withLockedValue { $0 += chunk.count }
            bound.value.eventLoop.execute { keepWriting(chunk, on: bound.value, counting: taken) }
        }
    }
}
