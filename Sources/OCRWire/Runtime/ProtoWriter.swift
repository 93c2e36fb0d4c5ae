/// Appends protobuf binary encoding to one growing buffer.
///
/// Generated `encode(to:)` methods call one `write…(field, value)` per field, in field-number
/// order. Singular fields at their proto3 default are omitted; `Optional` overloads (proto3
/// `optional` and message fields) write whenever the value is present.
///
/// Nested messages are written in place: one byte is reserved for the length, the child is
/// encoded after it, and the child is shifted right only when its length needs more than one
/// varint byte. That keeps encoding a single pass without computing sizes level by level.
///
/// The bytes live in memory the writer owns (it is `~Copyable`, so exactly one value owns the
/// storage, and `deinit` frees it). Primitives check capacity once for their largest possible
/// size and then store through the pointer, instead of paying `Array.append`'s capacity and
/// uniqueness checks per byte. `finish()` copies the result into an `[UInt8]`.
public struct ProtoWriter: ~Copyable {
    @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
        count = 0
    }

    deinit { storage.deallocate() }

    /// The bytes written so far.
    consuming func finish() -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: storage, count: count))
    }

    // MARK: Primitives

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    @inline(never)
    mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Stores one byte; the caller has reserved room.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var v = value
        while v >= 0x80 {
            put(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        put(UInt8(v))
    }

    @inline(__always)
    mutating func appendTag(_ field: Int, _ wireType: WireType) {
        appendVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    @inline(__always)
    mutating func appendFixed32(_ value: UInt32) {
        reserve(4)
        UnsafeMutableRawPointer(storage + count).storeBytes(of: value.littleEndian, as: UInt32.self)
        count += 4
    }

    @inline(__always)
    mutating func appendFixed64(_ value: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(storage + count).storeBytes(of: value.littleEndian, as: UInt64.self)
        count += 8
    }

    @inline(__always)
    mutating func appendLengthDelimited(_ bytes: UnsafeBufferPointer<UInt8>) {
        appendVarint(UInt64(bytes.count))
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Writes back the bytes of fields the message did not know (`unknownFields`), as they came.
    public mutating func writeUnknown(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            reserve(buffer.count)
            (storage + count).update(from: buffer.baseAddress!, count: buffer.count)
            count += buffer.count
        }
    }

    @inline(__always)
    mutating func appendLengthDelimited(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendLengthDelimited($0) }
    }

    @inline(__always)
    mutating func appendString(_ value: String) {
        // Native Swift strings are contiguous UTF-8; others (bridged) are copied once.
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ appendLengthDelimited($0) }) {
            return done
        }
        var s = value
        s.makeContiguousUTF8()
        s.withUTF8 { appendLengthDelimited($0) }
    }

    /// Encodes `body` as a length-delimited payload (a nested message or a map entry).
    @inline(__always)
    mutating func appendNested(_ body: (inout ProtoWriter) -> Void) {
        let lengthAt = count
        appendByte(0)
        body(&self)
        let length = count - lengthAt - 1
        if length < 0x80 {
            storage[lengthAt] = UInt8(length)
            return
        }
        // The length needs more than the one reserved byte: shift the payload right.
        let size = Varint.encodedSize(UInt64(length))
        reserve(size - 1)
        UnsafeMutableRawPointer(storage + lengthAt + size).copyMemory(from: storage + lengthAt + 1, byteCount: length)  // regions overlap: memmove
        var v = UInt64(length)
        for i in 0..<size {
            storage[lengthAt + i] = i == size - 1 ? UInt8(v) : UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
        }
        count += size - 1
    }

    // MARK: Singular fields (omitted at their proto3 default)

    mutating func writeInt32(_ field: Int, _ v: Int32) { if v != 0 { appendTag(field, .varint); appendVarint(UInt64(bitPattern: Int64(v))) } }
    mutating func writeInt64(_ field: Int, _ v: Int64) { if v != 0 { appendTag(field, .varint); appendVarint(UInt64(bitPattern: v)) } }
    mutating func writeUInt32(_ field: Int, _ v: UInt32) { if v != 0 { appendTag(field, .varint); appendVarint(UInt64(v)) } }
    mutating func writeUInt64(_ field: Int, _ v: UInt64) { if v != 0 { appendTag(field, .varint); appendVarint(v) } }
    mutating func writeSInt32(_ field: Int, _ v: Int32) { if v != 0 { appendTag(field, .varint); appendVarint(UInt64(ZigZag.encode32(v))) } }
    mutating func writeSInt64(_ field: Int, _ v: Int64) { if v != 0 { appendTag(field, .varint); appendVarint(ZigZag.encode64(v)) } }
    mutating func writeFixed32(_ field: Int, _ v: UInt32) { if v != 0 { appendTag(field, .fixed32); appendFixed32(v) } }
    mutating func writeFixed64(_ field: Int, _ v: UInt64) { if v != 0 { appendTag(field, .fixed64); appendFixed64(v) } }
    mutating func writeSFixed32(_ field: Int, _ v: Int32) { if v != 0 { appendTag(field, .fixed32); appendFixed32(UInt32(bitPattern: v)) } }
    mutating func writeSFixed64(_ field: Int, _ v: Int64) { if v != 0 { appendTag(field, .fixed64); appendFixed64(UInt64(bitPattern: v)) } }
    // Floats compare by bit pattern so -0.0 (not the default) is written, as protoc does.
    mutating func writeFloat(_ field: Int, _ v: Float) { if v.bitPattern != 0 { appendTag(field, .fixed32); appendFixed32(v.bitPattern) } }
    mutating func writeDouble(_ field: Int, _ v: Double) { if v.bitPattern != 0 { appendTag(field, .fixed64); appendFixed64(v.bitPattern) } }
    mutating func writeBool(_ field: Int, _ v: Bool) { if v { appendTag(field, .varint); appendByte(1) } }
    mutating func writeString(_ field: Int, _ v: String) { if !v.isEmpty { appendTag(field, .lengthDelimited); appendString(v) } }
    mutating func writeBytes(_ field: Int, _ v: [UInt8]) { if !v.isEmpty { appendTag(field, .lengthDelimited); appendLengthDelimited(v) } }
    mutating func writeEnum<E: ProtoEnum>(_ field: Int, _ v: E) { if v.rawValue != 0 { appendTag(field, .varint); appendVarint(UInt64(bitPattern: Int64(v.rawValue))) } }

    // MARK: Fields with presence (proto3 `optional`, oneof members): written whenever set

    mutating func writeInt32(_ field: Int, _ v: Int32?) { if let v { appendTag(field, .varint); appendVarint(UInt64(bitPattern: Int64(v))) } }
    mutating func writeInt64(_ field: Int, _ v: Int64?) { if let v { appendTag(field, .varint); appendVarint(UInt64(bitPattern: v)) } }
    mutating func writeUInt32(_ field: Int, _ v: UInt32?) { if let v { appendTag(field, .varint); appendVarint(UInt64(v)) } }
    mutating func writeUInt64(_ field: Int, _ v: UInt64?) { if let v { appendTag(field, .varint); appendVarint(v) } }
    mutating func writeBool(_ field: Int, _ v: Bool?) { if let v { appendTag(field, .varint); appendByte(v ? 1 : 0) } }
    mutating func writeFloat(_ field: Int, _ v: Float?) { if let v { appendTag(field, .fixed32); appendFixed32(v.bitPattern) } }
    mutating func writeDouble(_ field: Int, _ v: Double?) { if let v { appendTag(field, .fixed64); appendFixed64(v.bitPattern) } }
    mutating func writeString(_ field: Int, _ v: String?) { if let v { appendTag(field, .lengthDelimited); appendString(v) } }
    mutating func writeBytes(_ field: Int, _ v: [UInt8]?) { if let v { appendTag(field, .lengthDelimited); appendLengthDelimited(v) } }

    mutating func writeMessage<M: ProtoMessage>(_ field: Int, _ v: M?) {
        guard let v else { return }
        appendTag(field, .lengthDelimited)
        appendNested { v.encode(to: &$0) }
    }

    // MARK: Repeated fields (scalars packed, as proto3 requires)

    mutating func writePacked<T>(_ field: Int, _ values: [T], _ append: (inout ProtoWriter, T) -> Void) {
        guard !values.isEmpty else { return }
        appendTag(field, .lengthDelimited)
        appendNested { w in for v in values { append(&w, v) } }
    }
    mutating func writeRepeatedInt32(_ field: Int, _ v: [Int32]) { writePacked(field, v) { $0.appendVarint(UInt64(bitPattern: Int64($1))) } }
    mutating func writeRepeatedInt64(_ field: Int, _ v: [Int64]) { writePacked(field, v) { $0.appendVarint(UInt64(bitPattern: $1)) } }
    mutating func writeRepeatedUInt32(_ field: Int, _ v: [UInt32]) { writePacked(field, v) { $0.appendVarint(UInt64($1)) } }
    mutating func writeRepeatedUInt64(_ field: Int, _ v: [UInt64]) { writePacked(field, v) { $0.appendVarint($1) } }
    mutating func writeRepeatedSInt32(_ field: Int, _ v: [Int32]) { writePacked(field, v) { $0.appendVarint(UInt64(ZigZag.encode32($1))) } }
    mutating func writeRepeatedSInt64(_ field: Int, _ v: [Int64]) { writePacked(field, v) { $0.appendVarint(ZigZag.encode64($1)) } }
    mutating func writeRepeatedFixed32(_ field: Int, _ v: [UInt32]) { writePacked(field, v) { $0.appendFixed32($1) } }
    mutating func writeRepeatedFixed64(_ field: Int, _ v: [UInt64]) { writePacked(field, v) { $0.appendFixed64($1) } }
    mutating func writeRepeatedSFixed32(_ field: Int, _ v: [Int32]) { writePacked(field, v) { $0.appendFixed32(UInt32(bitPattern: $1)) } }
    mutating func writeRepeatedSFixed64(_ field: Int, _ v: [Int64]) { writePacked(field, v) { $0.appendFixed64(UInt64(bitPattern: $1)) } }
    mutating func writeRepeatedFloat(_ field: Int, _ v: [Float]) { writePacked(field, v) { $0.appendFixed32($1.bitPattern) } }
    mutating func writeRepeatedDouble(_ field: Int, _ v: [Double]) { writePacked(field, v) { $0.appendFixed64($1.bitPattern) } }
    mutating func writeRepeatedBool(_ field: Int, _ v: [Bool]) { writePacked(field, v) { $0.appendByte($1 ? 1 : 0) } }
    mutating func writeRepeatedEnum<E: ProtoEnum>(_ field: Int, _ v: [E]) { writePacked(field, v) { $0.appendVarint(UInt64(bitPattern: Int64($1.rawValue))) } }

    mutating func writeRepeatedString(_ field: Int, _ values: [String]) {
        for v in values { appendTag(field, .lengthDelimited); appendString(v) }
    }
    mutating func writeRepeatedBytes(_ field: Int, _ values: [[UInt8]]) {
        for v in values { appendTag(field, .lengthDelimited); appendLengthDelimited(v) }
    }
    mutating func writeRepeatedMessage<M: ProtoMessage>(_ field: Int, _ values: [M]) {
        for v in values {
            appendTag(field, .lengthDelimited)
            appendNested { v.encode(to: &$0) }
        }
    }

    /// `map<string, string>`: one entry message per pair, key = 1, value = 2, both always written
    /// (as protoc's C++ runtime does). Keys are sorted so equal maps encode to equal bytes.
    mutating func writeStringMap(_ field: Int, _ map: [String: String]) {
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            appendTag(field, .lengthDelimited)
            appendNested { w in
                w.appendTag(1, .lengthDelimited); w.appendString(key)
                w.appendTag(2, .lengthDelimited); w.appendString(value)
            }
        }
    }
}

extension ProtoWriter {
    // Presence overloads for the remaining scalar kinds (oneof members of these types).
    mutating func writeSInt32(_ field: Int, _ v: Int32?) { if let v { appendTag(field, .varint); appendVarint(UInt64(ZigZag.encode32(v))) } }
    mutating func writeSInt64(_ field: Int, _ v: Int64?) { if let v { appendTag(field, .varint); appendVarint(ZigZag.encode64(v)) } }
    mutating func writeFixed32(_ field: Int, _ v: UInt32?) { if let v { appendTag(field, .fixed32); appendFixed32(v) } }
    mutating func writeFixed64(_ field: Int, _ v: UInt64?) { if let v { appendTag(field, .fixed64); appendFixed64(v) } }
    mutating func writeSFixed32(_ field: Int, _ v: Int32?) { if let v { appendTag(field, .fixed32); appendFixed32(UInt32(bitPattern: v)) } }
    mutating func writeSFixed64(_ field: Int, _ v: Int64?) { if let v { appendTag(field, .fixed64); appendFixed64(UInt64(bitPattern: v)) } }
    mutating func writeEnum<E: ProtoEnum>(_ field: Int, _ v: E?) { if let v { appendTag(field, .varint); appendVarint(UInt64(bitPattern: Int64(v.rawValue))) } }
}
