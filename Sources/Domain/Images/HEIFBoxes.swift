/// Just enough of ISO BMFF to find a HEIF file's displayed size: the primary item (`pitm`), the properties
/// associated with it (`iprp` > `ipco` + `ipma`), and of those its spatial extent (`ispe`), clean-aperture
/// crop (`clap`) and rotation (`irot`).
struct HEIFBoxes {
    let bytes: [UInt8]
    let start: Int

    init(bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        self.start = start
    }

    struct Box {
        var type: String
        /// Where the payload starts and ends.
        var body: Range<Int>
    }

    func u32(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// The boxes laid end to end in `range`.
    func boxes(in range: Range<Int>) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, var size = u32(offset) {
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard let high = u32(offset + 8), let low = u32(offset + 12), high == 0 else { break }
                size = low
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { break }
            result.append(Box(type: type, body: offset + header..<offset + size))
            offset += size
        }
        return result
    }

    func primaryImageSize() -> (width: Int, height: Int)? {
        // Every read below stays inside the box it belongs to: the file is whatever a client sent.
        guard let meta = boxes(in: start..<bytes.count).first(where: { $0.type == "meta" }), meta.body.count >= 4
        else { return nil }
        // `meta` is a full box: version and flags come first.
        let children = boxes(in: meta.body.lowerBound + 4..<meta.body.upperBound)
        var primary: Int? = nil
        if let pitm = children.first(where: { $0.type == "pitm" }), pitm.body.count >= 6 {
            let version = bytes[pitm.body.lowerBound]
            if version == 0 {
                primary = u16(pitm.body.lowerBound + 4)
            } else if pitm.body.count >= 8 {
                primary = u32(pitm.body.lowerBound + 4)
            }
        }
        guard let iprp = children.first(where: { $0.type == "iprp" }) else { return nil }
        let propertyBoxes = boxes(in: iprp.body)
        guard let ipco = propertyBoxes.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = boxes(in: ipco.body)
        // Property indexes (1-based) associated with the primary item; all properties when unknown.
        var associated: [Int] = Array(1...max(1, properties.count))
        if let primary, let ipma = propertyBoxes.first(where: { $0.type == "ipma" }),
            let indexes = associations(ipma, item: primary)
        {
            associated = indexes
        }
        var size: (width: Int, height: Int)? = nil
        var crop: (width: Int, height: Int)? = nil
        var quarterTurns = 0
        for index in associated where index >= 1 && index <= properties.count {
            let property = properties[index - 1]
            let body = property.body.lowerBound
            switch property.type {
            case "ispe" where size == nil && property.body.count >= 12:
                if let width = u32(body + 4), let height = u32(body + 8), width > 0, height > 0 { size = (width, height) }
            case "clap" where crop == nil && property.body.count >= 16:
                if let widthN = u32(body), let widthD = u32(body + 4), let heightN = u32(body + 8),
                    let heightD = u32(body + 12), widthD > 0, heightD > 0, widthN > 0, heightN > 0
                {
                    crop = (widthN / widthD, heightN / heightD)
                }
            case "irot":
                if property.body.count >= 1 { quarterTurns = Int(bytes[body] & 0x03) }
            default:
                break
            }
        }
        guard var result = size else { return nil }
        if let crop, crop.width > 0, crop.height > 0 { result = crop }
        if quarterTurns % 2 == 1 { result = (result.height, result.width) }
        return result
    }

    /// The property indexes that `ipma` associates with `item`.
    private func associations(_ ipma: Box, item: Int) -> [Int]? {
        var offset = ipma.body.lowerBound
        guard offset + 4 <= ipma.body.upperBound else { return nil }
        let version = bytes[offset]
        let flags = u32(offset).map { $0 & 0xFFFFFF } ?? 0
        offset += 4
        guard let entryCount = u32(offset) else { return nil }
        offset += 4
        for _ in 0..<entryCount {
            let itemID: Int
            if version < 1 {
                guard let id = u16(offset) else { return nil }
                itemID = id
                offset += 2
            } else {
                guard let id = u32(offset) else { return nil }
                itemID = id
                offset += 4
            }
            guard offset < ipma.body.upperBound else { return nil }
            let count = Int(bytes[offset])
            offset += 1
            var indexes: [Int] = []
            for _ in 0..<count {
                if flags & 1 == 1 {
                    guard let value = u16(offset) else { return nil }
                    indexes.append(value & 0x7FFF)
                    offset += 2
                } else {
                    guard offset < ipma.body.upperBound else { return nil }
                    indexes.append(Int(bytes[offset] & 0x7F))
                    offset += 1
                }
            }
            if itemID == item { return indexes }
        }
        return nil
    }
}
