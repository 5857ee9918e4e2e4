/// Writes outgoing JSON-RPC messages straight into a ``JSONWriter``, without building trees for the envelope.
extension JSONWriter {
    /// `{"jsonrpc":"2.0","id":…,"result":…}`
    public mutating func writeResponse(id: RequestID, result: JSONValue) {
        writeRaw("{\"jsonrpc\":\"2.0\",\"id\":")
        write(id.json)
        writeRaw(",\"result\":")
        write(result)
        writeByte(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{…}}`
    public mutating func writeResponse(id: RequestID, error: ResponseError) {
        writeRaw("{\"jsonrpc\":\"2.0\",\"id\":")
        write(id.json)
        writeRaw(",\"error\":")
        write(error.json)
        writeByte(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}`: a notification from the server.
    public mutating func writeNotification(method: String, params: JSONValue?) {
        writeCall(id: nil, method: method, params: params)
    }

    /// `{"jsonrpc":"2.0","id":…,"method":…}`: a request from the server to the client (MCP `roots/list`).
    public mutating func writeRequest(id: RequestID, method: String, params: JSONValue? = nil) {
        writeCall(id: id, method: method, params: params)
    }

    private mutating func writeCall(id: RequestID?, method: String, params: JSONValue?) {
        writeRaw("{\"jsonrpc\":\"2.0\",")
        if let id {
            writeRaw("\"id\":")
            write(id.json)
            writeByte(UInt8(ascii: ","))
        }
        writeRaw("\"method\":")
        write(string: method)
        if let params {
            writeRaw(",\"params\":")
            write(params)
        }
        writeByte(UInt8(ascii: "}"))
    }
}
