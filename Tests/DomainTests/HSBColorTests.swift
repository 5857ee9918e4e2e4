import Testing

@testable import Domain

/// Note colours (SPEC §5): the exact HSB triple survives the store, components are finite and in 0...1,
/// `hex` is standard HSV->RGB rounded to the nearest.
@Suite struct HSBColorTests {
    typealias Support = DomainTestSupport

    // MARK: Round trips through the store

    @Test func hueZeroAndHueOneStayDistinct() throws {
        let store = try Support.openStore()
        let zero = try store.notes.create(
            NoteDraft(title: "zero", color: try HSBColor(hue: 0, saturation: 1, brightness: 1)))
        let one = try store.notes.create(
            NoteDraft(title: "one", color: try HSBColor(hue: 1, saturation: 1, brightness: 1)))
        let storedZero = try store.notes.get(id: zero.id).color
        let storedOne = try store.notes.get(id: one.id).color
        #expect(storedZero.hue == 0)
        #expect(storedOne.hue == 1)
        #expect(storedZero != storedOne)
        // Both are red, though.
        #expect(storedZero.hex == "#FF0000")
        #expect(storedOne.hex == "#FF0000")

        // And through an update.
        _ = try store.notes.update(id: zero.id, NoteChanges(color: try HSBColor(hue: 1, saturation: 1, brightness: 1)))
        _ = try store.notes.update(id: one.id, NoteChanges(color: try HSBColor(hue: 0, saturation: 1, brightness: 1)))
        #expect(try store.notes.get(id: zero.id).color.hue == 1)
        #expect(try store.notes.get(id: one.id).color.hue == 0)
        // And through a list.
        #expect(try Support.allNotes(store).map(\.color.hue) == [1, 0])
    }

    @Test func saturationZeroKeepsTheHue() throws {
        let store = try Support.openStore()
        let color = try HSBColor(hue: 0.625, saturation: 0, brightness: 0.6)
        let note = try store.notes.create(NoteDraft(title: "grey", color: color))
        let stored = try store.notes.get(id: note.id).color
        #expect(stored.hue == 0.625)
        #expect(stored.saturation == 0)
        #expect(stored.brightness == 0.6)
        #expect(stored == color)
        #expect(stored.hex == "#999999")
    }

    @Test func brightnessZeroKeepsHueAndSaturation() throws {
        let store = try Support.openStore()
        let color = try HSBColor(hue: 0.8, saturation: 0.4, brightness: 0)
        let note = try store.notes.create(NoteDraft(title: "black", color: color))
        let stored = try store.notes.get(id: note.id).color
        #expect(stored.hue == 0.8)
        #expect(stored.saturation == 0.4)
        #expect(stored.brightness == 0)
        #expect(stored.hex == "#000000")
    }

    @Test func saturationAndBrightnessBothZeroKeepTheHue() throws {
        let store = try Support.openStore()
        let color = try HSBColor(hue: 0.3, saturation: 0, brightness: 0)
        let note = try store.notes.create(NoteDraft(title: "t", color: color))
        #expect(try store.notes.get(id: note.id).color == color)
    }

    @Test func arbitraryDoublesSurviveBitForBit() throws {
        let store = try Support.openStore()
        let color = try HSBColor(
            hue: 0.123_456_789_012_345_67, saturation: 1.0 / 3.0, brightness: 0.999_999_999_999_999_9)
        let note = try store.notes.create(NoteDraft(title: "t", color: color))
        let stored = try store.notes.get(id: note.id).color
        #expect(stored.hue.bitPattern == color.hue.bitPattern)
        #expect(stored.saturation.bitPattern == color.saturation.bitPattern)
        #expect(stored.brightness.bitPattern == color.brightness.bitPattern)
        let smallest = try HSBColor(hue: Double.leastNonzeroMagnitude, saturation: 1, brightness: 1.0.nextDown)
        let other = try store.notes.create(NoteDraft(title: "u", color: smallest))
        #expect(try store.notes.get(id: other.id).color == smallest)
    }

    // MARK: Validation

    @Test(arguments: ["hue", "saturation", "brightness"], [
        Double.nan, Double.infinity, -Double.infinity, -0.1, 1.1, 1.0.nextUp, -Double.leastNonzeroMagnitude,
        Double.signalingNaN,
    ])
    func componentOutsideZeroToOneOrNotFiniteIsInvalidColor(component: String, value: Double) {
        #expect(throws: DomainError.validation(reason: .invalidColor, field: "color.\(component)")) {
            switch component {
            case "hue": _ = try HSBColor(hue: value, saturation: 0.5, brightness: 0.5)
            case "saturation": _ = try HSBColor(hue: 0.5, saturation: value, brightness: 0.5)
            default: _ = try HSBColor(hue: 0.5, saturation: 0.5, brightness: value)
            }
        }
    }

    @Test func theFirstBadComponentIsNamedAndTheFieldPrefixIsUsed() {
        #expect(throws: DomainError.validation(reason: .invalidColor, field: "color.saturation")) {
            try HSBColor(hue: 0.5, saturation: 2, brightness: .nan)
        }
        #expect(throws: DomainError.validation(reason: .invalidColor, field: "params.color.brightness")) {
            try HSBColor(hue: 0, saturation: 0, brightness: -1, field: "params.color")
        }
    }

    @Test(arguments: [0.0, 1.0, 0.5, Double.leastNonzeroMagnitude, 1.0.nextDown])
    func boundariesAreAccepted(value: Double) throws {
        let color = try HSBColor(hue: value, saturation: value, brightness: value)
        #expect(color.hue == value && color.saturation == value && color.brightness == value)
    }

    // MARK: Hex

    // Expected values from Python's colorsys.hsv_to_rgb, each component * 255 rounded to the nearest.
    @Test(arguments: [
        (0.0, 1.0, 1.0, "#FF0000"),
        (1.0, 1.0, 1.0, "#FF0000"),
        (1.0 / 3.0, 1.0, 1.0, "#00FF00"),
        (2.0 / 3.0, 1.0, 1.0, "#0000FF"),
        (1.0 / 6.0, 1.0, 1.0, "#FFFF00"),
        (0.5, 1.0, 1.0, "#00FFFF"),
        (5.0 / 6.0, 1.0, 1.0, "#FF00FF"),
        (0.5, 0.5, 0.5, "#408080"),  // (0.25, 0.5, 0.5) -> 63.75, 127.5, 127.5
        (0.1, 0.6, 0.8, "#CC9B52"),  // (0.8, 0.608, 0.32) -> 204, 155.04, 81.6
        (0.0, 0.0, 0.0, "#000000"),
        (0.7, 0.9, 0.0, "#000000"),
        (0.0, 0.0, 1.0, "#FFFFFF"),
        (0.9, 0.0, 1.0, "#FFFFFF"),
        (0.0, 0.0, 0.5, "#808080"),  // 127.5 rounds up
        (0.4, 0.0, 0.6, "#999999"),
    ])
    func hexIsStandardHSVToRGBRoundedToNearest(hue: Double, saturation: Double, brightness: Double, hex: String) throws {
        let color = try HSBColor(hue: hue, saturation: saturation, brightness: brightness)
        #expect(color.hex == hex)
    }

    @Test func whiteIsTheDefaultAndItsHexIsFFFFFF() {
        #expect(HSBColor.white.hue == 0)
        #expect(HSBColor.white.saturation == 0)
        #expect(HSBColor.white.brightness == 1)
        #expect(HSBColor.white.hex == "#FFFFFF")
        #expect(NoteDraft().color == .white)
    }

    @Test func hexIsAlwaysSevenUpperCaseCharacters() throws {
        var random = DomainTestRandom(seed: 7)
        for _ in 0..<500 {
            let color = try HSBColor(
                hue: Double.random(in: 0...1, using: &random), saturation: Double.random(in: 0...1, using: &random),
                brightness: Double.random(in: 0...1, using: &random))
            let hex = color.hex
            #expect(hex.count == 7)
            #expect(hex.first == "#")
            #expect(hex.dropFirst().allSatisfy { "0123456789ABCDEF".contains($0) }, "\(color) -> \(hex)")
        }
    }
}
