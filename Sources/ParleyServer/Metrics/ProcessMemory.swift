import CParleyMalloc
import Foundation
import Prometheus

/// The server process's memory, read at each scrape: what the system counts (resident set) and what the
/// allocator has handed out and not had back (heap in use). The two part when memory freed by closed
/// connections stays in the allocator's free lists: the resident set then stays high while the heap shrinks.
enum ProcessMemory {
    /// Bytes resident now (`/proc/self/statm`), or nil where there is no such file.
    static func residentBytes() -> Double? {
        guard let fields = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " "),
              fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Bytes glibc's allocator has handed out and not had back (`mallinfo2`: small blocks and mapped ones).
    static func heapInUseBytes() -> Double {
        Double(parley_heap_in_use())
    }

    /// Sets `process_resident_memory_bytes` and `parley_heap_in_use_bytes` in `registry` to now's values.
    static func record(in registry: PrometheusCollectorRegistry) {
        if let resident = residentBytes() { registry.makeGauge(descriptor: residentDescriptor).set(to: resident) }
        registry.makeGauge(descriptor: heapDescriptor).set(to: heapInUseBytes())
    }

    private static var residentDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "process", metricName: "resident_memory", unitName: "bytes",
                             helpText: "Resident memory of the server process.")
    }

    private static var heapDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "parley", metricName: "heap_in_use", unitName: "bytes",
                             helpText: "Bytes the allocator has handed out and not had back (glibc mallinfo2).")
    }
}
