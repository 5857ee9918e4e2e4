/// A colour exactly as the user chose it: hue, saturation and brightness, each in 0...1.
///
/// The triple is stored as given, so hue 0 and hue 1 stay distinct and a hue survives saturation 0 or
/// brightness 0 (an RGB round trip would lose both). `hex` is derived, never stored.
public struct HSBColor: Sendable, Equatable {
    public let hue: Double
    public let saturation: Double
    public let brightness: Double

    /// What each component may be.
    public static let componentRange: ClosedRange<Double> = 0...1

    /// White: the default colour of a new note.
    public static let white = HSBColor(unchecked: 0, 0, 1)

    /// A colour, or `validation(invalidColor)` naming the component that is not a finite number in 0...1.
    public init(hue: Double, saturation: Double, brightness: Double, field: String = "color") throws(DomainError) {
        for (name, value) in [("hue", hue), ("saturation", saturation), ("brightness", brightness)]
        where !(value.isFinite && Self.componentRange.contains(value)) {
            throw .validation(reason: .invalidColor, field: "\(field).\(name)")
        }
        self.init(unchecked: hue, saturation, brightness)
    }

    init(unchecked hue: Double, _ saturation: Double, _ brightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
    }

    /// `#RRGGBB` by the standard HSV-to-RGB conversion, each component rounded to the nearest of 0...255.
    public var hex: String {
        let (red, green, blue) = rgb
        return String(unsafeUninitializedCapacity: 7) { buffer in
            let digits: StaticString = "0123456789ABCDEF"
            func put(_ component: Double, at offset: Int) {
                let value = Int((component * 255).rounded())
                buffer[offset] = digits.utf8Start[value >> 4]
                buffer[offset + 1] = digits.utf8Start[value & 0xF]
            }
            buffer[0] = UInt8(ascii: "#")
            put(red, at: 1)
            put(green, at: 3)
            put(blue, at: 5)
            return 7
        }
    }

    /// Red, green and blue in 0...1.
    public var rgb: (Double, Double, Double) {
        let scaled = hue * 6
        let sector = Int(scaled.rounded(.down)) % 6
        let fraction = scaled - scaled.rounded(.down)
        let value = brightness
        let p = value * (1 - saturation)
        let q = value * (1 - saturation * fraction)
        let t = value * (1 - saturation * (1 - fraction))
        switch sector {
        case 0: return (value, t, p)
        case 1: return (q, value, p)
        case 2: return (p, value, t)
        case 3: return (p, q, value)
        case 4: return (t, p, value)
        default: return (value, p, q)
        }
    }
}
