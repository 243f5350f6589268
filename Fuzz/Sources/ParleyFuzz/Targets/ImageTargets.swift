import ParleyImage

extension FuzzTarget {
    static let imageTargets: [FuzzTarget] = [
        FuzzTarget("image-thumbnail", "JPEG and PNG decode or fail with an ImageError; a declared size past the limits is refused before pixels are allocated (libFuzzer's 2 GiB malloc limit); a thumbnail fits its box and its JPEG decodes to its own size", run: imageThumbnail),
    ]
}

private func imageThumbnail(_ bytes: [UInt8]) {
    if let decoded = try? ImageCodec.decode(bytes, minimumSide: Thumbnail.defaultSide) {
        let image = decoded.image
        require(decoded.width <= ImageCodec.maximumSide && decoded.height <= ImageCodec.maximumSide,
                "an image past the side limit decoded")
        require(image.width <= decoded.width && image.height <= decoded.height, "a decoded image is larger than its header says")
    }
    guard let thumbnail = try? Thumbnail.make(from: bytes) else { return }
    require(max(thumbnail.width, thumbnail.height) <= Thumbnail.defaultSide, "a thumbnail is larger than its box")
    let again = try? ImageCodec.decode(thumbnail.jpeg)
    require(again?.width == thumbnail.width && again?.height == thumbnail.height, "a thumbnail's JPEG does not decode to its own size")
}
