import Foundation

/// Writes a line of the benchmark's report to stdout (this program is not the server: stdout is its report).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs `body` repeatedly for at least `minimumSeconds` and returns operations per second.
func measure(minimumSeconds: Double = 1.0, batch: Int, _ body: () -> Void) -> Double {
    // Warm up.
    body()
    var operations = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
        body()
        operations += batch
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < minimumSeconds
    return Double(operations) / elapsed
}

func formatted(_ value: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = value < 100 ? 2 : 0
    return formatter.string(from: NSNumber(value: value)) ?? String(value)
}
