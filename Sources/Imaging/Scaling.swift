extension Bitmap {
    /// The size that fits within `longestSide`, keeping the proportions (never larger than now).
    public func fittedSize(longestSide: Int) -> (width: Int, height: Int) {
        let longest = Swift.max(width, height)
        guard longest > longestSide else { return (width, height) }
        let scale = Double(longestSide) / Double(longest)
        return (
            Swift.max(1, Int((Double(width) * scale).rounded())), Swift.max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// A smaller copy, each of its pixels the average of the source pixels it covers (a box filter: what a
    /// downscale by large factors needs, without the ringing of sharper filters).
    public func scaled(toFit longestSide: Int) -> Bitmap {
        let (targetWidth, targetHeight) = fittedSize(longestSide: longestSide)
        guard targetWidth != width || targetHeight != height else { return self }
        // Where each target column begins in the source (the last boundary is the source's width).
        let columnStarts = (0...targetWidth).map { $0 * width / targetWidth }
        var output = [UInt8](repeating: 0, count: targetWidth * targetHeight * channels)
        var sums = [UInt32](repeating: 0, count: targetWidth * channels)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    for targetRow in 0..<targetHeight {
                        let firstRow = targetRow * height / targetHeight
                        let endRow = Swift.max(firstRow + 1, (targetRow + 1) * height / targetHeight)
                        for index in 0..<sums.count { sums[index] = 0 }
                        for row in firstRow..<endRow {
                            let rowStart = row * width * channels
                            for column in 0..<targetWidth {
                                let start = columnStarts[column]
                                let end = Swift.max(start + 1, columnStarts[column + 1])
                                for channel in 0..<channels {
                                    var sum: UInt32 = 0
                                    var offset = rowStart + start * channels + channel
                                    for _ in start..<end {
                                        sum &+= UInt32(source[offset])
                                        offset += channels
                                    }
                                    sums[column * channels + channel] &+= sum
                                }
                            }
                        }
                        let rows = UInt32(endRow - firstRow)
                        let targetStart = targetRow * targetWidth * channels
                        for column in 0..<targetWidth {
                            let start = columnStarts[column]
                            let count = rows * UInt32(Swift.max(1, columnStarts[column + 1] - start))
                            for channel in 0..<channels {
                                let sum = sums[column * channels + channel]
                                target[targetStart + column * channels + channel] = UInt8((sum + count / 2) / count)
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: targetWidth, height: targetHeight, channels: channels, pixels: output)
    }

    /// The same picture without its alpha, laid over white (for a format without transparency).
    public func flattened() -> Bitmap {
        guard channels == 4 else { return self }
        var output = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            let alpha = UInt32(pixels[pixel * 4 + 3])
            for channel in 0..<3 {
                let value = UInt32(pixels[pixel * 4 + channel])
                output[pixel * 3 + channel] = UInt8((value * alpha + 255 * (255 - alpha) + 127) / 255)
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: output)
    }
}
