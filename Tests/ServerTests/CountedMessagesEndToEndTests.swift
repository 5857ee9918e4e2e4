import Protocol
import Testing

/// What a user reads when a limit is reached: the number and its noun agree, in each language, on the wire.
@Suite struct CountedMessagesEndToEndTests {
    @Test(arguments: [
        ("en", "The free edition holds at most 1 note"),
        ("ru", "Бесплатная версия вмещает не более 1 заметки"),
        ("ja", "無料版で保存できるノートは 1 件までです"),
    ])
    func theFreeLimitOfOneNoteSaysNote(locale: String, message: String) throws {
        let server = try SatchelProcess(["--memory", "--free-limit", "1", "--locale", locale])
        #expect(server.call(request(1, "notes.create", ["title": "a"]))?["result"] != nil)
        let refused = server.call(request(2, "notes.create", ["title": "b"]))?["error"]
        #expect(refused?["code"] == -32003)
        #expect(refused?["message"] == .string(message))
        #expect(refused?["data"] == ["reason": "freeLimitReached", "limit": 1])
    }

    @Test(arguments: [
        ("en", "The free edition holds at most 2 notes"),
        ("ru", "Бесплатная версия вмещает не более 2 заметок"),
        ("ja", "無料版で保存できるノートは 2 件までです"),
    ])
    func theFreeLimitOfTwoNotesSaysNotes(locale: String, message: String) throws {
        let server = try SatchelProcess(["--memory", "--free-limit", "2"])
        _ = server.call(request(1, "initialize", ["locale": .string(locale)]))
        #expect(server.call(request(2, "notes.create", ["title": "a"]))?["result"] != nil)
        #expect(server.call(request(3, "notes.create", ["title": "b"]))?["result"] != nil)
        #expect(server.call(request(4, "notes.create", ["title": "c"]))?["error"]?["message"] == .string(message))
    }

    @Test(arguments: [
        ("en", "Invalid params: at most 1 positional parameter"),
        ("ru", "Некорректные параметры: не более 1 позиционного параметра"),
        ("ja", "無効なパラメーター: 位置パラメーターは 1 個までです"),
    ])
    func tooManyPositionalParamsCountsThem(locale: String, message: String) throws {
        let server = try SatchelProcess(["--memory", "--locale", locale])
        let refused = server.call(request(1, "notes.get", ["note_a", "note_b"]))?["error"]
        #expect(refused?["code"] == -32602)
        #expect(refused?["message"] == .string(message))
        #expect(refused?["data"] == ["field": "params", "expected": "at most 1 positional parameter"])
    }

    @Test func whatAParamExpectsCountsInEnglishForms() throws {
        let server = try SatchelProcess(["--memory"])
        let refused = server.call(request(1, "notes.get", ["id": ""]))?["error"]
        #expect(refused?["data"] == ["field": "id", "expected": "a string of at least 1 character"])
        #expect(refused?["message"] == "Invalid params: id must be a string of at least 1 character")
    }
}
