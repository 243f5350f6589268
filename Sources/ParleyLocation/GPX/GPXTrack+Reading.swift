import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension GPXTrack {
    /// Largest document read (a day of one-second fixes is about 10 MB).
    public static let maxDocumentSize = 64 << 20
    /// Most points read from one document.
    public static let maxPoints = 500_000

    /// Reads the `<trkpt>`s of a GPX 1.0 or 1.1 document; other elements are ignored.
    public init(gpx data: Data) throws(LocationError) {
        guard data.count <= Self.maxDocumentSize else { throw .invalidGPX("larger than \(Self.maxDocumentSize >> 20) MiB") }
        if let problem = GPXScreen.problem(data) { throw .invalidGPX(problem) }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else { throw .invalidGPX("not well-formed XML") }
        guard reader.sawRoot else { throw .invalidGPX("no <gpx> root element") }
        // libxml2 on Linux may report success for a document cut short; the root must have closed.
        guard reader.closedRoot else { throw .invalidGPX("the document ends before </gpx> (truncated?)") }
        self.init(name: reader.name, points: reader.points)
    }
}

/// XMLParser delegate collecting track points; lives only for one `GPXTrack(gpx:)` call.
private final class Reader: NSObject, XMLParserDelegate {
    var name: String?
    var points: [GPXTrack.Point] = []
    var failure: LocationError?
    var sawRoot = false
    var closedRoot = false
    private var path: [String] = []
    private var text = ""
    private var current: GPXTrack.Point?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let local = element.split(separator: ":").last.map(String.init) ?? element
        if path.isEmpty {
            guard local == "gpx" else { return fail(parser, "the root element is <\(local.prefix(32))>, not <gpx>") }
            sawRoot = true
        }
        path.append(local)
        text = ""
        guard local == "trkpt" else { return }
        guard points.count < GPXTrack.maxPoints else { return fail(parser, "more than \(GPXTrack.maxPoints) points") }
        guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
              lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
        else { return fail(parser, "point \(points.count + 1) has no valid lat/lon attributes") }
        current = GPXTrack.Point(latitude: lat, longitude: lon)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Only leaf values are kept; bounding them keeps a hostile document from growing one string.
        if text.utf8.count < 4096 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        let local = path.popLast() ?? element
        if path.isEmpty { closedRoot = true }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        switch local {
        case "trkpt":
            if let current { points.append(current) }
            current = nil
        case "ele" where current != nil:
            guard let elevation = Double(value), elevation.isFinite else { return fail(parser, "point \(points.count + 1) has a bad <ele>") }
            current?.elevation = elevation
        case "time" where current != nil:
            guard let time = ISO8601Time.parse(value) else { return fail(parser, "point \(points.count + 1) has a bad <time>") }
            current?.time = time
        case "name" where path.last == "trk" && name == nil:
            // Cut, then trimmed: a name cut just after a space would lose that space when its own GPX is read again.
            name = String(value.prefix(256)).trimmingCharacters(in: .whitespacesAndNewlines)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // The first error is the one to show, with its line. The parse is not aborted here: libxml2 on Linux reads
        // on past errors, but stopping it from inside its error callback made XMLParser feed the stopped parser its
        // last chunk, a NULL dereference in xmlParseChunk (found by fuzzing, docs/TESTING.md §1.9).
        if failure == nil { failure = .invalidGPX("not well-formed XML (line \(parser.lineNumber))") }
    }

    private func fail(_ parser: XMLParser, _ why: String) {
        if failure == nil { failure = .invalidGPX(why) }
        parser.abortParsing()
    }
}
