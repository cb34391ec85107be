/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";
// Unknown fields are skipped as strictly as known ones are read (see scripts/lib/pbjs-postprocess.mjs).
import { skipField as $skipField } from "../skip-field.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = Object.create($protobuf.util, { Long: { value: null } });
// Values of the wrong type are refused, not coerced (see scripts/lib/pbjs-postprocess.mjs).
// What a refused value is: a primitive by its type, an object by its kind, as describeValue of src/errors.ts says it.
const $typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const $kindOf = (v) => { if (v === null) return "null"; if (typeof v === "function") return "a function"; if (typeof v !== "object") return typeof v; if (Array.isArray(v)) return "an array"; if (v instanceof ArrayBuffer) return "an ArrayBuffer"; if (!ArrayBuffer.isView(v)) return "an object"; const name = $typedArrayName.call(v) ?? "DataView"; return (name.startsWith("Int") ? "an " : "a ") + name; };
const $wrongType = (field, want, v) => { throw new TypeError(field + " must be " + want + "; got " + $kindOf(v)); };
const $check_string = (v, f) => (typeof v === "string" ? (v.isWellFormed() ? v : $wrongType(f, "well-formed UTF-16 (no lone surrogate)", v)) : $wrongType(f, "a string", v));
const $isBytes = (v) => $Object.prototype.toString.call(v) === "[object Uint8Array]" || ($Array.isArray(v) && v.every((b) => typeof b === "number" && b >= 0 && b <= 255 && b === (b | 0)));
const $check_bytes = (v, f) => ($isBytes(v) ? v : $wrongType(f, "a Uint8Array (or an array of byte values)", v));
const $check_bool = (v, f) => (typeof v === "boolean" ? v : $wrongType(f, "a boolean", v));
const $check_message = (v, f) => (typeof v === "object" && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer) ? v : $wrongType(f, "an object (a message)", v));
const $check_list = (v, f) => (Array.isArray(v) ? v : $wrongType(f, "an array", v));
// Integers a field cannot carry are refused, not wrapped (see scripts/lib/pbjs-postprocess.mjs).
const $refuse = (field, range, v) => { throw new RangeError(field + " must be an integer in " + range + "; got " + (typeof v === "number" ? v : typeof v)); };
const $check_uint64 = (v, f) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : $refuse(f, "[0, 2^53)", v));
const $check_uint64s = (a, f) => { for (let i = 0; i < a.length; i++) $check_uint64(a[i], f + "[" + i + "]"); return a; };
const $check_uint32 = (v, f) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffffffff ? v : $refuse(f, "[0, 2^32)", v));
const $check_int32 = (v, f) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0x7fffffff ? v : $refuse(f, "[0, 2^31)", v));
// Repeated elements per message are limited (SPEC.md section 5; see scripts/lib/pbjs-postprocess.mjs).
const $MAX_ELEMENTS = 65536;
const $countElement = (reader, field) => { if ((reader.$elements = (reader.$elements | 0) + 1) > $MAX_ELEMENTS) throw new RangeError("more than " + $MAX_ELEMENTS + " repeated elements in one message (at field " + field + "); SPEC.md section 5 limits them"); };
const $uint64sCounted = (reader, into, field) => { const end = reader.size() + reader.pos; while (reader.pos < end) { $countElement(reader, field); into.push($uint64(reader)); } if (reader.pos !== end) throw new RangeError("packed field " + field + " overruns its length"); };
// A non-repeated field occurs once per message (SPEC.md section 5; see scripts/lib/pbjs-postprocess.mjs).
const $refuseRepeat = (field, oneof) => { throw new RangeError("field " + field + (oneof === $undefined ? " occurs twice in one message" : " occurs after oneof " + oneof + " was already set") + "; SPEC.md section 5 allows a non-repeated field once per message"); };
// 64-bit fields are plain numbers (pbjs --force-number; see scripts/lib/pbjs-postprocess.mjs).
const $toNumber = (v) => (typeof v === "number" ? v : $util.LongBits.from(v).toNumber(true));
const $uint64 = (reader) => $toNumber(reader.uint64());
const $uint64s = (reader, into) => { const start = into.length; reader.uint64s(into); for (let i = start; i < into.length; i++) into[i] = $toNumber(into[i]); };
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $Array = $util.global.Array, $TypeError = $util.global.TypeError, $String = $util.global.String, $Number = $util.global.Number, $parseInt = $util.global.parseInt, $BigInt = $util.global.BigInt, $Boolean = $util.global.Boolean;

// Exported root namespace
// Module-local, not in $protobuf.roots: see moduleLocalRoot in scripts/lib/pbjs-postprocess.mjs.
const $root = {};

export const ectp = $root.ectp = (() => {

    /**
     * Namespace ectp.
     * @exports ectp
     * @namespace
     */
    const ectp = {};

    ectp.v1 = (function() {

        /**
         * Namespace v1.
         * @memberof ectp
         * @namespace
         */
        const v1 = {};

        /**
         * The role a peer plays. Unknown values are treated as ROLE_UNSPECIFIED
         * (refused); a new role needs a new major version.
         * @name ectp.v1.Role
         * @enum {number}
         * @property {number} ROLE_UNSPECIFIED=0 Not given. A Hello with this role is rejected as INTERNAL.
         * @property {number} ROLE_PRODUCER=1 Holds items and answers reads (an encoder instance).
         * @property {number} ROLE_CONSUMER=2 Reads items for engine requests (a prefill/decode instance).
         * @property {number} ROLE_BOTH=3 Both roles in one peer.
         */
        v1.Role = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "ROLE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "ROLE_PRODUCER"] = 1;
            values[valuesById[2] = "ROLE_CONSUMER"] = 2;
            values[valuesById[3] = "ROLE_BOTH"] = 3;
            return values;
        })();

        v1.Hello = (function() {

            /**
             * Properties of a Hello.
             * @typedef {Object} ectp.v1.Hello.$Properties
             * @property {ectp.v1.Role|null} [role] Role of the sender.
             * @property {Array.<string>|null} [capabilities] Optional features, as lowercase dotted names. Unknown names MUST be
             * ignored. Empty: none. "events.v1" (SPEC.md 4.1): from a consumer or a
             * subscriber, it wants EventBatches [E1]; from a producer, it publishes them.
             * @property {ectp.v1.Fingerprint.$Properties|null} [fingerprint] Compatibility fingerprint the sender serves or expects. Absent: the
             * all-default fingerprint.
             * @property {Uint8Array|null} [transportMetadata] Transport metadata the receiver needs to reach the sender's memory (e.g.
             * a NIXL agent metadata blob). Loaded once per sender epoch. Empty: the
             * transport needs none.
             * @property {number|null} [heartbeatIntervalMs] Heartbeat interval the sender uses, in milliseconds. 0: the default (2000).
             * The receiver judges the sender's silence by the larger of this and its own
             * interval, counting a value above 60000 as 60000 [P8].
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Hello.
             * @memberof ectp.v1
             * @interface IHello
             * @augments ectp.v1.Hello.$Properties
             * @deprecated Use ectp.v1.Hello.$Properties instead.
             */

            /**
             * Shape of a Hello.
             * @typedef {ectp.v1.Hello.$Properties} ectp.v1.Hello.$Shape
             */

            /**
             * Constructs a new Hello.
             * @memberof ectp.v1
             * @classdesc First message a consumer or subscriber sends to each epoch of a producer,
             * and again after its own restart (new epoch), after it declared the
             * producer gone or let it go idle [P8], and with a subscriber's subscription
             * sent again [E2]; a producer sends one only in answer to a Hello, and an
             * answer MUST have role PRODUCER whatever roles its sender plays, so that no
             * answer is answered (SPEC.md section 4.1). The version check comes before
             * anything else [V1][P7].
             * @constructor
             * @param {ectp.v1.Hello.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Hello = function (properties) {
                this.capabilities = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Role of the sender.
             * @member {ectp.v1.Role} role
             * @memberof ectp.v1.Hello
             * @instance
             */
            Hello.prototype.role = 0;

            /**
             * Optional features, as lowercase dotted names. Unknown names MUST be
             * ignored. Empty: none. "events.v1" (SPEC.md 4.1): from a consumer or a
             * subscriber, it wants EventBatches [E1]; from a producer, it publishes them.
             * @member {Array.<string>} capabilities
             * @memberof ectp.v1.Hello
             * @instance
             */
            Hello.prototype.capabilities = $util.emptyArray;

            /**
             * Compatibility fingerprint the sender serves or expects. Absent: the
             * all-default fingerprint.
             * @member {ectp.v1.Fingerprint.$Properties|null|undefined} fingerprint
             * @memberof ectp.v1.Hello
             * @instance
             */
            Hello.prototype.fingerprint = null;

            /**
             * Transport metadata the receiver needs to reach the sender's memory (e.g.
             * a NIXL agent metadata blob). Loaded once per sender epoch. Empty: the
             * transport needs none.
             * @member {Uint8Array} transportMetadata
             * @memberof ectp.v1.Hello
             * @instance
             */
            Hello.prototype.transportMetadata = $util.newBuffer([]);

            /**
             * Heartbeat interval the sender uses, in milliseconds. 0: the default (2000).
             * The receiver judges the sender's silence by the larger of this and its own
             * interval, counting a value above 60000 as 60000 [P8].
             * @member {number} heartbeatIntervalMs
             * @memberof ectp.v1.Hello
             * @instance
             */
            Hello.prototype.heartbeatIntervalMs = 0;

            /**
             * Creates a new Hello instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Hello
             * @static
             * @param {ectp.v1.Hello.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Hello} Hello instance
             * @type {{
             *   (properties: ectp.v1.Hello.$Shape): ectp.v1.Hello & ectp.v1.Hello.$Shape;
             *   (properties?: ectp.v1.Hello.$Properties): ectp.v1.Hello;
             * }}
             */
            Hello.create = function(properties) {
                return new Hello(properties);
            };

            /**
             * Encodes the specified Hello message. Does not implicitly {@link ectp.v1.Hello.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Hello
             * @static
             * @param {ectp.v1.Hello.$Properties} message Hello message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Hello.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.role != null && $Object.hasOwnProperty.call(message, "role") && message.role !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32($check_int32(message.role, "role"));
                if (message.capabilities != null && $check_list(message.capabilities, "capabilities").length)
                    for (let i = 0; i < message.capabilities.length; ++i)
                        writer.uint32(/* id 2, wireType 2 =*/18).string($check_string(message.capabilities[i], "capabilities"));
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint"))
                    $root.ectp.v1.Fingerprint.encode($check_message(message.fingerprint, "fingerprint"), writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata") && $check_bytes(message.transportMetadata, "transportMetadata").length)
                    writer.uint32(/* id 4, wireType 2 =*/34).bytes(message.transportMetadata /* checked above */);
                if (message.heartbeatIntervalMs != null && $Object.hasOwnProperty.call(message, "heartbeatIntervalMs") && message.heartbeatIntervalMs !== 0)
                    writer.uint32(/* id 5, wireType 0 =*/40).uint32($check_uint32(message.heartbeatIntervalMs, "heartbeatIntervalMs"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Hello message, length delimited. Does not implicitly {@link ectp.v1.Hello.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Hello
             * @static
             * @param {ectp.v1.Hello.$Properties} message Hello message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Hello.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Hello message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Hello
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Hello & ectp.v1.Hello.$Shape} Hello
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Hello.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Hello();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("role");
                            $seen |= 2;
                            if (value = reader.int32())
                                message.role = value;
                            else
                                delete message.role;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.capabilities && message.capabilities.length))
                                message.capabilities = [];
                            $countElement(reader, "capabilities");
                            message.capabilities.push(reader.stringVerify());
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("fingerprint");
                            $seen |= 8;
                            message.fingerprint = $root.ectp.v1.Fingerprint.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("transportMetadata");
                            $seen |= 16;
                            if ((value = reader.bytes()).length)
                                message.transportMetadata = value;
                            else
                                delete message.transportMetadata;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 32)
                                $refuseRepeat("heartbeatIntervalMs");
                            $seen |= 32;
                            if (value = reader.uint32())
                                message.heartbeatIntervalMs = value;
                            else
                                delete message.heartbeatIntervalMs;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Hello message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Hello
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Hello & ectp.v1.Hello.$Shape} Hello
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Hello.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Hello message.
             * @function verify
             * @memberof ectp.v1.Hello
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Hello.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.role != null && $Object.hasOwnProperty.call(message, "role"))
                    if (typeof message.role !== "number" || (message.role | 0) !== message.role)
                        return "role: enum value expected";
                if (message.capabilities != null && $Object.hasOwnProperty.call(message, "capabilities")) {
                    if (!$Array.isArray(message.capabilities))
                        return "capabilities: array expected";
                    for (let i = 0; i < message.capabilities.length; ++i)
                        if (!$util.isString(message.capabilities[i]))
                            return "capabilities: string[] expected";
                }
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint")) {
                    let error = $root.ectp.v1.Fingerprint.verify(message.fingerprint, _depth + 1);
                    if (error)
                        return "fingerprint." + error;
                }
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata"))
                    if (!(message.transportMetadata && typeof message.transportMetadata.length === "number" || $util.isString(message.transportMetadata)))
                        return "transportMetadata: buffer expected";
                if (message.heartbeatIntervalMs != null && $Object.hasOwnProperty.call(message, "heartbeatIntervalMs"))
                    if (!$util.isInteger(message.heartbeatIntervalMs))
                        return "heartbeatIntervalMs: integer expected";
                return null;
            };

            /**
             * Creates a Hello message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Hello
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Hello} Hello
             */
            Hello.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Hello)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Hello: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Hello();
                if (object.role !== 0 && (typeof object.role !== "string" || $root.ectp.v1.Role[object.role] !== 0))
                    switch (object.role) {
                    case "ROLE_UNSPECIFIED":
                    case 0:
                        message.role = 0;
                        break;
                    case "ROLE_PRODUCER":
                    case 1:
                        message.role = 1;
                        break;
                    case "ROLE_CONSUMER":
                    case 2:
                        message.role = 2;
                        break;
                    case "ROLE_BOTH":
                    case 3:
                        message.role = 3;
                        break;
                    default:
                        if (typeof object.role === "number" && (object.role | 0) === object.role)
                            message.role = object.role;
                    }
                if (object.capabilities) {
                    if (!$Array.isArray(object.capabilities))
                        throw $TypeError(".ectp.v1.Hello.capabilities: array expected");
                    message.capabilities = $Array(object.capabilities.length);
                    for (let i = 0; i < object.capabilities.length; ++i)
                        message.capabilities[i] = $String(object.capabilities[i]);
                }
                if (object.fingerprint != null) {
                    if (!$util.isObject(object.fingerprint))
                        throw $TypeError(".ectp.v1.Hello.fingerprint: object expected");
                    message.fingerprint = $root.ectp.v1.Fingerprint.fromObject(object.fingerprint, _depth + 1);
                }
                if (object.transportMetadata != null)
                    if (object.transportMetadata.length)
                        if (typeof object.transportMetadata === "string")
                            $util.base64.decode(object.transportMetadata, message.transportMetadata = $util.newBuffer($util.base64.length(object.transportMetadata)), 0);
                        else if (object.transportMetadata.length >= 0)
                            message.transportMetadata = object.transportMetadata;
                if (object.heartbeatIntervalMs != null)
                    if ($Number(object.heartbeatIntervalMs) !== 0)
                        message.heartbeatIntervalMs = object.heartbeatIntervalMs >>> 0;
                return message;
            };

            /**
             * Creates a plain object from a Hello message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Hello
             * @static
             * @param {ectp.v1.Hello} message Hello
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Hello.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.capabilities = [];
                if (options.defaults) {
                    object.role = options.enums === $String ? "ROLE_UNSPECIFIED" : 0;
                    object.fingerprint = null;
                    if (options.bytes === $String)
                        object.transportMetadata = "";
                    else {
                        object.transportMetadata = [];
                        if (options.bytes !== $Array)
                            object.transportMetadata = $util.newBuffer(object.transportMetadata);
                    }
                    object.heartbeatIntervalMs = 0;
                }
                if (message.role != null && $Object.hasOwnProperty.call(message, "role"))
                    object.role = options.enums === $String ? $root.ectp.v1.Role[message.role] === $undefined ? message.role : $root.ectp.v1.Role[message.role] : message.role;
                if (message.capabilities && message.capabilities.length) {
                    object.capabilities = $Array(message.capabilities.length);
                    for (let j = 0; j < message.capabilities.length; ++j)
                        object.capabilities[j] = message.capabilities[j];
                }
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint"))
                    object.fingerprint = $root.ectp.v1.Fingerprint.toObject(message.fingerprint, options, _depth + 1);
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata"))
                    object.transportMetadata = options.bytes === $String ? $util.base64.encode(message.transportMetadata, 0, message.transportMetadata.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.transportMetadata) : message.transportMetadata;
                if (message.heartbeatIntervalMs != null && $Object.hasOwnProperty.call(message, "heartbeatIntervalMs"))
                    object.heartbeatIntervalMs = message.heartbeatIntervalMs;
                return object;
            };

            /**
             * Converts this Hello to JSON.
             * @function toJSON
             * @memberof ectp.v1.Hello
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Hello.prototype.toJSON = function() {
                return Hello.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Hello
             * @function getTypeUrl
             * @memberof ectp.v1.Hello
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Hello.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Hello";
            };

            return Hello;
        })();

        v1.HandshakeReject = (function() {

            /**
             * Properties of a HandshakeReject.
             * @typedef {Object} ectp.v1.HandshakeReject.$Properties
             * @property {ectp.v1.FailureReason|null} [reason] VERSION, INCOMPATIBLE or INTERNAL.
             * @property {string|null} [detail] Human-readable detail naming what differed. Empty: none.
             * @property {ectp.v1.SpecVersion.$Properties|null} [supported] The spec version the rejecting peer speaks.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a HandshakeReject.
             * @memberof ectp.v1
             * @interface IHandshakeReject
             * @augments ectp.v1.HandshakeReject.$Properties
             * @deprecated Use ectp.v1.HandshakeReject.$Properties instead.
             */

            /**
             * Shape of a HandshakeReject.
             * @typedef {ectp.v1.HandshakeReject.$Properties} ectp.v1.HandshakeReject.$Shape
             */

            /**
             * Constructs a new HandshakeReject.
             * @memberof ectp.v1
             * @classdesc A producer's refusal of a Hello (consumers and subscribers answer no Hello),
             * sent instead of its own Hello, after the Hello's transport_metadata is
             * loaded (as for any message to its sender; not for a Hello of another major,
             * whose body is not acted on [V1]).
             * The receiver of a HandshakeReject it does not ignore MUST NOT send
             * ReadRequests to the rejecting epoch of that peer, or to an older one; a
             * greater epoch, seen in an envelope or named by an announcement, refused
             * nothing; nothing within the refused epochs lifts the ban (SPEC.md section
             * 4.2). Fields 1-3
             * are frozen across major versions, so a peer of any version can read a
             * VERSION refusal.
             * @constructor
             * @param {ectp.v1.HandshakeReject.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const HandshakeReject = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * VERSION, INCOMPATIBLE or INTERNAL.
             * @member {ectp.v1.FailureReason} reason
             * @memberof ectp.v1.HandshakeReject
             * @instance
             */
            HandshakeReject.prototype.reason = 0;

            /**
             * Human-readable detail naming what differed. Empty: none.
             * @member {string} detail
             * @memberof ectp.v1.HandshakeReject
             * @instance
             */
            HandshakeReject.prototype.detail = "";

            /**
             * The spec version the rejecting peer speaks.
             * @member {ectp.v1.SpecVersion.$Properties|null|undefined} supported
             * @memberof ectp.v1.HandshakeReject
             * @instance
             */
            HandshakeReject.prototype.supported = null;

            /**
             * Creates a new HandshakeReject instance using the specified properties.
             * @function create
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {ectp.v1.HandshakeReject.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.HandshakeReject} HandshakeReject instance
             * @type {{
             *   (properties: ectp.v1.HandshakeReject.$Shape): ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape;
             *   (properties?: ectp.v1.HandshakeReject.$Properties): ectp.v1.HandshakeReject;
             * }}
             */
            HandshakeReject.create = function(properties) {
                return new HandshakeReject(properties);
            };

            /**
             * Encodes the specified HandshakeReject message. Does not implicitly {@link ectp.v1.HandshakeReject.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {ectp.v1.HandshakeReject.$Properties} message HandshakeReject message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HandshakeReject.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason") && message.reason !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32($check_int32(message.reason, "reason"));
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail") && message.detail !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string($check_string(message.detail, "detail"));
                if (message.supported != null && $Object.hasOwnProperty.call(message, "supported"))
                    $root.ectp.v1.SpecVersion.encode($check_message(message.supported, "supported"), writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified HandshakeReject message, length delimited. Does not implicitly {@link ectp.v1.HandshakeReject.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {ectp.v1.HandshakeReject.$Properties} message HandshakeReject message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            HandshakeReject.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a HandshakeReject message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape} HandshakeReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HandshakeReject.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.HandshakeReject();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("reason");
                            $seen |= 2;
                            if (value = reader.int32())
                                message.reason = value;
                            else
                                delete message.reason;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("detail");
                            $seen |= 4;
                            if ((value = reader.stringVerify()).length)
                                message.detail = value;
                            else
                                delete message.detail;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("supported");
                            $seen |= 8;
                            message.supported = $root.ectp.v1.SpecVersion.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a HandshakeReject message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape} HandshakeReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            HandshakeReject.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a HandshakeReject message.
             * @function verify
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            HandshakeReject.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason"))
                    if (typeof message.reason !== "number" || (message.reason | 0) !== message.reason)
                        return "reason: enum value expected";
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    if (!$util.isString(message.detail))
                        return "detail: string expected";
                if (message.supported != null && $Object.hasOwnProperty.call(message, "supported")) {
                    let error = $root.ectp.v1.SpecVersion.verify(message.supported, _depth + 1);
                    if (error)
                        return "supported." + error;
                }
                return null;
            };

            /**
             * Creates a HandshakeReject message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.HandshakeReject} HandshakeReject
             */
            HandshakeReject.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.HandshakeReject)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.HandshakeReject: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.HandshakeReject();
                if (object.reason !== 0 && (typeof object.reason !== "string" || $root.ectp.v1.FailureReason[object.reason] !== 0))
                    switch (object.reason) {
                    case "FAILURE_REASON_UNSPECIFIED":
                    case 0:
                        message.reason = 0;
                        break;
                    case "FAILURE_REASON_NOT_READY":
                    case 1:
                        message.reason = 1;
                        break;
                    case "FAILURE_REASON_NOT_FOUND":
                    case 2:
                        message.reason = 2;
                        break;
                    case "FAILURE_REASON_OVERLOADED":
                    case 3:
                        message.reason = 3;
                        break;
                    case "FAILURE_REASON_INCOMPATIBLE":
                    case 4:
                        message.reason = 4;
                        break;
                    case "FAILURE_REASON_VERSION":
                    case 5:
                        message.reason = 5;
                        break;
                    case "FAILURE_REASON_INTERNAL":
                    case 6:
                        message.reason = 6;
                        break;
                    case "FAILURE_REASON_SHUTTING_DOWN":
                    case 7:
                        message.reason = 7;
                        break;
                    case "FAILURE_REASON_GRANT_TIMEOUT":
                    case 8:
                        message.reason = 8;
                        break;
                    case "FAILURE_REASON_PEER_UNREACHABLE":
                    case 9:
                        message.reason = 9;
                        break;
                    case "FAILURE_REASON_TRANSFER_FAILED":
                    case 10:
                        message.reason = 10;
                        break;
                    case "FAILURE_REASON_TRANSFER_TIMEOUT":
                    case 11:
                        message.reason = 11;
                        break;
                    case "FAILURE_REASON_SIZE_MISMATCH":
                    case 12:
                        message.reason = 12;
                        break;
                    case "FAILURE_REASON_CHECKSUM_MISMATCH":
                    case 13:
                        message.reason = 13;
                        break;
                    case "FAILURE_REASON_EPOCH_CHANGED":
                    case 14:
                        message.reason = 14;
                        break;
                    case "FAILURE_REASON_INVALID_ANNOUNCEMENT":
                    case 15:
                        message.reason = 15;
                        break;
                    case "FAILURE_REASON_BUDGET_EXHAUSTED":
                    case 16:
                        message.reason = 16;
                        break;
                    case "FAILURE_REASON_UNAVAILABLE":
                    case 17:
                        message.reason = 17;
                        break;
                    case "FAILURE_REASON_LEASE_EXPIRED":
                    case 18:
                        message.reason = 18;
                        break;
                    default:
                        if (typeof object.reason === "number" && (object.reason | 0) === object.reason)
                            message.reason = object.reason;
                    }
                if (object.detail != null)
                    if (typeof object.detail !== "string" || object.detail.length)
                        message.detail = $String(object.detail);
                if (object.supported != null) {
                    if (!$util.isObject(object.supported))
                        throw $TypeError(".ectp.v1.HandshakeReject.supported: object expected");
                    message.supported = $root.ectp.v1.SpecVersion.fromObject(object.supported, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from a HandshakeReject message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {ectp.v1.HandshakeReject} message HandshakeReject
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            HandshakeReject.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.reason = options.enums === $String ? "FAILURE_REASON_UNSPECIFIED" : 0;
                    object.detail = "";
                    object.supported = null;
                }
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason"))
                    object.reason = options.enums === $String ? $root.ectp.v1.FailureReason[message.reason] === $undefined ? message.reason : $root.ectp.v1.FailureReason[message.reason] : message.reason;
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    object.detail = message.detail;
                if (message.supported != null && $Object.hasOwnProperty.call(message, "supported"))
                    object.supported = $root.ectp.v1.SpecVersion.toObject(message.supported, options, _depth + 1);
                return object;
            };

            /**
             * Converts this HandshakeReject to JSON.
             * @function toJSON
             * @memberof ectp.v1.HandshakeReject
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            HandshakeReject.prototype.toJSON = function() {
                return HandshakeReject.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for HandshakeReject
             * @function getTypeUrl
             * @memberof ectp.v1.HandshakeReject
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            HandshakeReject.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.HandshakeReject";
            };

            return HandshakeReject;
        })();

        v1.ReadRequest = (function() {

            /**
             * Properties of a ReadRequest.
             * @typedef {Object} ectp.v1.ReadRequest.$Properties
             * @property {number|null} [attemptId] MUST be strictly greater than every attempt id the consumer sent before in
             * this epoch (so > 0); replies echo it. A producer ignores a request whose
             * attempt_id is lower than, and does not re-grant one equal to, the attempt
             * of that consumer's live grant for the same key [P3][C10].
             * @property {ectp.v1.ItemKey.$Properties|null} [key] The item wanted. Required.
             * @property {number|null} [expectedEpoch] The producer epoch the consumer's announcement named [P8]. 0: any epoch.
             * A producer whose epoch differs rejects with EPOCH_CHANGED.
             * @property {number|null} [expectedSizeBytes] The size the announcement named. 0: unknown. A producer whose item has
             * another size rejects with INTERNAL.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReadRequest.
             * @memberof ectp.v1
             * @interface IReadRequest
             * @augments ectp.v1.ReadRequest.$Properties
             * @deprecated Use ectp.v1.ReadRequest.$Properties instead.
             */

            /**
             * Shape of a ReadRequest.
             * @typedef {ectp.v1.ReadRequest.$Properties} ectp.v1.ReadRequest.$Shape
             */

            /**
             * Constructs a new ReadRequest.
             * @memberof ectp.v1
             * @classdesc Consumer to producer: please grant a read of an item.
             * @constructor
             * @param {ectp.v1.ReadRequest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReadRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * MUST be strictly greater than every attempt id the consumer sent before in
             * this epoch (so > 0); replies echo it. A producer ignores a request whose
             * attempt_id is lower than, and does not re-grant one equal to, the attempt
             * of that consumer's live grant for the same key [P3][C10].
             * @member {number} attemptId
             * @memberof ectp.v1.ReadRequest
             * @instance
             */
            ReadRequest.prototype.attemptId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * The item wanted. Required.
             * @member {ectp.v1.ItemKey.$Properties|null|undefined} key
             * @memberof ectp.v1.ReadRequest
             * @instance
             */
            ReadRequest.prototype.key = null;

            /**
             * The producer epoch the consumer's announcement named [P8]. 0: any epoch.
             * A producer whose epoch differs rejects with EPOCH_CHANGED.
             * @member {number} expectedEpoch
             * @memberof ectp.v1.ReadRequest
             * @instance
             */
            ReadRequest.prototype.expectedEpoch = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * The size the announcement named. 0: unknown. A producer whose item has
             * another size rejects with INTERNAL.
             * @member {number} expectedSizeBytes
             * @memberof ectp.v1.ReadRequest
             * @instance
             */
            ReadRequest.prototype.expectedSizeBytes = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Creates a new ReadRequest instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {ectp.v1.ReadRequest.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReadRequest} ReadRequest instance
             * @type {{
             *   (properties: ectp.v1.ReadRequest.$Shape): ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape;
             *   (properties?: ectp.v1.ReadRequest.$Properties): ectp.v1.ReadRequest;
             * }}
             */
            ReadRequest.create = function(properties) {
                return new ReadRequest(properties);
            };

            /**
             * Encodes the specified ReadRequest message. Does not implicitly {@link ectp.v1.ReadRequest.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {ectp.v1.ReadRequest.$Properties} message ReadRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId") && $check_uint64(message.attemptId, "attemptId") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.attemptId, "attemptId"));
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    $root.ectp.v1.ItemKey.encode($check_message(message.key, "key"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.expectedEpoch != null && $Object.hasOwnProperty.call(message, "expectedEpoch") && $check_uint64(message.expectedEpoch, "expectedEpoch") !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint64($check_uint64(message.expectedEpoch, "expectedEpoch"));
                if (message.expectedSizeBytes != null && $Object.hasOwnProperty.call(message, "expectedSizeBytes") && $check_uint64(message.expectedSizeBytes, "expectedSizeBytes") !== 0)
                    writer.uint32(/* id 4, wireType 0 =*/32).uint64($check_uint64(message.expectedSizeBytes, "expectedSizeBytes"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReadRequest message, length delimited. Does not implicitly {@link ectp.v1.ReadRequest.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {ectp.v1.ReadRequest.$Properties} message ReadRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadRequest.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReadRequest message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape} ReadRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReadRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("attemptId");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.attemptId = value;
                            else
                                delete message.attemptId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("key");
                            $seen |= 4;
                            message.key = $root.ectp.v1.ItemKey.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("expectedEpoch");
                            $seen |= 8;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.expectedEpoch = value;
                            else
                                delete message.expectedEpoch;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("expectedSizeBytes");
                            $seen |= 16;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.expectedSizeBytes = value;
                            else
                                delete message.expectedSizeBytes;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReadRequest message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape} ReadRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadRequest.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReadRequest message.
             * @function verify
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReadRequest.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (!$util.isInteger(message.attemptId) && !(message.attemptId && $util.isInteger(message.attemptId.low) && $util.isInteger(message.attemptId.high)))
                        return "attemptId: integer|Long expected";
                if (message.key != null && $Object.hasOwnProperty.call(message, "key")) {
                    let error = $root.ectp.v1.ItemKey.verify(message.key, _depth + 1);
                    if (error)
                        return "key." + error;
                }
                if (message.expectedEpoch != null && $Object.hasOwnProperty.call(message, "expectedEpoch"))
                    if (!$util.isInteger(message.expectedEpoch) && !(message.expectedEpoch && $util.isInteger(message.expectedEpoch.low) && $util.isInteger(message.expectedEpoch.high)))
                        return "expectedEpoch: integer|Long expected";
                if (message.expectedSizeBytes != null && $Object.hasOwnProperty.call(message, "expectedSizeBytes"))
                    if (!$util.isInteger(message.expectedSizeBytes) && !(message.expectedSizeBytes && $util.isInteger(message.expectedSizeBytes.low) && $util.isInteger(message.expectedSizeBytes.high)))
                        return "expectedSizeBytes: integer|Long expected";
                return null;
            };

            /**
             * Creates a ReadRequest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReadRequest} ReadRequest
             */
            ReadRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReadRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReadRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReadRequest();
                if (object.attemptId != null)
                    if (typeof object.attemptId === "object" ? object.attemptId.low || object.attemptId.high : $Number(object.attemptId) !== 0)
                        if ($util.Long)
                            message.attemptId = $util.Long.fromValue(object.attemptId, true);
                        else if (typeof object.attemptId === "string")
                            message.attemptId = $parseInt(object.attemptId, 10);
                        else if (typeof object.attemptId === "number")
                            message.attemptId = object.attemptId;
                        else if (typeof object.attemptId === "object")
                            message.attemptId = new $util.LongBits(object.attemptId.low >>> 0, object.attemptId.high >>> 0).toNumber(true);
                if (object.key != null) {
                    if (!$util.isObject(object.key))
                        throw $TypeError(".ectp.v1.ReadRequest.key: object expected");
                    message.key = $root.ectp.v1.ItemKey.fromObject(object.key, _depth + 1);
                }
                if (object.expectedEpoch != null)
                    if (typeof object.expectedEpoch === "object" ? object.expectedEpoch.low || object.expectedEpoch.high : $Number(object.expectedEpoch) !== 0)
                        if ($util.Long)
                            message.expectedEpoch = $util.Long.fromValue(object.expectedEpoch, true);
                        else if (typeof object.expectedEpoch === "string")
                            message.expectedEpoch = $parseInt(object.expectedEpoch, 10);
                        else if (typeof object.expectedEpoch === "number")
                            message.expectedEpoch = object.expectedEpoch;
                        else if (typeof object.expectedEpoch === "object")
                            message.expectedEpoch = new $util.LongBits(object.expectedEpoch.low >>> 0, object.expectedEpoch.high >>> 0).toNumber(true);
                if (object.expectedSizeBytes != null)
                    if (typeof object.expectedSizeBytes === "object" ? object.expectedSizeBytes.low || object.expectedSizeBytes.high : $Number(object.expectedSizeBytes) !== 0)
                        if ($util.Long)
                            message.expectedSizeBytes = $util.Long.fromValue(object.expectedSizeBytes, true);
                        else if (typeof object.expectedSizeBytes === "string")
                            message.expectedSizeBytes = $parseInt(object.expectedSizeBytes, 10);
                        else if (typeof object.expectedSizeBytes === "number")
                            message.expectedSizeBytes = object.expectedSizeBytes;
                        else if (typeof object.expectedSizeBytes === "object")
                            message.expectedSizeBytes = new $util.LongBits(object.expectedSizeBytes.low >>> 0, object.expectedSizeBytes.high >>> 0).toNumber(true);
                return message;
            };

            /**
             * Creates a plain object from a ReadRequest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {ectp.v1.ReadRequest} message ReadRequest
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReadRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.attemptId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.attemptId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.key = null;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.expectedEpoch = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.expectedEpoch = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.expectedSizeBytes = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.expectedSizeBytes = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.attemptId = typeof message.attemptId === "number" ? $BigInt(message.attemptId) : $util.Long.fromBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0, true).toBigInt();
                    else if (typeof message.attemptId === "number")
                        object.attemptId = options.longs === $String ? $String(message.attemptId) : message.attemptId;
                    else
                        object.attemptId = options.longs === $String ? $util.Long.prototype.toString.call(message.attemptId) : options.longs === $Number ? new $util.LongBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0).toNumber(true) : message.attemptId;
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    object.key = $root.ectp.v1.ItemKey.toObject(message.key, options, _depth + 1);
                if (message.expectedEpoch != null && $Object.hasOwnProperty.call(message, "expectedEpoch"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.expectedEpoch = typeof message.expectedEpoch === "number" ? $BigInt(message.expectedEpoch) : $util.Long.fromBits(message.expectedEpoch.low >>> 0, message.expectedEpoch.high >>> 0, true).toBigInt();
                    else if (typeof message.expectedEpoch === "number")
                        object.expectedEpoch = options.longs === $String ? $String(message.expectedEpoch) : message.expectedEpoch;
                    else
                        object.expectedEpoch = options.longs === $String ? $util.Long.prototype.toString.call(message.expectedEpoch) : options.longs === $Number ? new $util.LongBits(message.expectedEpoch.low >>> 0, message.expectedEpoch.high >>> 0).toNumber(true) : message.expectedEpoch;
                if (message.expectedSizeBytes != null && $Object.hasOwnProperty.call(message, "expectedSizeBytes"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.expectedSizeBytes = typeof message.expectedSizeBytes === "number" ? $BigInt(message.expectedSizeBytes) : $util.Long.fromBits(message.expectedSizeBytes.low >>> 0, message.expectedSizeBytes.high >>> 0, true).toBigInt();
                    else if (typeof message.expectedSizeBytes === "number")
                        object.expectedSizeBytes = options.longs === $String ? $String(message.expectedSizeBytes) : message.expectedSizeBytes;
                    else
                        object.expectedSizeBytes = options.longs === $String ? $util.Long.prototype.toString.call(message.expectedSizeBytes) : options.longs === $Number ? new $util.LongBits(message.expectedSizeBytes.low >>> 0, message.expectedSizeBytes.high >>> 0).toNumber(true) : message.expectedSizeBytes;
                return object;
            };

            /**
             * Converts this ReadRequest to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReadRequest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReadRequest.prototype.toJSON = function() {
                return ReadRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReadRequest
             * @function getTypeUrl
             * @memberof ectp.v1.ReadRequest
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReadRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReadRequest";
            };

            return ReadRequest;
        })();

        v1.ReadGrant = (function() {

            /**
             * Properties of a ReadGrant.
             * @typedef {Object} ectp.v1.ReadGrant.$Properties
             * @property {number|null} [attemptId] The ReadRequest this answers.
             * @property {number|null} [grantId] Unique per producer epoch; the consumer MUST name it in ReadComplete. > 0.
             * @property {ectp.v1.ItemDescriptor.$Properties|null} [item] The item, including its current location. It names the granting producer
             * and its current epoch (SPEC.md section 4.4).
             * @property {number|null} [leaseMs] Lease in milliseconds, counted by the producer from when it sent the grant.
             * 0: the default (30000).
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReadGrant.
             * @memberof ectp.v1
             * @interface IReadGrant
             * @augments ectp.v1.ReadGrant.$Properties
             * @deprecated Use ectp.v1.ReadGrant.$Properties instead.
             */

            /**
             * Shape of a ReadGrant.
             * @typedef {ectp.v1.ReadGrant.$Properties} ectp.v1.ReadGrant.$Shape
             */

            /**
             * Constructs a new ReadGrant.
             * @memberof ectp.v1
             * @classdesc Producer to consumer: the item is pinned for this consumer under a grant
             * until the consumer's ReadComplete or the lease's end [P2][P3].
             * @constructor
             * @param {ectp.v1.ReadGrant.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReadGrant = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * The ReadRequest this answers.
             * @member {number} attemptId
             * @memberof ectp.v1.ReadGrant
             * @instance
             */
            ReadGrant.prototype.attemptId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Unique per producer epoch; the consumer MUST name it in ReadComplete. > 0.
             * @member {number} grantId
             * @memberof ectp.v1.ReadGrant
             * @instance
             */
            ReadGrant.prototype.grantId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * The item, including its current location. It names the granting producer
             * and its current epoch (SPEC.md section 4.4).
             * @member {ectp.v1.ItemDescriptor.$Properties|null|undefined} item
             * @memberof ectp.v1.ReadGrant
             * @instance
             */
            ReadGrant.prototype.item = null;

            /**
             * Lease in milliseconds, counted by the producer from when it sent the grant.
             * 0: the default (30000).
             * @member {number} leaseMs
             * @memberof ectp.v1.ReadGrant
             * @instance
             */
            ReadGrant.prototype.leaseMs = 0;

            /**
             * Creates a new ReadGrant instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {ectp.v1.ReadGrant.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReadGrant} ReadGrant instance
             * @type {{
             *   (properties: ectp.v1.ReadGrant.$Shape): ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape;
             *   (properties?: ectp.v1.ReadGrant.$Properties): ectp.v1.ReadGrant;
             * }}
             */
            ReadGrant.create = function(properties) {
                return new ReadGrant(properties);
            };

            /**
             * Encodes the specified ReadGrant message. Does not implicitly {@link ectp.v1.ReadGrant.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {ectp.v1.ReadGrant.$Properties} message ReadGrant message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadGrant.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId") && $check_uint64(message.attemptId, "attemptId") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.attemptId, "attemptId"));
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId") && $check_uint64(message.grantId, "grantId") !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint64($check_uint64(message.grantId, "grantId"));
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    $root.ectp.v1.ItemDescriptor.encode($check_message(message.item, "item"), writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && message.leaseMs !== 0)
                    writer.uint32(/* id 4, wireType 0 =*/32).uint32($check_uint32(message.leaseMs, "leaseMs"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReadGrant message, length delimited. Does not implicitly {@link ectp.v1.ReadGrant.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {ectp.v1.ReadGrant.$Properties} message ReadGrant message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadGrant.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReadGrant message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape} ReadGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadGrant.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReadGrant();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("attemptId");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.attemptId = value;
                            else
                                delete message.attemptId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("grantId");
                            $seen |= 4;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.grantId = value;
                            else
                                delete message.grantId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("item");
                            $seen |= 8;
                            message.item = $root.ectp.v1.ItemDescriptor.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("leaseMs");
                            $seen |= 16;
                            if (value = reader.uint32())
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReadGrant message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape} ReadGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadGrant.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReadGrant message.
             * @function verify
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReadGrant.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (!$util.isInteger(message.attemptId) && !(message.attemptId && $util.isInteger(message.attemptId.low) && $util.isInteger(message.attemptId.high)))
                        return "attemptId: integer|Long expected";
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId"))
                    if (!$util.isInteger(message.grantId) && !(message.grantId && $util.isInteger(message.grantId.low) && $util.isInteger(message.grantId.high)))
                        return "grantId: integer|Long expected";
                if (message.item != null && $Object.hasOwnProperty.call(message, "item")) {
                    let error = $root.ectp.v1.ItemDescriptor.verify(message.item, _depth + 1);
                    if (error)
                        return "item." + error;
                }
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs"))
                    if (!$util.isInteger(message.leaseMs))
                        return "leaseMs: integer expected";
                return null;
            };

            /**
             * Creates a ReadGrant message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReadGrant} ReadGrant
             */
            ReadGrant.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReadGrant)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReadGrant: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReadGrant();
                if (object.attemptId != null)
                    if (typeof object.attemptId === "object" ? object.attemptId.low || object.attemptId.high : $Number(object.attemptId) !== 0)
                        if ($util.Long)
                            message.attemptId = $util.Long.fromValue(object.attemptId, true);
                        else if (typeof object.attemptId === "string")
                            message.attemptId = $parseInt(object.attemptId, 10);
                        else if (typeof object.attemptId === "number")
                            message.attemptId = object.attemptId;
                        else if (typeof object.attemptId === "object")
                            message.attemptId = new $util.LongBits(object.attemptId.low >>> 0, object.attemptId.high >>> 0).toNumber(true);
                if (object.grantId != null)
                    if (typeof object.grantId === "object" ? object.grantId.low || object.grantId.high : $Number(object.grantId) !== 0)
                        if ($util.Long)
                            message.grantId = $util.Long.fromValue(object.grantId, true);
                        else if (typeof object.grantId === "string")
                            message.grantId = $parseInt(object.grantId, 10);
                        else if (typeof object.grantId === "number")
                            message.grantId = object.grantId;
                        else if (typeof object.grantId === "object")
                            message.grantId = new $util.LongBits(object.grantId.low >>> 0, object.grantId.high >>> 0).toNumber(true);
                if (object.item != null) {
                    if (!$util.isObject(object.item))
                        throw $TypeError(".ectp.v1.ReadGrant.item: object expected");
                    message.item = $root.ectp.v1.ItemDescriptor.fromObject(object.item, _depth + 1);
                }
                if (object.leaseMs != null)
                    if ($Number(object.leaseMs) !== 0)
                        message.leaseMs = object.leaseMs >>> 0;
                return message;
            };

            /**
             * Creates a plain object from a ReadGrant message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {ectp.v1.ReadGrant} message ReadGrant
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReadGrant.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.attemptId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.attemptId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.grantId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.grantId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.item = null;
                    object.leaseMs = 0;
                }
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.attemptId = typeof message.attemptId === "number" ? $BigInt(message.attemptId) : $util.Long.fromBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0, true).toBigInt();
                    else if (typeof message.attemptId === "number")
                        object.attemptId = options.longs === $String ? $String(message.attemptId) : message.attemptId;
                    else
                        object.attemptId = options.longs === $String ? $util.Long.prototype.toString.call(message.attemptId) : options.longs === $Number ? new $util.LongBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0).toNumber(true) : message.attemptId;
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.grantId = typeof message.grantId === "number" ? $BigInt(message.grantId) : $util.Long.fromBits(message.grantId.low >>> 0, message.grantId.high >>> 0, true).toBigInt();
                    else if (typeof message.grantId === "number")
                        object.grantId = options.longs === $String ? $String(message.grantId) : message.grantId;
                    else
                        object.grantId = options.longs === $String ? $util.Long.prototype.toString.call(message.grantId) : options.longs === $Number ? new $util.LongBits(message.grantId.low >>> 0, message.grantId.high >>> 0).toNumber(true) : message.grantId;
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    object.item = $root.ectp.v1.ItemDescriptor.toObject(message.item, options, _depth + 1);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs"))
                    object.leaseMs = message.leaseMs;
                return object;
            };

            /**
             * Converts this ReadGrant to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReadGrant
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReadGrant.prototype.toJSON = function() {
                return ReadGrant.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReadGrant
             * @function getTypeUrl
             * @memberof ectp.v1.ReadGrant
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReadGrant.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReadGrant";
            };

            return ReadGrant;
        })();

        v1.ReadReject = (function() {

            /**
             * Properties of a ReadReject.
             * @typedef {Object} ectp.v1.ReadReject.$Properties
             * @property {number|null} [attemptId] The ReadRequest this answers.
             * @property {ectp.v1.FailureReason|null} [reason] Why the read is refused (FailureReason, e.g. NOT_READY, NOT_FOUND,
             * OVERLOADED). Unknown values are treated as INTERNAL [V1].
             * @property {boolean|null} [retryable] Whether the producer considers the refusal retryable. The consumer uses
             * the SPEC.md table for known reasons and this flag only for unknown ones.
             * @property {number|null} [retryAfterMs] Earliest sensible retry, in milliseconds from receipt. 0: no hint; the
             * consumer's own backoff applies [C4]. The consumer never retries sooner
             * than its backoff, whatever this says.
             * @property {string|null} [detail] Human-readable detail. Empty: none.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReadReject.
             * @memberof ectp.v1
             * @interface IReadReject
             * @augments ectp.v1.ReadReject.$Properties
             * @deprecated Use ectp.v1.ReadReject.$Properties instead.
             */

            /**
             * Shape of a ReadReject.
             * @typedef {ectp.v1.ReadReject.$Properties} ectp.v1.ReadReject.$Shape
             */

            /**
             * Constructs a new ReadReject.
             * @memberof ectp.v1
             * @classdesc Producer to consumer: the read is refused.
             * @constructor
             * @param {ectp.v1.ReadReject.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReadReject = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * The ReadRequest this answers.
             * @member {number} attemptId
             * @memberof ectp.v1.ReadReject
             * @instance
             */
            ReadReject.prototype.attemptId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Why the read is refused (FailureReason, e.g. NOT_READY, NOT_FOUND,
             * OVERLOADED). Unknown values are treated as INTERNAL [V1].
             * @member {ectp.v1.FailureReason} reason
             * @memberof ectp.v1.ReadReject
             * @instance
             */
            ReadReject.prototype.reason = 0;

            /**
             * Whether the producer considers the refusal retryable. The consumer uses
             * the SPEC.md table for known reasons and this flag only for unknown ones.
             * @member {boolean} retryable
             * @memberof ectp.v1.ReadReject
             * @instance
             */
            ReadReject.prototype.retryable = false;

            /**
             * Earliest sensible retry, in milliseconds from receipt. 0: no hint; the
             * consumer's own backoff applies [C4]. The consumer never retries sooner
             * than its backoff, whatever this says.
             * @member {number} retryAfterMs
             * @memberof ectp.v1.ReadReject
             * @instance
             */
            ReadReject.prototype.retryAfterMs = 0;

            /**
             * Human-readable detail. Empty: none.
             * @member {string} detail
             * @memberof ectp.v1.ReadReject
             * @instance
             */
            ReadReject.prototype.detail = "";

            /**
             * Creates a new ReadReject instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {ectp.v1.ReadReject.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReadReject} ReadReject instance
             * @type {{
             *   (properties: ectp.v1.ReadReject.$Shape): ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape;
             *   (properties?: ectp.v1.ReadReject.$Properties): ectp.v1.ReadReject;
             * }}
             */
            ReadReject.create = function(properties) {
                return new ReadReject(properties);
            };

            /**
             * Encodes the specified ReadReject message. Does not implicitly {@link ectp.v1.ReadReject.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {ectp.v1.ReadReject.$Properties} message ReadReject message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadReject.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId") && $check_uint64(message.attemptId, "attemptId") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.attemptId, "attemptId"));
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason") && message.reason !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).int32($check_int32(message.reason, "reason"));
                if (message.retryable != null && $Object.hasOwnProperty.call(message, "retryable") && message.retryable !== false)
                    writer.uint32(/* id 3, wireType 0 =*/24).bool($check_bool(message.retryable, "retryable"));
                if (message.retryAfterMs != null && $Object.hasOwnProperty.call(message, "retryAfterMs") && message.retryAfterMs !== 0)
                    writer.uint32(/* id 4, wireType 0 =*/32).uint32($check_uint32(message.retryAfterMs, "retryAfterMs"));
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail") && message.detail !== "")
                    writer.uint32(/* id 5, wireType 2 =*/42).string($check_string(message.detail, "detail"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReadReject message, length delimited. Does not implicitly {@link ectp.v1.ReadReject.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {ectp.v1.ReadReject.$Properties} message ReadReject message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadReject.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReadReject message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape} ReadReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadReject.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReadReject();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("attemptId");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.attemptId = value;
                            else
                                delete message.attemptId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("reason");
                            $seen |= 4;
                            if (value = reader.int32())
                                message.reason = value;
                            else
                                delete message.reason;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("retryable");
                            $seen |= 8;
                            if (value = reader.bool())
                                message.retryable = value;
                            else
                                delete message.retryable;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("retryAfterMs");
                            $seen |= 16;
                            if (value = reader.uint32())
                                message.retryAfterMs = value;
                            else
                                delete message.retryAfterMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 32)
                                $refuseRepeat("detail");
                            $seen |= 32;
                            if ((value = reader.stringVerify()).length)
                                message.detail = value;
                            else
                                delete message.detail;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReadReject message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape} ReadReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadReject.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReadReject message.
             * @function verify
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReadReject.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (!$util.isInteger(message.attemptId) && !(message.attemptId && $util.isInteger(message.attemptId.low) && $util.isInteger(message.attemptId.high)))
                        return "attemptId: integer|Long expected";
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason"))
                    if (typeof message.reason !== "number" || (message.reason | 0) !== message.reason)
                        return "reason: enum value expected";
                if (message.retryable != null && $Object.hasOwnProperty.call(message, "retryable"))
                    if (typeof message.retryable !== "boolean")
                        return "retryable: boolean expected";
                if (message.retryAfterMs != null && $Object.hasOwnProperty.call(message, "retryAfterMs"))
                    if (!$util.isInteger(message.retryAfterMs))
                        return "retryAfterMs: integer expected";
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    if (!$util.isString(message.detail))
                        return "detail: string expected";
                return null;
            };

            /**
             * Creates a ReadReject message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReadReject} ReadReject
             */
            ReadReject.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReadReject)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReadReject: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReadReject();
                if (object.attemptId != null)
                    if (typeof object.attemptId === "object" ? object.attemptId.low || object.attemptId.high : $Number(object.attemptId) !== 0)
                        if ($util.Long)
                            message.attemptId = $util.Long.fromValue(object.attemptId, true);
                        else if (typeof object.attemptId === "string")
                            message.attemptId = $parseInt(object.attemptId, 10);
                        else if (typeof object.attemptId === "number")
                            message.attemptId = object.attemptId;
                        else if (typeof object.attemptId === "object")
                            message.attemptId = new $util.LongBits(object.attemptId.low >>> 0, object.attemptId.high >>> 0).toNumber(true);
                if (object.reason !== 0 && (typeof object.reason !== "string" || $root.ectp.v1.FailureReason[object.reason] !== 0))
                    switch (object.reason) {
                    case "FAILURE_REASON_UNSPECIFIED":
                    case 0:
                        message.reason = 0;
                        break;
                    case "FAILURE_REASON_NOT_READY":
                    case 1:
                        message.reason = 1;
                        break;
                    case "FAILURE_REASON_NOT_FOUND":
                    case 2:
                        message.reason = 2;
                        break;
                    case "FAILURE_REASON_OVERLOADED":
                    case 3:
                        message.reason = 3;
                        break;
                    case "FAILURE_REASON_INCOMPATIBLE":
                    case 4:
                        message.reason = 4;
                        break;
                    case "FAILURE_REASON_VERSION":
                    case 5:
                        message.reason = 5;
                        break;
                    case "FAILURE_REASON_INTERNAL":
                    case 6:
                        message.reason = 6;
                        break;
                    case "FAILURE_REASON_SHUTTING_DOWN":
                    case 7:
                        message.reason = 7;
                        break;
                    case "FAILURE_REASON_GRANT_TIMEOUT":
                    case 8:
                        message.reason = 8;
                        break;
                    case "FAILURE_REASON_PEER_UNREACHABLE":
                    case 9:
                        message.reason = 9;
                        break;
                    case "FAILURE_REASON_TRANSFER_FAILED":
                    case 10:
                        message.reason = 10;
                        break;
                    case "FAILURE_REASON_TRANSFER_TIMEOUT":
                    case 11:
                        message.reason = 11;
                        break;
                    case "FAILURE_REASON_SIZE_MISMATCH":
                    case 12:
                        message.reason = 12;
                        break;
                    case "FAILURE_REASON_CHECKSUM_MISMATCH":
                    case 13:
                        message.reason = 13;
                        break;
                    case "FAILURE_REASON_EPOCH_CHANGED":
                    case 14:
                        message.reason = 14;
                        break;
                    case "FAILURE_REASON_INVALID_ANNOUNCEMENT":
                    case 15:
                        message.reason = 15;
                        break;
                    case "FAILURE_REASON_BUDGET_EXHAUSTED":
                    case 16:
                        message.reason = 16;
                        break;
                    case "FAILURE_REASON_UNAVAILABLE":
                    case 17:
                        message.reason = 17;
                        break;
                    case "FAILURE_REASON_LEASE_EXPIRED":
                    case 18:
                        message.reason = 18;
                        break;
                    default:
                        if (typeof object.reason === "number" && (object.reason | 0) === object.reason)
                            message.reason = object.reason;
                    }
                if (object.retryable != null)
                    if (object.retryable)
                        message.retryable = $Boolean(object.retryable);
                if (object.retryAfterMs != null)
                    if ($Number(object.retryAfterMs) !== 0)
                        message.retryAfterMs = object.retryAfterMs >>> 0;
                if (object.detail != null)
                    if (typeof object.detail !== "string" || object.detail.length)
                        message.detail = $String(object.detail);
                return message;
            };

            /**
             * Creates a plain object from a ReadReject message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {ectp.v1.ReadReject} message ReadReject
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReadReject.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.attemptId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.attemptId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.reason = options.enums === $String ? "FAILURE_REASON_UNSPECIFIED" : 0;
                    object.retryable = false;
                    object.retryAfterMs = 0;
                    object.detail = "";
                }
                if (message.attemptId != null && $Object.hasOwnProperty.call(message, "attemptId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.attemptId = typeof message.attemptId === "number" ? $BigInt(message.attemptId) : $util.Long.fromBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0, true).toBigInt();
                    else if (typeof message.attemptId === "number")
                        object.attemptId = options.longs === $String ? $String(message.attemptId) : message.attemptId;
                    else
                        object.attemptId = options.longs === $String ? $util.Long.prototype.toString.call(message.attemptId) : options.longs === $Number ? new $util.LongBits(message.attemptId.low >>> 0, message.attemptId.high >>> 0).toNumber(true) : message.attemptId;
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason"))
                    object.reason = options.enums === $String ? $root.ectp.v1.FailureReason[message.reason] === $undefined ? message.reason : $root.ectp.v1.FailureReason[message.reason] : message.reason;
                if (message.retryable != null && $Object.hasOwnProperty.call(message, "retryable"))
                    object.retryable = message.retryable;
                if (message.retryAfterMs != null && $Object.hasOwnProperty.call(message, "retryAfterMs"))
                    object.retryAfterMs = message.retryAfterMs;
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    object.detail = message.detail;
                return object;
            };

            /**
             * Converts this ReadReject to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReadReject
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReadReject.prototype.toJSON = function() {
                return ReadReject.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReadReject
             * @function getTypeUrl
             * @memberof ectp.v1.ReadReject
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReadReject.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReadReject";
            };

            return ReadReject;
        })();

        /**
         * Status of a finished grant, as reported by the consumer. Unknown values are
         * treated as FAILED; the pin is released all the same.
         * @name ectp.v1.CompletionStatus
         * @enum {number}
         * @property {number} COMPLETION_STATUS_UNSPECIFIED=0 Not given. Treated as FAILED (the pin is released all the same).
         * @property {number} COMPLETION_STATUS_OK=1 The bytes were read and verified.
         * @property {number} COMPLETION_STATUS_FAILED=2 The read failed or the bytes did not verify, or the grant was refused
         * unread (its descriptor or lease deadline failed the checks of SPEC.md
         * section 4.4, steps 2 and 3).
         * @property {number} COMPLETION_STATUS_ABANDONED=3 The consumer no longer wants the item (request finished or cancelled,
         * a grant nobody waits for, a destination pool full) [C7]. A duplicate of a
         * grant it holds is ignored, not released (SPEC.md section 4.4).
         */
        v1.CompletionStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "COMPLETION_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "COMPLETION_STATUS_OK"] = 1;
            values[valuesById[2] = "COMPLETION_STATUS_FAILED"] = 2;
            values[valuesById[3] = "COMPLETION_STATUS_ABANDONED"] = 3;
            return values;
        })();

        v1.ReadComplete = (function() {

            /**
             * Properties of a ReadComplete.
             * @typedef {Object} ectp.v1.ReadComplete.$Properties
             * @property {number|null} [grantId] The grant being released.
             * @property {ectp.v1.CompletionStatus|null} [status] How the grant ended (CompletionStatus): OK, FAILED or ABANDONED;
             * UNSPECIFIED and unknown values read as FAILED. The pin is released
             * whichever it is.
             * @property {string|null} [detail] Human-readable detail. Empty: none.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReadComplete.
             * @memberof ectp.v1
             * @interface IReadComplete
             * @augments ectp.v1.ReadComplete.$Properties
             * @deprecated Use ectp.v1.ReadComplete.$Properties instead.
             */

            /**
             * Shape of a ReadComplete.
             * @typedef {ectp.v1.ReadComplete.$Properties} ectp.v1.ReadComplete.$Shape
             */

            /**
             * Constructs a new ReadComplete.
             * @memberof ectp.v1
             * @classdesc Consumer to producer: the grant is finished; release its pin (the ACK) [P2].
             * @constructor
             * @param {ectp.v1.ReadComplete.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReadComplete = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * The grant being released.
             * @member {number} grantId
             * @memberof ectp.v1.ReadComplete
             * @instance
             */
            ReadComplete.prototype.grantId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * How the grant ended (CompletionStatus): OK, FAILED or ABANDONED;
             * UNSPECIFIED and unknown values read as FAILED. The pin is released
             * whichever it is.
             * @member {ectp.v1.CompletionStatus} status
             * @memberof ectp.v1.ReadComplete
             * @instance
             */
            ReadComplete.prototype.status = 0;

            /**
             * Human-readable detail. Empty: none.
             * @member {string} detail
             * @memberof ectp.v1.ReadComplete
             * @instance
             */
            ReadComplete.prototype.detail = "";

            /**
             * Creates a new ReadComplete instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {ectp.v1.ReadComplete.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReadComplete} ReadComplete instance
             * @type {{
             *   (properties: ectp.v1.ReadComplete.$Shape): ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape;
             *   (properties?: ectp.v1.ReadComplete.$Properties): ectp.v1.ReadComplete;
             * }}
             */
            ReadComplete.create = function(properties) {
                return new ReadComplete(properties);
            };

            /**
             * Encodes the specified ReadComplete message. Does not implicitly {@link ectp.v1.ReadComplete.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {ectp.v1.ReadComplete.$Properties} message ReadComplete message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadComplete.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId") && $check_uint64(message.grantId, "grantId") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.grantId, "grantId"));
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).int32($check_int32(message.status, "status"));
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail") && message.detail !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string($check_string(message.detail, "detail"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReadComplete message, length delimited. Does not implicitly {@link ectp.v1.ReadComplete.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {ectp.v1.ReadComplete.$Properties} message ReadComplete message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReadComplete.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReadComplete message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape} ReadComplete
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadComplete.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReadComplete();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("grantId");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.grantId = value;
                            else
                                delete message.grantId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("status");
                            $seen |= 4;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("detail");
                            $seen |= 8;
                            if ((value = reader.stringVerify()).length)
                                message.detail = value;
                            else
                                delete message.detail;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReadComplete message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape} ReadComplete
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReadComplete.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReadComplete message.
             * @function verify
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReadComplete.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId"))
                    if (!$util.isInteger(message.grantId) && !(message.grantId && $util.isInteger(message.grantId.low) && $util.isInteger(message.grantId.high)))
                        return "grantId: integer|Long expected";
                if (message.status != null && $Object.hasOwnProperty.call(message, "status"))
                    if (typeof message.status !== "number" || (message.status | 0) !== message.status)
                        return "status: enum value expected";
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    if (!$util.isString(message.detail))
                        return "detail: string expected";
                return null;
            };

            /**
             * Creates a ReadComplete message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReadComplete} ReadComplete
             */
            ReadComplete.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReadComplete)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReadComplete: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReadComplete();
                if (object.grantId != null)
                    if (typeof object.grantId === "object" ? object.grantId.low || object.grantId.high : $Number(object.grantId) !== 0)
                        if ($util.Long)
                            message.grantId = $util.Long.fromValue(object.grantId, true);
                        else if (typeof object.grantId === "string")
                            message.grantId = $parseInt(object.grantId, 10);
                        else if (typeof object.grantId === "number")
                            message.grantId = object.grantId;
                        else if (typeof object.grantId === "object")
                            message.grantId = new $util.LongBits(object.grantId.low >>> 0, object.grantId.high >>> 0).toNumber(true);
                if (object.status !== 0 && (typeof object.status !== "string" || $root.ectp.v1.CompletionStatus[object.status] !== 0))
                    switch (object.status) {
                    case "COMPLETION_STATUS_UNSPECIFIED":
                    case 0:
                        message.status = 0;
                        break;
                    case "COMPLETION_STATUS_OK":
                    case 1:
                        message.status = 1;
                        break;
                    case "COMPLETION_STATUS_FAILED":
                    case 2:
                        message.status = 2;
                        break;
                    case "COMPLETION_STATUS_ABANDONED":
                    case 3:
                        message.status = 3;
                        break;
                    default:
                        if (typeof object.status === "number" && (object.status | 0) === object.status)
                            message.status = object.status;
                    }
                if (object.detail != null)
                    if (typeof object.detail !== "string" || object.detail.length)
                        message.detail = $String(object.detail);
                return message;
            };

            /**
             * Creates a plain object from a ReadComplete message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {ectp.v1.ReadComplete} message ReadComplete
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReadComplete.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.grantId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.grantId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.status = options.enums === $String ? "COMPLETION_STATUS_UNSPECIFIED" : 0;
                    object.detail = "";
                }
                if (message.grantId != null && $Object.hasOwnProperty.call(message, "grantId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.grantId = typeof message.grantId === "number" ? $BigInt(message.grantId) : $util.Long.fromBits(message.grantId.low >>> 0, message.grantId.high >>> 0, true).toBigInt();
                    else if (typeof message.grantId === "number")
                        object.grantId = options.longs === $String ? $String(message.grantId) : message.grantId;
                    else
                        object.grantId = options.longs === $String ? $util.Long.prototype.toString.call(message.grantId) : options.longs === $Number ? new $util.LongBits(message.grantId.low >>> 0, message.grantId.high >>> 0).toNumber(true) : message.grantId;
                if (message.status != null && $Object.hasOwnProperty.call(message, "status"))
                    object.status = options.enums === $String ? $root.ectp.v1.CompletionStatus[message.status] === $undefined ? message.status : $root.ectp.v1.CompletionStatus[message.status] : message.status;
                if (message.detail != null && $Object.hasOwnProperty.call(message, "detail"))
                    object.detail = message.detail;
                return object;
            };

            /**
             * Converts this ReadComplete to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReadComplete
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReadComplete.prototype.toJSON = function() {
                return ReadComplete.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReadComplete
             * @function getTypeUrl
             * @memberof ectp.v1.ReadComplete
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReadComplete.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReadComplete";
            };

            return ReadComplete;
        })();

        v1.Heartbeat = (function() {

            /**
             * Properties of a Heartbeat.
             * @typedef {Object} ectp.v1.Heartbeat.$Properties
             * @property {number|null} [sequence] Sender's count of heartbeats sent in this epoch, starting at 1. Informative.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Heartbeat.
             * @memberof ectp.v1
             * @interface IHeartbeat
             * @augments ectp.v1.Heartbeat.$Properties
             * @deprecated Use ectp.v1.Heartbeat.$Properties instead.
             */

            /**
             * Shape of a Heartbeat.
             * @typedef {ectp.v1.Heartbeat.$Properties} ectp.v1.Heartbeat.$Shape
             */

            /**
             * Constructs a new Heartbeat.
             * @memberof ectp.v1
             * @classdesc Liveness signal, sent every heartbeat interval to each peer the sender has
             * business with (SPEC.md section 4.7: fetches, grants and reads, subscriptions)
             * [P8]. A peer that hears no valid envelope from the sender's epoch for
             * `heartbeat_misses` (default 3) intervals declares the sender gone. Each
             * interval is the larger of its own and the one the sender's Hello of that
             * epoch announced, its own until that Hello is applied (a subscriber MAY count
             * more; SPEC.md [P8]).
             * @constructor
             * @param {ectp.v1.Heartbeat.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Heartbeat = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Sender's count of heartbeats sent in this epoch, starting at 1. Informative.
             * @member {number} sequence
             * @memberof ectp.v1.Heartbeat
             * @instance
             */
            Heartbeat.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Creates a new Heartbeat instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {ectp.v1.Heartbeat.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Heartbeat} Heartbeat instance
             * @type {{
             *   (properties: ectp.v1.Heartbeat.$Shape): ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape;
             *   (properties?: ectp.v1.Heartbeat.$Properties): ectp.v1.Heartbeat;
             * }}
             */
            Heartbeat.create = function(properties) {
                return new Heartbeat(properties);
            };

            /**
             * Encodes the specified Heartbeat message. Does not implicitly {@link ectp.v1.Heartbeat.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {ectp.v1.Heartbeat.$Properties} message Heartbeat message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Heartbeat.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence") && $check_uint64(message.sequence, "sequence") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.sequence, "sequence"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Heartbeat message, length delimited. Does not implicitly {@link ectp.v1.Heartbeat.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {ectp.v1.Heartbeat.$Properties} message Heartbeat message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Heartbeat.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Heartbeat message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Heartbeat.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Heartbeat();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("sequence");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.sequence = value;
                            else
                                delete message.sequence;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Heartbeat message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Heartbeat.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Heartbeat message.
             * @function verify
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Heartbeat.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (!$util.isInteger(message.sequence) && !(message.sequence && $util.isInteger(message.sequence.low) && $util.isInteger(message.sequence.high)))
                        return "sequence: integer|Long expected";
                return null;
            };

            /**
             * Creates a Heartbeat message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Heartbeat} Heartbeat
             */
            Heartbeat.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Heartbeat)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Heartbeat: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Heartbeat();
                if (object.sequence != null)
                    if (typeof object.sequence === "object" ? object.sequence.low || object.sequence.high : $Number(object.sequence) !== 0)
                        if ($util.Long)
                            message.sequence = $util.Long.fromValue(object.sequence, true);
                        else if (typeof object.sequence === "string")
                            message.sequence = $parseInt(object.sequence, 10);
                        else if (typeof object.sequence === "number")
                            message.sequence = object.sequence;
                        else if (typeof object.sequence === "object")
                            message.sequence = new $util.LongBits(object.sequence.low >>> 0, object.sequence.high >>> 0).toNumber(true);
                return message;
            };

            /**
             * Creates a plain object from a Heartbeat message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {ectp.v1.Heartbeat} message Heartbeat
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Heartbeat.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.sequence = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.sequence = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.sequence = typeof message.sequence === "number" ? $BigInt(message.sequence) : $util.Long.fromBits(message.sequence.low >>> 0, message.sequence.high >>> 0, true).toBigInt();
                    else if (typeof message.sequence === "number")
                        object.sequence = options.longs === $String ? $String(message.sequence) : message.sequence;
                    else
                        object.sequence = options.longs === $String ? $util.Long.prototype.toString.call(message.sequence) : options.longs === $Number ? new $util.LongBits(message.sequence.low >>> 0, message.sequence.high >>> 0).toNumber(true) : message.sequence;
                return object;
            };

            /**
             * Converts this Heartbeat to JSON.
             * @function toJSON
             * @memberof ectp.v1.Heartbeat
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Heartbeat.prototype.toJSON = function() {
                return Heartbeat.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Heartbeat
             * @function getTypeUrl
             * @memberof ectp.v1.Heartbeat
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Heartbeat.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Heartbeat";
            };

            return Heartbeat;
        })();

        v1.SpecVersion = (function() {

            /**
             * Properties of a SpecVersion.
             * @typedef {Object} ectp.v1.SpecVersion.$Properties
             * @property {number|null} [major] Major version. This file defines major version 1.
             * @property {number|null} [minor] Minor version: backwards-compatible additions within the major version [V2].
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a SpecVersion.
             * @memberof ectp.v1
             * @interface ISpecVersion
             * @augments ectp.v1.SpecVersion.$Properties
             * @deprecated Use ectp.v1.SpecVersion.$Properties instead.
             */

            /**
             * Shape of a SpecVersion.
             * @typedef {ectp.v1.SpecVersion.$Properties} ectp.v1.SpecVersion.$Shape
             */

            /**
             * Constructs a new SpecVersion.
             * @memberof ectp.v1
             * @classdesc The version of the ECTP specification a message was written against [V1].
             * 
             * Peers compare `major` first: a different major version is rejected with
             * FAILURE_REASON_VERSION before anything else is looked at. `minor` only
             * informs; a peer MUST accept any minor version of its own major version.
             * An absent SpecVersion (major = 0) is never valid and is rejected as VERSION.
             * This message is frozen across major versions.
             * @constructor
             * @param {ectp.v1.SpecVersion.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const SpecVersion = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Major version. This file defines major version 1.
             * @member {number} major
             * @memberof ectp.v1.SpecVersion
             * @instance
             */
            SpecVersion.prototype.major = 0;

            /**
             * Minor version: backwards-compatible additions within the major version [V2].
             * @member {number} minor
             * @memberof ectp.v1.SpecVersion
             * @instance
             */
            SpecVersion.prototype.minor = 0;

            /**
             * Creates a new SpecVersion instance using the specified properties.
             * @function create
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {ectp.v1.SpecVersion.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.SpecVersion} SpecVersion instance
             * @type {{
             *   (properties: ectp.v1.SpecVersion.$Shape): ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape;
             *   (properties?: ectp.v1.SpecVersion.$Properties): ectp.v1.SpecVersion;
             * }}
             */
            SpecVersion.create = function(properties) {
                return new SpecVersion(properties);
            };

            /**
             * Encodes the specified SpecVersion message. Does not implicitly {@link ectp.v1.SpecVersion.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {ectp.v1.SpecVersion.$Properties} message SpecVersion message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SpecVersion.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.major != null && $Object.hasOwnProperty.call(message, "major") && message.major !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint32($check_uint32(message.major, "major"));
                if (message.minor != null && $Object.hasOwnProperty.call(message, "minor") && message.minor !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint32($check_uint32(message.minor, "minor"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified SpecVersion message, length delimited. Does not implicitly {@link ectp.v1.SpecVersion.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {ectp.v1.SpecVersion.$Properties} message SpecVersion message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SpecVersion.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a SpecVersion message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape} SpecVersion
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SpecVersion.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.SpecVersion();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("major");
                            $seen |= 2;
                            if (value = reader.uint32())
                                message.major = value;
                            else
                                delete message.major;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("minor");
                            $seen |= 4;
                            if (value = reader.uint32())
                                message.minor = value;
                            else
                                delete message.minor;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a SpecVersion message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape} SpecVersion
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SpecVersion.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a SpecVersion message.
             * @function verify
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            SpecVersion.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.major != null && $Object.hasOwnProperty.call(message, "major"))
                    if (!$util.isInteger(message.major))
                        return "major: integer expected";
                if (message.minor != null && $Object.hasOwnProperty.call(message, "minor"))
                    if (!$util.isInteger(message.minor))
                        return "minor: integer expected";
                return null;
            };

            /**
             * Creates a SpecVersion message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.SpecVersion} SpecVersion
             */
            SpecVersion.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.SpecVersion)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.SpecVersion: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.SpecVersion();
                if (object.major != null)
                    if ($Number(object.major) !== 0)
                        message.major = object.major >>> 0;
                if (object.minor != null)
                    if ($Number(object.minor) !== 0)
                        message.minor = object.minor >>> 0;
                return message;
            };

            /**
             * Creates a plain object from a SpecVersion message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {ectp.v1.SpecVersion} message SpecVersion
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            SpecVersion.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.major = 0;
                    object.minor = 0;
                }
                if (message.major != null && $Object.hasOwnProperty.call(message, "major"))
                    object.major = message.major;
                if (message.minor != null && $Object.hasOwnProperty.call(message, "minor"))
                    object.minor = message.minor;
                return object;
            };

            /**
             * Converts this SpecVersion to JSON.
             * @function toJSON
             * @memberof ectp.v1.SpecVersion
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            SpecVersion.prototype.toJSON = function() {
                return SpecVersion.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for SpecVersion
             * @function getTypeUrl
             * @memberof ectp.v1.SpecVersion
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            SpecVersion.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.SpecVersion";
            };

            return SpecVersion;
        })();

        /**
         * Element type of an encoding tensor.
         * 
         * Unknown values received from a newer peer are treated as
         * DTYPE_UNSPECIFIED (the safe default [V1]): the dtype x shape size check is
         * then skipped, but the fingerprint comparison still uses the raw value.
         * @name ectp.v1.Dtype
         * @enum {number}
         * @property {number} DTYPE_UNSPECIFIED=0 Not given. The dtype x shape size check [C2] is skipped.
         * @property {number} DTYPE_FLOAT32=1 IEEE 754 binary32, 4 bytes.
         * @property {number} DTYPE_FLOAT16=2 IEEE 754 binary16, 2 bytes.
         * @property {number} DTYPE_BFLOAT16=3 bfloat16, 2 bytes.
         * @property {number} DTYPE_FLOAT8_E4M3=4 8-bit float, E4M3 layout, 1 byte.
         * @property {number} DTYPE_FLOAT8_E5M2=5 8-bit float, E5M2 layout, 1 byte.
         * @property {number} DTYPE_INT8=6 Signed 8-bit integer, 1 byte.
         * @property {number} DTYPE_UINT8=7 Unsigned 8-bit integer, 1 byte.
         * @property {number} DTYPE_INT32=8 Signed 32-bit integer, 4 bytes.
         * @property {number} DTYPE_FLOAT64=9 IEEE 754 binary64, 8 bytes.
         */
        v1.Dtype = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "DTYPE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "DTYPE_FLOAT32"] = 1;
            values[valuesById[2] = "DTYPE_FLOAT16"] = 2;
            values[valuesById[3] = "DTYPE_BFLOAT16"] = 3;
            values[valuesById[4] = "DTYPE_FLOAT8_E4M3"] = 4;
            values[valuesById[5] = "DTYPE_FLOAT8_E5M2"] = 5;
            values[valuesById[6] = "DTYPE_INT8"] = 6;
            values[valuesById[7] = "DTYPE_UINT8"] = 7;
            values[valuesById[8] = "DTYPE_INT32"] = 8;
            values[valuesById[9] = "DTYPE_FLOAT64"] = 9;
            return values;
        })();

        v1.Fingerprint = (function() {

            /**
             * Properties of a Fingerprint.
             * @typedef {Object} ectp.v1.Fingerprint.$Properties
             * @property {string|null} [model] Model identifier, e.g. `Qwen/Qwen3.5-35B-A3B@<revision>`. Empty is allowed
             * but then only matches another empty model.
             * @property {ectp.v1.Dtype|null} [dtype] Element type of the encoding.
             * @property {number|null} [rowBytes] Bytes per row of the encoding (hidden size x element size). 0 = not given.
             * @property {number|null} [layoutVersion] Version of the engine's encoding layout. 0 = not given.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Fingerprint.
             * @memberof ectp.v1
             * @interface IFingerprint
             * @augments ectp.v1.Fingerprint.$Properties
             * @deprecated Use ectp.v1.Fingerprint.$Properties instead.
             */

            /**
             * Shape of a Fingerprint.
             * @typedef {ectp.v1.Fingerprint.$Properties} ectp.v1.Fingerprint.$Shape
             */

            /**
             * Constructs a new Fingerprint.
             * @memberof ectp.v1
             * @classdesc Compatibility fingerprint: what must match for an encoding produced by one
             * instance to be usable by another. Two items whose fingerprints differ are
             * different items, even with the same content hash. Fingerprints are compared
             * field by field; all four fields take part.
             * @constructor
             * @param {ectp.v1.Fingerprint.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Fingerprint = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Model identifier, e.g. `Qwen/Qwen3.5-35B-A3B@<revision>`. Empty is allowed
             * but then only matches another empty model.
             * @member {string} model
             * @memberof ectp.v1.Fingerprint
             * @instance
             */
            Fingerprint.prototype.model = "";

            /**
             * Element type of the encoding.
             * @member {ectp.v1.Dtype} dtype
             * @memberof ectp.v1.Fingerprint
             * @instance
             */
            Fingerprint.prototype.dtype = 0;

            /**
             * Bytes per row of the encoding (hidden size x element size). 0 = not given.
             * @member {number} rowBytes
             * @memberof ectp.v1.Fingerprint
             * @instance
             */
            Fingerprint.prototype.rowBytes = 0;

            /**
             * Version of the engine's encoding layout. 0 = not given.
             * @member {number} layoutVersion
             * @memberof ectp.v1.Fingerprint
             * @instance
             */
            Fingerprint.prototype.layoutVersion = 0;

            /**
             * Creates a new Fingerprint instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {ectp.v1.Fingerprint.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Fingerprint} Fingerprint instance
             * @type {{
             *   (properties: ectp.v1.Fingerprint.$Shape): ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape;
             *   (properties?: ectp.v1.Fingerprint.$Properties): ectp.v1.Fingerprint;
             * }}
             */
            Fingerprint.create = function(properties) {
                return new Fingerprint(properties);
            };

            /**
             * Encodes the specified Fingerprint message. Does not implicitly {@link ectp.v1.Fingerprint.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {ectp.v1.Fingerprint.$Properties} message Fingerprint message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Fingerprint.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.model != null && $Object.hasOwnProperty.call(message, "model") && message.model !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string($check_string(message.model, "model"));
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype") && message.dtype !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).int32($check_int32(message.dtype, "dtype"));
                if (message.rowBytes != null && $Object.hasOwnProperty.call(message, "rowBytes") && message.rowBytes !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32($check_uint32(message.rowBytes, "rowBytes"));
                if (message.layoutVersion != null && $Object.hasOwnProperty.call(message, "layoutVersion") && message.layoutVersion !== 0)
                    writer.uint32(/* id 4, wireType 0 =*/32).uint32($check_uint32(message.layoutVersion, "layoutVersion"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Fingerprint message, length delimited. Does not implicitly {@link ectp.v1.Fingerprint.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {ectp.v1.Fingerprint.$Properties} message Fingerprint message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Fingerprint.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Fingerprint message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape} Fingerprint
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Fingerprint.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Fingerprint();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("model");
                            $seen |= 2;
                            if ((value = reader.stringVerify()).length)
                                message.model = value;
                            else
                                delete message.model;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("dtype");
                            $seen |= 4;
                            if (value = reader.int32())
                                message.dtype = value;
                            else
                                delete message.dtype;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("rowBytes");
                            $seen |= 8;
                            if (value = reader.uint32())
                                message.rowBytes = value;
                            else
                                delete message.rowBytes;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("layoutVersion");
                            $seen |= 16;
                            if (value = reader.uint32())
                                message.layoutVersion = value;
                            else
                                delete message.layoutVersion;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Fingerprint message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape} Fingerprint
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Fingerprint.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Fingerprint message.
             * @function verify
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Fingerprint.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.model != null && $Object.hasOwnProperty.call(message, "model"))
                    if (!$util.isString(message.model))
                        return "model: string expected";
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype"))
                    if (typeof message.dtype !== "number" || (message.dtype | 0) !== message.dtype)
                        return "dtype: enum value expected";
                if (message.rowBytes != null && $Object.hasOwnProperty.call(message, "rowBytes"))
                    if (!$util.isInteger(message.rowBytes))
                        return "rowBytes: integer expected";
                if (message.layoutVersion != null && $Object.hasOwnProperty.call(message, "layoutVersion"))
                    if (!$util.isInteger(message.layoutVersion))
                        return "layoutVersion: integer expected";
                return null;
            };

            /**
             * Creates a Fingerprint message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Fingerprint} Fingerprint
             */
            Fingerprint.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Fingerprint)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Fingerprint: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Fingerprint();
                if (object.model != null)
                    if (typeof object.model !== "string" || object.model.length)
                        message.model = $String(object.model);
                if (object.dtype !== 0 && (typeof object.dtype !== "string" || $root.ectp.v1.Dtype[object.dtype] !== 0))
                    switch (object.dtype) {
                    case "DTYPE_UNSPECIFIED":
                    case 0:
                        message.dtype = 0;
                        break;
                    case "DTYPE_FLOAT32":
                    case 1:
                        message.dtype = 1;
                        break;
                    case "DTYPE_FLOAT16":
                    case 2:
                        message.dtype = 2;
                        break;
                    case "DTYPE_BFLOAT16":
                    case 3:
                        message.dtype = 3;
                        break;
                    case "DTYPE_FLOAT8_E4M3":
                    case 4:
                        message.dtype = 4;
                        break;
                    case "DTYPE_FLOAT8_E5M2":
                    case 5:
                        message.dtype = 5;
                        break;
                    case "DTYPE_INT8":
                    case 6:
                        message.dtype = 6;
                        break;
                    case "DTYPE_UINT8":
                    case 7:
                        message.dtype = 7;
                        break;
                    case "DTYPE_INT32":
                    case 8:
                        message.dtype = 8;
                        break;
                    case "DTYPE_FLOAT64":
                    case 9:
                        message.dtype = 9;
                        break;
                    default:
                        if (typeof object.dtype === "number" && (object.dtype | 0) === object.dtype)
                            message.dtype = object.dtype;
                    }
                if (object.rowBytes != null)
                    if ($Number(object.rowBytes) !== 0)
                        message.rowBytes = object.rowBytes >>> 0;
                if (object.layoutVersion != null)
                    if ($Number(object.layoutVersion) !== 0)
                        message.layoutVersion = object.layoutVersion >>> 0;
                return message;
            };

            /**
             * Creates a plain object from a Fingerprint message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {ectp.v1.Fingerprint} message Fingerprint
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Fingerprint.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.model = "";
                    object.dtype = options.enums === $String ? "DTYPE_UNSPECIFIED" : 0;
                    object.rowBytes = 0;
                    object.layoutVersion = 0;
                }
                if (message.model != null && $Object.hasOwnProperty.call(message, "model"))
                    object.model = message.model;
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype"))
                    object.dtype = options.enums === $String ? $root.ectp.v1.Dtype[message.dtype] === $undefined ? message.dtype : $root.ectp.v1.Dtype[message.dtype] : message.dtype;
                if (message.rowBytes != null && $Object.hasOwnProperty.call(message, "rowBytes"))
                    object.rowBytes = message.rowBytes;
                if (message.layoutVersion != null && $Object.hasOwnProperty.call(message, "layoutVersion"))
                    object.layoutVersion = message.layoutVersion;
                return object;
            };

            /**
             * Converts this Fingerprint to JSON.
             * @function toJSON
             * @memberof ectp.v1.Fingerprint
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Fingerprint.prototype.toJSON = function() {
                return Fingerprint.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Fingerprint
             * @function getTypeUrl
             * @memberof ectp.v1.Fingerprint
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Fingerprint.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Fingerprint";
            };

            return Fingerprint;
        })();

        v1.ItemKey = (function() {

            /**
             * Properties of an ItemKey.
             * @typedef {Object} ectp.v1.ItemKey.$Properties
             * @property {Uint8Array|null} [contentHash] Content hash of the media item (e.g. the engine's mm_hash). MUST be 1 to
             * 64 bytes; an empty hash makes the key invalid [C2].
             * @property {ectp.v1.Fingerprint.$Properties|null} [fingerprint] Compatibility fingerprint. Absent means the all-default fingerprint, which
             * only matches another all-default fingerprint.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an ItemKey.
             * @memberof ectp.v1
             * @interface IItemKey
             * @augments ectp.v1.ItemKey.$Properties
             * @deprecated Use ectp.v1.ItemKey.$Properties instead.
             */

            /**
             * Shape of an ItemKey.
             * @typedef {ectp.v1.ItemKey.$Properties} ectp.v1.ItemKey.$Shape
             */

            /**
             * Constructs a new ItemKey.
             * @memberof ectp.v1
             * @classdesc Identity of an item: content hash of the media item plus the fingerprint.
             * @constructor
             * @param {ectp.v1.ItemKey.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ItemKey = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Content hash of the media item (e.g. the engine's mm_hash). MUST be 1 to
             * 64 bytes; an empty hash makes the key invalid [C2].
             * @member {Uint8Array} contentHash
             * @memberof ectp.v1.ItemKey
             * @instance
             */
            ItemKey.prototype.contentHash = $util.newBuffer([]);

            /**
             * Compatibility fingerprint. Absent means the all-default fingerprint, which
             * only matches another all-default fingerprint.
             * @member {ectp.v1.Fingerprint.$Properties|null|undefined} fingerprint
             * @memberof ectp.v1.ItemKey
             * @instance
             */
            ItemKey.prototype.fingerprint = null;

            /**
             * Creates a new ItemKey instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {ectp.v1.ItemKey.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ItemKey} ItemKey instance
             * @type {{
             *   (properties: ectp.v1.ItemKey.$Shape): ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape;
             *   (properties?: ectp.v1.ItemKey.$Properties): ectp.v1.ItemKey;
             * }}
             */
            ItemKey.create = function(properties) {
                return new ItemKey(properties);
            };

            /**
             * Encodes the specified ItemKey message. Does not implicitly {@link ectp.v1.ItemKey.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {ectp.v1.ItemKey.$Properties} message ItemKey message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ItemKey.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.contentHash != null && $Object.hasOwnProperty.call(message, "contentHash") && $check_bytes(message.contentHash, "contentHash").length)
                    writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.contentHash /* checked above */);
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint"))
                    $root.ectp.v1.Fingerprint.encode($check_message(message.fingerprint, "fingerprint"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ItemKey message, length delimited. Does not implicitly {@link ectp.v1.ItemKey.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {ectp.v1.ItemKey.$Properties} message ItemKey message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ItemKey.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an ItemKey message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape} ItemKey
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ItemKey.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ItemKey();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("contentHash");
                            $seen |= 2;
                            if ((value = reader.bytes()).length)
                                message.contentHash = value;
                            else
                                delete message.contentHash;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("fingerprint");
                            $seen |= 4;
                            message.fingerprint = $root.ectp.v1.Fingerprint.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an ItemKey message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape} ItemKey
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ItemKey.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an ItemKey message.
             * @function verify
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ItemKey.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.contentHash != null && $Object.hasOwnProperty.call(message, "contentHash"))
                    if (!(message.contentHash && typeof message.contentHash.length === "number" || $util.isString(message.contentHash)))
                        return "contentHash: buffer expected";
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint")) {
                    let error = $root.ectp.v1.Fingerprint.verify(message.fingerprint, _depth + 1);
                    if (error)
                        return "fingerprint." + error;
                }
                return null;
            };

            /**
             * Creates an ItemKey message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ItemKey} ItemKey
             */
            ItemKey.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ItemKey)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ItemKey: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ItemKey();
                if (object.contentHash != null)
                    if (object.contentHash.length)
                        if (typeof object.contentHash === "string")
                            $util.base64.decode(object.contentHash, message.contentHash = $util.newBuffer($util.base64.length(object.contentHash)), 0);
                        else if (object.contentHash.length >= 0)
                            message.contentHash = object.contentHash;
                if (object.fingerprint != null) {
                    if (!$util.isObject(object.fingerprint))
                        throw $TypeError(".ectp.v1.ItemKey.fingerprint: object expected");
                    message.fingerprint = $root.ectp.v1.Fingerprint.fromObject(object.fingerprint, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from an ItemKey message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {ectp.v1.ItemKey} message ItemKey
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ItemKey.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if (options.bytes === $String)
                        object.contentHash = "";
                    else {
                        object.contentHash = [];
                        if (options.bytes !== $Array)
                            object.contentHash = $util.newBuffer(object.contentHash);
                    }
                    object.fingerprint = null;
                }
                if (message.contentHash != null && $Object.hasOwnProperty.call(message, "contentHash"))
                    object.contentHash = options.bytes === $String ? $util.base64.encode(message.contentHash, 0, message.contentHash.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.contentHash) : message.contentHash;
                if (message.fingerprint != null && $Object.hasOwnProperty.call(message, "fingerprint"))
                    object.fingerprint = $root.ectp.v1.Fingerprint.toObject(message.fingerprint, options, _depth + 1);
                return object;
            };

            /**
             * Converts this ItemKey to JSON.
             * @function toJSON
             * @memberof ectp.v1.ItemKey
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ItemKey.prototype.toJSON = function() {
                return ItemKey.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ItemKey
             * @function getTypeUrl
             * @memberof ectp.v1.ItemKey
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ItemKey.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ItemKey";
            };

            return ItemKey;
        })();

        /**
         * Checksum algorithm of a descriptor's optional checksum [C11].
         * @name ectp.v1.ChecksumAlgorithm
         * @enum {number}
         * @property {number} CHECKSUM_ALGORITHM_UNSPECIFIED=0 No checksum. A Checksum message with this algorithm is treated as absent.
         * @property {number} CHECKSUM_ALGORITHM_CRC32C=1 CRC-32C (Castagnoli, reflected, init and final xor 0xFFFFFFFF) of the
         * item's bytes; `value` holds the 4-byte result in big-endian byte order.
         */
        v1.ChecksumAlgorithm = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "CHECKSUM_ALGORITHM_UNSPECIFIED"] = 0;
            values[valuesById[1] = "CHECKSUM_ALGORITHM_CRC32C"] = 1;
            return values;
        })();

        v1.Checksum = (function() {

            /**
             * Properties of a Checksum.
             * @typedef {Object} ectp.v1.Checksum.$Properties
             * @property {ectp.v1.ChecksumAlgorithm|null} [algorithm] Algorithm used. UNSPECIFIED means "no checksum".
             * @property {Uint8Array|null} [value] The checksum value, in the byte layout the algorithm defines.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Checksum.
             * @memberof ectp.v1
             * @interface IChecksum
             * @augments ectp.v1.Checksum.$Properties
             * @deprecated Use ectp.v1.Checksum.$Properties instead.
             */

            /**
             * Shape of a Checksum.
             * @typedef {ectp.v1.Checksum.$Properties} ectp.v1.Checksum.$Shape
             */

            /**
             * Constructs a new Checksum.
             * @memberof ectp.v1
             * @classdesc A checksum of an item's bytes.
             * 
             * A consumer that receives an algorithm it does not implement (an unknown
             * value from a newer peer) MUST treat the descriptor as invalid [C2] rather
             * than load unverified bytes.
             * @constructor
             * @param {ectp.v1.Checksum.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Checksum = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Algorithm used. UNSPECIFIED means "no checksum".
             * @member {ectp.v1.ChecksumAlgorithm} algorithm
             * @memberof ectp.v1.Checksum
             * @instance
             */
            Checksum.prototype.algorithm = 0;

            /**
             * The checksum value, in the byte layout the algorithm defines.
             * @member {Uint8Array} value
             * @memberof ectp.v1.Checksum
             * @instance
             */
            Checksum.prototype.value = $util.newBuffer([]);

            /**
             * Creates a new Checksum instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Checksum
             * @static
             * @param {ectp.v1.Checksum.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Checksum} Checksum instance
             * @type {{
             *   (properties: ectp.v1.Checksum.$Shape): ectp.v1.Checksum & ectp.v1.Checksum.$Shape;
             *   (properties?: ectp.v1.Checksum.$Properties): ectp.v1.Checksum;
             * }}
             */
            Checksum.create = function(properties) {
                return new Checksum(properties);
            };

            /**
             * Encodes the specified Checksum message. Does not implicitly {@link ectp.v1.Checksum.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Checksum
             * @static
             * @param {ectp.v1.Checksum.$Properties} message Checksum message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Checksum.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.algorithm != null && $Object.hasOwnProperty.call(message, "algorithm") && message.algorithm !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32($check_int32(message.algorithm, "algorithm"));
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && $check_bytes(message.value, "value").length)
                    writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.value /* checked above */);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Checksum message, length delimited. Does not implicitly {@link ectp.v1.Checksum.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Checksum
             * @static
             * @param {ectp.v1.Checksum.$Properties} message Checksum message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Checksum.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Checksum message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Checksum
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Checksum & ectp.v1.Checksum.$Shape} Checksum
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Checksum.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Checksum();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("algorithm");
                            $seen |= 2;
                            if (value = reader.int32())
                                message.algorithm = value;
                            else
                                delete message.algorithm;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("value");
                            $seen |= 4;
                            if ((value = reader.bytes()).length)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Checksum message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Checksum
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Checksum & ectp.v1.Checksum.$Shape} Checksum
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Checksum.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Checksum message.
             * @function verify
             * @memberof ectp.v1.Checksum
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Checksum.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.algorithm != null && $Object.hasOwnProperty.call(message, "algorithm"))
                    if (typeof message.algorithm !== "number" || (message.algorithm | 0) !== message.algorithm)
                        return "algorithm: enum value expected";
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    if (!(message.value && typeof message.value.length === "number" || $util.isString(message.value)))
                        return "value: buffer expected";
                return null;
            };

            /**
             * Creates a Checksum message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Checksum
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Checksum} Checksum
             */
            Checksum.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Checksum)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Checksum: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Checksum();
                if (object.algorithm !== 0 && (typeof object.algorithm !== "string" || $root.ectp.v1.ChecksumAlgorithm[object.algorithm] !== 0))
                    switch (object.algorithm) {
                    case "CHECKSUM_ALGORITHM_UNSPECIFIED":
                    case 0:
                        message.algorithm = 0;
                        break;
                    case "CHECKSUM_ALGORITHM_CRC32C":
                    case 1:
                        message.algorithm = 1;
                        break;
                    default:
                        if (typeof object.algorithm === "number" && (object.algorithm | 0) === object.algorithm)
                            message.algorithm = object.algorithm;
                    }
                if (object.value != null)
                    if (object.value.length)
                        if (typeof object.value === "string")
                            $util.base64.decode(object.value, message.value = $util.newBuffer($util.base64.length(object.value)), 0);
                        else if (object.value.length >= 0)
                            message.value = object.value;
                return message;
            };

            /**
             * Creates a plain object from a Checksum message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Checksum
             * @static
             * @param {ectp.v1.Checksum} message Checksum
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Checksum.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.algorithm = options.enums === $String ? "CHECKSUM_ALGORITHM_UNSPECIFIED" : 0;
                    if (options.bytes === $String)
                        object.value = "";
                    else {
                        object.value = [];
                        if (options.bytes !== $Array)
                            object.value = $util.newBuffer(object.value);
                    }
                }
                if (message.algorithm != null && $Object.hasOwnProperty.call(message, "algorithm"))
                    object.algorithm = options.enums === $String ? $root.ectp.v1.ChecksumAlgorithm[message.algorithm] === $undefined ? message.algorithm : $root.ectp.v1.ChecksumAlgorithm[message.algorithm] : message.algorithm;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = options.bytes === $String ? $util.base64.encode(message.value, 0, message.value.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.value) : message.value;
                return object;
            };

            /**
             * Converts this Checksum to JSON.
             * @function toJSON
             * @memberof ectp.v1.Checksum
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Checksum.prototype.toJSON = function() {
                return Checksum.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Checksum
             * @function getTypeUrl
             * @memberof ectp.v1.Checksum
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Checksum.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Checksum";
            };

            return Checksum;
        })();

        v1.ItemDescriptor = (function() {

            /**
             * Properties of an ItemDescriptor.
             * @typedef {Object} ectp.v1.ItemDescriptor.$Properties
             * @property {ectp.v1.ItemKey.$Properties|null} [key] Identity of the item. Required; absent makes the descriptor invalid [C2].
             * @property {number|null} [sizeBytes] Size of the item in bytes. MUST be an integer in [1, max_item_bytes] and,
             * when dtype and shape are both given, equal element size x product of
             * shape, computed exactly (never wrapped around) [C2]. Implementations MUST
             * treat values above 2^53 - 1 as invalid.
             * @property {ectp.v1.Dtype|null} [dtype] Element type. UNSPECIFIED (absent) skips the dtype x shape check.
             * @property {Array.<number>|null} [shape] Tensor shape, outermost first. Empty (absent) skips the dtype x shape check.
             * @property {ectp.v1.Checksum.$Properties|null} [checksum] Optional checksum of the bytes [C11]. Absent: only the size is checked.
             * @property {string|null} [producerId] Stable identity of the producer holding the item. Required (non-empty).
             * @property {number|null} [epoch] Producer epoch: increases on every producer restart; an epoch lower than
             * one already seen is stale [P8]. Required (> 0).
             * @property {Uint8Array|null} [location] Transport-specific location of the bytes (e.g. a NIXL descriptor list).
             * Opaque to the core. Empty means the producer gave no location; such a
             * descriptor can still be announced, and the grant supplies the location.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an ItemDescriptor.
             * @memberof ectp.v1
             * @interface IItemDescriptor
             * @augments ectp.v1.ItemDescriptor.$Properties
             * @deprecated Use ectp.v1.ItemDescriptor.$Properties instead.
             */

            /**
             * Shape of an ItemDescriptor.
             * @typedef {ectp.v1.ItemDescriptor.$Properties} ectp.v1.ItemDescriptor.$Shape
             */

            /**
             * Constructs a new ItemDescriptor.
             * @memberof ectp.v1
             * @classdesc Everything a consumer needs to read an item and check what it read.
             * Carried in announcements, grants and Stored events.
             * @constructor
             * @param {ectp.v1.ItemDescriptor.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ItemDescriptor = function (properties) {
                this.shape = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Identity of the item. Required; absent makes the descriptor invalid [C2].
             * @member {ectp.v1.ItemKey.$Properties|null|undefined} key
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.key = null;

            /**
             * Size of the item in bytes. MUST be an integer in [1, max_item_bytes] and,
             * when dtype and shape are both given, equal element size x product of
             * shape, computed exactly (never wrapped around) [C2]. Implementations MUST
             * treat values above 2^53 - 1 as invalid.
             * @member {number} sizeBytes
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.sizeBytes = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Element type. UNSPECIFIED (absent) skips the dtype x shape check.
             * @member {ectp.v1.Dtype} dtype
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.dtype = 0;

            /**
             * Tensor shape, outermost first. Empty (absent) skips the dtype x shape check.
             * @member {Array.<number>} shape
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.shape = $util.emptyArray;

            /**
             * Optional checksum of the bytes [C11]. Absent: only the size is checked.
             * @member {ectp.v1.Checksum.$Properties|null|undefined} checksum
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.checksum = null;

            /**
             * Stable identity of the producer holding the item. Required (non-empty).
             * @member {string} producerId
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.producerId = "";

            /**
             * Producer epoch: increases on every producer restart; an epoch lower than
             * one already seen is stale [P8]. Required (> 0).
             * @member {number} epoch
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.epoch = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Transport-specific location of the bytes (e.g. a NIXL descriptor list).
             * Opaque to the core. Empty means the producer gave no location; such a
             * descriptor can still be announced, and the grant supplies the location.
             * @member {Uint8Array} location
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             */
            ItemDescriptor.prototype.location = $util.newBuffer([]);

            /**
             * Creates a new ItemDescriptor instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {ectp.v1.ItemDescriptor.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ItemDescriptor} ItemDescriptor instance
             * @type {{
             *   (properties: ectp.v1.ItemDescriptor.$Shape): ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape;
             *   (properties?: ectp.v1.ItemDescriptor.$Properties): ectp.v1.ItemDescriptor;
             * }}
             */
            ItemDescriptor.create = function(properties) {
                return new ItemDescriptor(properties);
            };

            /**
             * Encodes the specified ItemDescriptor message. Does not implicitly {@link ectp.v1.ItemDescriptor.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {ectp.v1.ItemDescriptor.$Properties} message ItemDescriptor message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ItemDescriptor.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    $root.ectp.v1.ItemKey.encode($check_message(message.key, "key"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.sizeBytes != null && $Object.hasOwnProperty.call(message, "sizeBytes") && $check_uint64(message.sizeBytes, "sizeBytes") !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint64($check_uint64(message.sizeBytes, "sizeBytes"));
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype") && message.dtype !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).int32($check_int32(message.dtype, "dtype"));
                if (message.shape != null && $check_list(message.shape, "shape").length)
                    writer.uint32(/* id 4, wireType 2 =*/34).uint64s($check_uint64s(message.shape, "shape"));
                if (message.checksum != null && $Object.hasOwnProperty.call(message, "checksum"))
                    $root.ectp.v1.Checksum.encode($check_message(message.checksum, "checksum"), writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
                if (message.producerId != null && $Object.hasOwnProperty.call(message, "producerId") && message.producerId !== "")
                    writer.uint32(/* id 6, wireType 2 =*/50).string($check_string(message.producerId, "producerId"));
                if (message.epoch != null && $Object.hasOwnProperty.call(message, "epoch") && $check_uint64(message.epoch, "epoch") !== 0)
                    writer.uint32(/* id 7, wireType 0 =*/56).uint64($check_uint64(message.epoch, "epoch"));
                if (message.location != null && $Object.hasOwnProperty.call(message, "location") && $check_bytes(message.location, "location").length)
                    writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.location /* checked above */);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ItemDescriptor message, length delimited. Does not implicitly {@link ectp.v1.ItemDescriptor.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {ectp.v1.ItemDescriptor.$Properties} message ItemDescriptor message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ItemDescriptor.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an ItemDescriptor message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape} ItemDescriptor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ItemDescriptor.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ItemDescriptor();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("key");
                            $seen |= 2;
                            message.key = $root.ectp.v1.ItemKey.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("sizeBytes");
                            $seen |= 4;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.sizeBytes = value;
                            else
                                delete message.sizeBytes;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("dtype");
                            $seen |= 8;
                            if (value = reader.int32())
                                message.dtype = value;
                            else
                                delete message.dtype;
                            continue;
                        }
                    case 4: {
                            if (wireType === 2) {
                                if (!(message.shape && message.shape.length))
                                    message.shape = [];
                                $uint64sCounted(reader, message.shape, "shape");
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.shape && message.shape.length))
                                message.shape = [];
                            $countElement(reader, "shape");
                            message.shape.push($uint64(reader));
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 32)
                                $refuseRepeat("checksum");
                            $seen |= 32;
                            message.checksum = $root.ectp.v1.Checksum.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 64)
                                $refuseRepeat("producerId");
                            $seen |= 64;
                            if ((value = reader.stringVerify()).length)
                                message.producerId = value;
                            else
                                delete message.producerId;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 128)
                                $refuseRepeat("epoch");
                            $seen |= 128;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.epoch = value;
                            else
                                delete message.epoch;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 256)
                                $refuseRepeat("location");
                            $seen |= 256;
                            if ((value = reader.bytes()).length)
                                message.location = value;
                            else
                                delete message.location;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an ItemDescriptor message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape} ItemDescriptor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ItemDescriptor.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an ItemDescriptor message.
             * @function verify
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ItemDescriptor.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.key != null && $Object.hasOwnProperty.call(message, "key")) {
                    let error = $root.ectp.v1.ItemKey.verify(message.key, _depth + 1);
                    if (error)
                        return "key." + error;
                }
                if (message.sizeBytes != null && $Object.hasOwnProperty.call(message, "sizeBytes"))
                    if (!$util.isInteger(message.sizeBytes) && !(message.sizeBytes && $util.isInteger(message.sizeBytes.low) && $util.isInteger(message.sizeBytes.high)))
                        return "sizeBytes: integer|Long expected";
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype"))
                    if (typeof message.dtype !== "number" || (message.dtype | 0) !== message.dtype)
                        return "dtype: enum value expected";
                if (message.shape != null && $Object.hasOwnProperty.call(message, "shape")) {
                    if (!$Array.isArray(message.shape))
                        return "shape: array expected";
                    for (let i = 0; i < message.shape.length; ++i)
                        if (!$util.isInteger(message.shape[i]) && !(message.shape[i] && $util.isInteger(message.shape[i].low) && $util.isInteger(message.shape[i].high)))
                            return "shape: integer|Long[] expected";
                }
                if (message.checksum != null && $Object.hasOwnProperty.call(message, "checksum")) {
                    let error = $root.ectp.v1.Checksum.verify(message.checksum, _depth + 1);
                    if (error)
                        return "checksum." + error;
                }
                if (message.producerId != null && $Object.hasOwnProperty.call(message, "producerId"))
                    if (!$util.isString(message.producerId))
                        return "producerId: string expected";
                if (message.epoch != null && $Object.hasOwnProperty.call(message, "epoch"))
                    if (!$util.isInteger(message.epoch) && !(message.epoch && $util.isInteger(message.epoch.low) && $util.isInteger(message.epoch.high)))
                        return "epoch: integer|Long expected";
                if (message.location != null && $Object.hasOwnProperty.call(message, "location"))
                    if (!(message.location && typeof message.location.length === "number" || $util.isString(message.location)))
                        return "location: buffer expected";
                return null;
            };

            /**
             * Creates an ItemDescriptor message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ItemDescriptor} ItemDescriptor
             */
            ItemDescriptor.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ItemDescriptor)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ItemDescriptor: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ItemDescriptor();
                if (object.key != null) {
                    if (!$util.isObject(object.key))
                        throw $TypeError(".ectp.v1.ItemDescriptor.key: object expected");
                    message.key = $root.ectp.v1.ItemKey.fromObject(object.key, _depth + 1);
                }
                if (object.sizeBytes != null)
                    if (typeof object.sizeBytes === "object" ? object.sizeBytes.low || object.sizeBytes.high : $Number(object.sizeBytes) !== 0)
                        if ($util.Long)
                            message.sizeBytes = $util.Long.fromValue(object.sizeBytes, true);
                        else if (typeof object.sizeBytes === "string")
                            message.sizeBytes = $parseInt(object.sizeBytes, 10);
                        else if (typeof object.sizeBytes === "number")
                            message.sizeBytes = object.sizeBytes;
                        else if (typeof object.sizeBytes === "object")
                            message.sizeBytes = new $util.LongBits(object.sizeBytes.low >>> 0, object.sizeBytes.high >>> 0).toNumber(true);
                if (object.dtype !== 0 && (typeof object.dtype !== "string" || $root.ectp.v1.Dtype[object.dtype] !== 0))
                    switch (object.dtype) {
                    case "DTYPE_UNSPECIFIED":
                    case 0:
                        message.dtype = 0;
                        break;
                    case "DTYPE_FLOAT32":
                    case 1:
                        message.dtype = 1;
                        break;
                    case "DTYPE_FLOAT16":
                    case 2:
                        message.dtype = 2;
                        break;
                    case "DTYPE_BFLOAT16":
                    case 3:
                        message.dtype = 3;
                        break;
                    case "DTYPE_FLOAT8_E4M3":
                    case 4:
                        message.dtype = 4;
                        break;
                    case "DTYPE_FLOAT8_E5M2":
                    case 5:
                        message.dtype = 5;
                        break;
                    case "DTYPE_INT8":
                    case 6:
                        message.dtype = 6;
                        break;
                    case "DTYPE_UINT8":
                    case 7:
                        message.dtype = 7;
                        break;
                    case "DTYPE_INT32":
                    case 8:
                        message.dtype = 8;
                        break;
                    case "DTYPE_FLOAT64":
                    case 9:
                        message.dtype = 9;
                        break;
                    default:
                        if (typeof object.dtype === "number" && (object.dtype | 0) === object.dtype)
                            message.dtype = object.dtype;
                    }
                if (object.shape) {
                    if (!$Array.isArray(object.shape))
                        throw $TypeError(".ectp.v1.ItemDescriptor.shape: array expected");
                    message.shape = $Array(object.shape.length);
                    for (let i = 0; i < object.shape.length; ++i)
                        if ($util.Long)
                            message.shape[i] = $util.Long.fromValue(object.shape[i], true);
                        else if (typeof object.shape[i] === "string")
                            message.shape[i] = $parseInt(object.shape[i], 10);
                        else if (typeof object.shape[i] === "number")
                            message.shape[i] = object.shape[i];
                        else if (typeof object.shape[i] === "object")
                            message.shape[i] = new $util.LongBits(object.shape[i].low >>> 0, object.shape[i].high >>> 0).toNumber(true);
                }
                if (object.checksum != null) {
                    if (!$util.isObject(object.checksum))
                        throw $TypeError(".ectp.v1.ItemDescriptor.checksum: object expected");
                    message.checksum = $root.ectp.v1.Checksum.fromObject(object.checksum, _depth + 1);
                }
                if (object.producerId != null)
                    if (typeof object.producerId !== "string" || object.producerId.length)
                        message.producerId = $String(object.producerId);
                if (object.epoch != null)
                    if (typeof object.epoch === "object" ? object.epoch.low || object.epoch.high : $Number(object.epoch) !== 0)
                        if ($util.Long)
                            message.epoch = $util.Long.fromValue(object.epoch, true);
                        else if (typeof object.epoch === "string")
                            message.epoch = $parseInt(object.epoch, 10);
                        else if (typeof object.epoch === "number")
                            message.epoch = object.epoch;
                        else if (typeof object.epoch === "object")
                            message.epoch = new $util.LongBits(object.epoch.low >>> 0, object.epoch.high >>> 0).toNumber(true);
                if (object.location != null)
                    if (object.location.length)
                        if (typeof object.location === "string")
                            $util.base64.decode(object.location, message.location = $util.newBuffer($util.base64.length(object.location)), 0);
                        else if (object.location.length >= 0)
                            message.location = object.location;
                return message;
            };

            /**
             * Creates a plain object from an ItemDescriptor message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {ectp.v1.ItemDescriptor} message ItemDescriptor
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ItemDescriptor.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.shape = [];
                if (options.defaults) {
                    object.key = null;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.sizeBytes = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.sizeBytes = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.dtype = options.enums === $String ? "DTYPE_UNSPECIFIED" : 0;
                    object.checksum = null;
                    object.producerId = "";
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.epoch = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.epoch = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if (options.bytes === $String)
                        object.location = "";
                    else {
                        object.location = [];
                        if (options.bytes !== $Array)
                            object.location = $util.newBuffer(object.location);
                    }
                }
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    object.key = $root.ectp.v1.ItemKey.toObject(message.key, options, _depth + 1);
                if (message.sizeBytes != null && $Object.hasOwnProperty.call(message, "sizeBytes"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.sizeBytes = typeof message.sizeBytes === "number" ? $BigInt(message.sizeBytes) : $util.Long.fromBits(message.sizeBytes.low >>> 0, message.sizeBytes.high >>> 0, true).toBigInt();
                    else if (typeof message.sizeBytes === "number")
                        object.sizeBytes = options.longs === $String ? $String(message.sizeBytes) : message.sizeBytes;
                    else
                        object.sizeBytes = options.longs === $String ? $util.Long.prototype.toString.call(message.sizeBytes) : options.longs === $Number ? new $util.LongBits(message.sizeBytes.low >>> 0, message.sizeBytes.high >>> 0).toNumber(true) : message.sizeBytes;
                if (message.dtype != null && $Object.hasOwnProperty.call(message, "dtype"))
                    object.dtype = options.enums === $String ? $root.ectp.v1.Dtype[message.dtype] === $undefined ? message.dtype : $root.ectp.v1.Dtype[message.dtype] : message.dtype;
                if (message.shape && message.shape.length) {
                    object.shape = $Array(message.shape.length);
                    for (let j = 0; j < message.shape.length; ++j)
                        if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                            object.shape[j] = typeof message.shape[j] === "number" ? $BigInt(message.shape[j]) : $util.Long.fromBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0, true).toBigInt();
                        else if (typeof message.shape[j] === "number")
                            object.shape[j] = options.longs === $String ? $String(message.shape[j]) : message.shape[j];
                        else
                            object.shape[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.shape[j]) : options.longs === $Number ? new $util.LongBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0).toNumber(true) : message.shape[j];
                }
                if (message.checksum != null && $Object.hasOwnProperty.call(message, "checksum"))
                    object.checksum = $root.ectp.v1.Checksum.toObject(message.checksum, options, _depth + 1);
                if (message.producerId != null && $Object.hasOwnProperty.call(message, "producerId"))
                    object.producerId = message.producerId;
                if (message.epoch != null && $Object.hasOwnProperty.call(message, "epoch"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.epoch = typeof message.epoch === "number" ? $BigInt(message.epoch) : $util.Long.fromBits(message.epoch.low >>> 0, message.epoch.high >>> 0, true).toBigInt();
                    else if (typeof message.epoch === "number")
                        object.epoch = options.longs === $String ? $String(message.epoch) : message.epoch;
                    else
                        object.epoch = options.longs === $String ? $util.Long.prototype.toString.call(message.epoch) : options.longs === $Number ? new $util.LongBits(message.epoch.low >>> 0, message.epoch.high >>> 0).toNumber(true) : message.epoch;
                if (message.location != null && $Object.hasOwnProperty.call(message, "location"))
                    object.location = options.bytes === $String ? $util.base64.encode(message.location, 0, message.location.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.location) : message.location;
                return object;
            };

            /**
             * Converts this ItemDescriptor to JSON.
             * @function toJSON
             * @memberof ectp.v1.ItemDescriptor
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ItemDescriptor.prototype.toJSON = function() {
                return ItemDescriptor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ItemDescriptor
             * @function getTypeUrl
             * @memberof ectp.v1.ItemDescriptor
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ItemDescriptor.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ItemDescriptor";
            };

            return ItemDescriptor;
        })();

        v1.Announcement = (function() {

            /**
             * Properties of an Announcement.
             * @typedef {Object} ectp.v1.Announcement.$Properties
             * @property {ectp.v1.SpecVersion.$Properties|null} [version] Version of the spec the announcement was written against [V1]. Absent or
             * another major version makes the announcement invalid [C2].
             * @property {ectp.v1.ItemDescriptor.$Properties|null} [item] The item. Required.
             * @property {Uint8Array|null} [transportMetadata] The producer's transport metadata (e.g. a NIXL agent metadata blob), so a
             * consumer can reach a producer it has not yet shaken hands with. Empty: none
             * (the consumer uses another announcement's of the epoch, or the Hello's).
             * The epoch's Hello's metadata, once it arrives, wins (SPEC.md section 4).
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an Announcement.
             * @memberof ectp.v1
             * @interface IAnnouncement
             * @augments ectp.v1.Announcement.$Properties
             * @deprecated Use ectp.v1.Announcement.$Properties instead.
             */

            /**
             * Shape of an Announcement.
             * @typedef {ectp.v1.Announcement.$Properties} ectp.v1.Announcement.$Shape
             */

            /**
             * Constructs a new Announcement.
             * @memberof ectp.v1
             * @classdesc Where an encoding lives: returned by the producer to the orchestrator and
             * attached by the orchestrator to a request for a consumer. Announcing never
             * pins the item [P4].
             * @constructor
             * @param {ectp.v1.Announcement.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Announcement = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Version of the spec the announcement was written against [V1]. Absent or
             * another major version makes the announcement invalid [C2].
             * @member {ectp.v1.SpecVersion.$Properties|null|undefined} version
             * @memberof ectp.v1.Announcement
             * @instance
             */
            Announcement.prototype.version = null;

            /**
             * The item. Required.
             * @member {ectp.v1.ItemDescriptor.$Properties|null|undefined} item
             * @memberof ectp.v1.Announcement
             * @instance
             */
            Announcement.prototype.item = null;

            /**
             * The producer's transport metadata (e.g. a NIXL agent metadata blob), so a
             * consumer can reach a producer it has not yet shaken hands with. Empty: none
             * (the consumer uses another announcement's of the epoch, or the Hello's).
             * The epoch's Hello's metadata, once it arrives, wins (SPEC.md section 4).
             * @member {Uint8Array} transportMetadata
             * @memberof ectp.v1.Announcement
             * @instance
             */
            Announcement.prototype.transportMetadata = $util.newBuffer([]);

            /**
             * Creates a new Announcement instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Announcement
             * @static
             * @param {ectp.v1.Announcement.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Announcement} Announcement instance
             * @type {{
             *   (properties: ectp.v1.Announcement.$Shape): ectp.v1.Announcement & ectp.v1.Announcement.$Shape;
             *   (properties?: ectp.v1.Announcement.$Properties): ectp.v1.Announcement;
             * }}
             */
            Announcement.create = function(properties) {
                return new Announcement(properties);
            };

            /**
             * Encodes the specified Announcement message. Does not implicitly {@link ectp.v1.Announcement.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Announcement
             * @static
             * @param {ectp.v1.Announcement.$Properties} message Announcement message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Announcement.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                    $root.ectp.v1.SpecVersion.encode($check_message(message.version, "version"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    $root.ectp.v1.ItemDescriptor.encode($check_message(message.item, "item"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata") && $check_bytes(message.transportMetadata, "transportMetadata").length)
                    writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.transportMetadata /* checked above */);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Announcement message, length delimited. Does not implicitly {@link ectp.v1.Announcement.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Announcement
             * @static
             * @param {ectp.v1.Announcement.$Properties} message Announcement message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Announcement.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an Announcement message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Announcement
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Announcement & ectp.v1.Announcement.$Shape} Announcement
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Announcement.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Announcement();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("version");
                            $seen |= 2;
                            message.version = $root.ectp.v1.SpecVersion.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("item");
                            $seen |= 4;
                            message.item = $root.ectp.v1.ItemDescriptor.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("transportMetadata");
                            $seen |= 8;
                            if ((value = reader.bytes()).length)
                                message.transportMetadata = value;
                            else
                                delete message.transportMetadata;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an Announcement message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Announcement
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Announcement & ectp.v1.Announcement.$Shape} Announcement
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Announcement.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an Announcement message.
             * @function verify
             * @memberof ectp.v1.Announcement
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Announcement.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.version != null && $Object.hasOwnProperty.call(message, "version")) {
                    let error = $root.ectp.v1.SpecVersion.verify(message.version, _depth + 1);
                    if (error)
                        return "version." + error;
                }
                if (message.item != null && $Object.hasOwnProperty.call(message, "item")) {
                    let error = $root.ectp.v1.ItemDescriptor.verify(message.item, _depth + 1);
                    if (error)
                        return "item." + error;
                }
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata"))
                    if (!(message.transportMetadata && typeof message.transportMetadata.length === "number" || $util.isString(message.transportMetadata)))
                        return "transportMetadata: buffer expected";
                return null;
            };

            /**
             * Creates an Announcement message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Announcement
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Announcement} Announcement
             */
            Announcement.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Announcement)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Announcement: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Announcement();
                if (object.version != null) {
                    if (!$util.isObject(object.version))
                        throw $TypeError(".ectp.v1.Announcement.version: object expected");
                    message.version = $root.ectp.v1.SpecVersion.fromObject(object.version, _depth + 1);
                }
                if (object.item != null) {
                    if (!$util.isObject(object.item))
                        throw $TypeError(".ectp.v1.Announcement.item: object expected");
                    message.item = $root.ectp.v1.ItemDescriptor.fromObject(object.item, _depth + 1);
                }
                if (object.transportMetadata != null)
                    if (object.transportMetadata.length)
                        if (typeof object.transportMetadata === "string")
                            $util.base64.decode(object.transportMetadata, message.transportMetadata = $util.newBuffer($util.base64.length(object.transportMetadata)), 0);
                        else if (object.transportMetadata.length >= 0)
                            message.transportMetadata = object.transportMetadata;
                return message;
            };

            /**
             * Creates a plain object from an Announcement message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Announcement
             * @static
             * @param {ectp.v1.Announcement} message Announcement
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Announcement.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.version = null;
                    object.item = null;
                    if (options.bytes === $String)
                        object.transportMetadata = "";
                    else {
                        object.transportMetadata = [];
                        if (options.bytes !== $Array)
                            object.transportMetadata = $util.newBuffer(object.transportMetadata);
                    }
                }
                if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                    object.version = $root.ectp.v1.SpecVersion.toObject(message.version, options, _depth + 1);
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    object.item = $root.ectp.v1.ItemDescriptor.toObject(message.item, options, _depth + 1);
                if (message.transportMetadata != null && $Object.hasOwnProperty.call(message, "transportMetadata"))
                    object.transportMetadata = options.bytes === $String ? $util.base64.encode(message.transportMetadata, 0, message.transportMetadata.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.transportMetadata) : message.transportMetadata;
                return object;
            };

            /**
             * Converts this Announcement to JSON.
             * @function toJSON
             * @memberof ectp.v1.Announcement
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Announcement.prototype.toJSON = function() {
                return Announcement.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Announcement
             * @function getTypeUrl
             * @memberof ectp.v1.Announcement
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Announcement.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Announcement";
            };

            return Announcement;
        })();

        /**
         * Why a read was rejected, or why a (request, item) pair failed.
         * 
         * Each value is either retryable (the consumer MAY try again inside the wait
         * budget [C4]) or terminal (the remote path for that request and item ends
         * [C5]). The table in spec/SPEC.md section 11 ("Retryable and terminal
         * outcomes") is normative. An unknown value received from a newer peer is
         * terminal, the safe default, unless the ReadReject carrying it is flagged
         * `retryable` ([V1], [C4]).
         * @name ectp.v1.FailureReason
         * @enum {number}
         * @property {number} FAILURE_REASON_UNSPECIFIED=0 Not set. Treated as INTERNAL (terminal).
         * @property {number} FAILURE_REASON_NOT_READY=1 Retryable. The item exists but is not fully written yet [P1].
         * @property {number} FAILURE_REASON_NOT_FOUND=2 Terminal. The producer does not hold the item (never stored or evicted) [P1].
         * @property {number} FAILURE_REASON_OVERLOADED=3 Retryable. The consumer is over its quota of pinned bytes or grants [P5],
         * or has no local destination memory for the item (SPEC.md section 4.4).
         * @property {number} FAILURE_REASON_INCOMPATIBLE=4 Terminal. Compatibility fingerprints differ [P7], or the handshake was
         * refused for its fingerprint.
         * @property {number} FAILURE_REASON_VERSION=5 Terminal. Spec major versions differ [V1].
         * @property {number} FAILURE_REASON_INTERNAL=6 Terminal. An unexpected error in the peer, a malformed request key, an
         * item whose size differs from the ReadRequest's expected_size_bytes, or an
         * item larger than the consumer's byte quota [P5].
         * @property {number} FAILURE_REASON_SHUTTING_DOWN=7 Terminal. The producer is shutting down [P7].
         * @property {number} FAILURE_REASON_GRANT_TIMEOUT=8 Retryable. No grant or reject arrived within the grant wait timeout [C4].
         * @property {number} FAILURE_REASON_PEER_UNREACHABLE=9 Retryable before a grant, terminal after one. The peer is unreachable or
         * was declared gone after heartbeat_misses (default 3) missed heartbeat
         * intervals [P8].
         * @property {number} FAILURE_REASON_TRANSFER_FAILED=10 Terminal. The transport reported the read as failed [C11].
         * @property {number} FAILURE_REASON_TRANSFER_TIMEOUT=11 Terminal. The read outlived the transfer timeout and was quarantined [C8],
         * or its result was handled at or after that deadline [C11].
         * @property {number} FAILURE_REASON_SIZE_MISMATCH=12 Terminal. Bytes read differ from size_bytes, the grant's size differs from
         * the announcement's, or the announcement's size differs from its key's
         * loaded or in-flight item [C11].
         * @property {number} FAILURE_REASON_CHECKSUM_MISMATCH=13 Terminal. Bytes received do not match the descriptor's checksum [C11].
         * @property {number} FAILURE_REASON_EPOCH_CHANGED=14 Terminal. The producer's epoch changed under a grant or announcement [P8].
         * @property {number} FAILURE_REASON_INVALID_ANNOUNCEMENT=15 Terminal (request outcome only; in a ReadReject treated as INTERNAL). The
         * announcement, or a grant's descriptor, failed validation [C2].
         * @property {number} FAILURE_REASON_BUDGET_EXHAUSTED=16 Terminal (request outcome only; in a ReadReject treated as INTERNAL). The
         * wait budget ran out [C3].
         * @property {number} FAILURE_REASON_UNAVAILABLE=17 Terminal (request outcome only; in a ReadReject treated as INTERNAL). No
         * usable announcement and no model input: the item cannot be obtained [C1].
         * @property {number} FAILURE_REASON_LEASE_EXPIRED=18 Terminal. The read completed at or after, or was still in flight at, the lease
         * deadline the consumer computed (so the bytes may have been reused), or a
         * grant's lease deadline was not after its receipt [C11][C8].
         */
        v1.FailureReason = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "FAILURE_REASON_UNSPECIFIED"] = 0;
            values[valuesById[1] = "FAILURE_REASON_NOT_READY"] = 1;
            values[valuesById[2] = "FAILURE_REASON_NOT_FOUND"] = 2;
            values[valuesById[3] = "FAILURE_REASON_OVERLOADED"] = 3;
            values[valuesById[4] = "FAILURE_REASON_INCOMPATIBLE"] = 4;
            values[valuesById[5] = "FAILURE_REASON_VERSION"] = 5;
            values[valuesById[6] = "FAILURE_REASON_INTERNAL"] = 6;
            values[valuesById[7] = "FAILURE_REASON_SHUTTING_DOWN"] = 7;
            values[valuesById[8] = "FAILURE_REASON_GRANT_TIMEOUT"] = 8;
            values[valuesById[9] = "FAILURE_REASON_PEER_UNREACHABLE"] = 9;
            values[valuesById[10] = "FAILURE_REASON_TRANSFER_FAILED"] = 10;
            values[valuesById[11] = "FAILURE_REASON_TRANSFER_TIMEOUT"] = 11;
            values[valuesById[12] = "FAILURE_REASON_SIZE_MISMATCH"] = 12;
            values[valuesById[13] = "FAILURE_REASON_CHECKSUM_MISMATCH"] = 13;
            values[valuesById[14] = "FAILURE_REASON_EPOCH_CHANGED"] = 14;
            values[valuesById[15] = "FAILURE_REASON_INVALID_ANNOUNCEMENT"] = 15;
            values[valuesById[16] = "FAILURE_REASON_BUDGET_EXHAUSTED"] = 16;
            values[valuesById[17] = "FAILURE_REASON_UNAVAILABLE"] = 17;
            values[valuesById[18] = "FAILURE_REASON_LEASE_EXPIRED"] = 18;
            return values;
        })();

        v1.Envelope = (function() {

            /**
             * Properties of an Envelope.
             * @typedef {Object} ectp.v1.Envelope.$Properties
             * @property {ectp.v1.SpecVersion.$Properties|null} [version] Spec version of the sender [V1]. Required: an envelope without it, or
             * with another major version, is refused before anything else: not acted
             * on, answered with VERSION only when it is a Hello or a ReadRequest
             * (SPEC.md section 6), else ignored and counted (a HandshakeReject is
             * also acted on as a VERSION refusal).
             * @property {string|null} [senderId] Stable identity of the sender (its producer or consumer id). Required.
             * @property {number|null} [senderEpoch] Epoch of the sender: increases on every restart; a lower epoch than one
             * already seen is stale [P8]. Required (> 0).
             * @property {ectp.v1.Hello.$Properties|null} [hello] Handshake: the sender's role, capabilities, fingerprint, transport
             * metadata and heartbeat interval (SPEC.md section 4.1).
             * @property {ectp.v1.HandshakeReject.$Properties|null} [handshakeReject] Handshake refusal.
             * @property {ectp.v1.ReadRequest.$Properties|null} [readRequest] Read request (consumer to producer).
             * @property {ectp.v1.ReadGrant.$Properties|null} [readGrant] Read grant (producer to consumer).
             * @property {ectp.v1.ReadReject.$Properties|null} [readReject] Read refusal (producer to consumer).
             * @property {ectp.v1.ReadComplete.$Properties|null} [readComplete] Grant release, the ACK (consumer to producer).
             * @property {ectp.v1.Heartbeat.$Properties|null} [heartbeat] Liveness signal, sent every heartbeat interval [P8].
             * @property {ectp.v1.EventBatch.$Properties|null} [eventBatch] Events (producer to subscriber).
             * @property {ectp.v1.ReplayRequest.$Properties|null} [replayRequest] Replay request (subscriber to producer).
             * @property {ectp.v1.ReplayUnavailable.$Properties|null} [replayUnavailable] Replay not possible (producer to subscriber).
             * @property {ectp.v1.SnapshotRequest.$Properties|null} [snapshotRequest] Snapshot request (subscriber to producer).
             * @property {ectp.v1.Snapshot.$Properties|null} [snapshot] Snapshot (producer to subscriber).
             * @property {ectp.v1.Announcement.$Properties|null} [announcement] An announcement forwarded over the control plane (optional use).
             * @property {"hello"|"handshakeReject"|"readRequest"|"readGrant"|"readReject"|"readComplete"|"heartbeat"|"eventBatch"|"replayRequest"|"replayUnavailable"|"snapshotRequest"|"snapshot"|"announcement"} [body] The message. Exactly one is set. An envelope with none set (a message
             * from a newer minor version) is ignored and counted [C10].
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an Envelope.
             * @memberof ectp.v1
             * @interface IEnvelope
             * @augments ectp.v1.Envelope.$Properties
             * @deprecated Use ectp.v1.Envelope.$Properties instead.
             */

            /**
             * Narrowed shape of an Envelope.
             * @typedef {{
             *   version?: ectp.v1.SpecVersion.$Shape|null;
             *   senderId?: string|null;
             *   senderEpoch?: number|null;
             *   hello?: ectp.v1.Hello.$Shape|null;
             *   handshakeReject?: ectp.v1.HandshakeReject.$Shape|null;
             *   readRequest?: ectp.v1.ReadRequest.$Shape|null;
             *   readGrant?: ectp.v1.ReadGrant.$Shape|null;
             *   readReject?: ectp.v1.ReadReject.$Shape|null;
             *   readComplete?: ectp.v1.ReadComplete.$Shape|null;
             *   heartbeat?: ectp.v1.Heartbeat.$Shape|null;
             *   eventBatch?: ectp.v1.EventBatch.$Shape|null;
             *   replayRequest?: ectp.v1.ReplayRequest.$Shape|null;
             *   replayUnavailable?: ectp.v1.ReplayUnavailable.$Shape|null;
             *   snapshotRequest?: ectp.v1.SnapshotRequest.$Shape|null;
             *   snapshot?: ectp.v1.Snapshot.$Shape|null;
             *   announcement?: ectp.v1.Announcement.$Shape|null;
             *   $unknowns?: Array.<Uint8Array>;
             * } & (
             *   ({ body?: undefined; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "hello"; hello: ectp.v1.Hello.$Shape; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "handshakeReject"; hello?: null; handshakeReject: ectp.v1.HandshakeReject.$Shape; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "readRequest"; hello?: null; handshakeReject?: null; readRequest: ectp.v1.ReadRequest.$Shape; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "readGrant"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant: ectp.v1.ReadGrant.$Shape; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "readReject"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject: ectp.v1.ReadReject.$Shape; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "readComplete"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete: ectp.v1.ReadComplete.$Shape; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "heartbeat"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat: ectp.v1.Heartbeat.$Shape; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "eventBatch"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch: ectp.v1.EventBatch.$Shape; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "replayRequest"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest: ectp.v1.ReplayRequest.$Shape; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "replayUnavailable"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable: ectp.v1.ReplayUnavailable.$Shape; snapshotRequest?: null; snapshot?: null; announcement?: null }|{ body?: "snapshotRequest"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest: ectp.v1.SnapshotRequest.$Shape; snapshot?: null; announcement?: null }|{ body?: "snapshot"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot: ectp.v1.Snapshot.$Shape; announcement?: null }|{ body?: "announcement"; hello?: null; handshakeReject?: null; readRequest?: null; readGrant?: null; readReject?: null; readComplete?: null; heartbeat?: null; eventBatch?: null; replayRequest?: null; replayUnavailable?: null; snapshotRequest?: null; snapshot?: null; announcement: ectp.v1.Announcement.$Shape })
             * )} ectp.v1.Envelope.$Shape
             */

            /**
             * Constructs a new Envelope.
             * @memberof ectp.v1
             * @classdesc One control-plane message between two peers. On a byte stream, envelopes
             * are size-delimited as SPEC.md section 5 ("Framing") says; on a message
             * transport (e.g. NIXL notifications) one notification carries one envelope.
             * Fields 1-3 and `handshake_reject` are frozen across major versions.
             * @constructor
             * @param {ectp.v1.Envelope.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Envelope = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Spec version of the sender [V1]. Required: an envelope without it, or
             * with another major version, is refused before anything else: not acted
             * on, answered with VERSION only when it is a Hello or a ReadRequest
             * (SPEC.md section 6), else ignored and counted (a HandshakeReject is
             * also acted on as a VERSION refusal).
             * @member {ectp.v1.SpecVersion.$Properties|null|undefined} version
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.version = null;

            /**
             * Stable identity of the sender (its producer or consumer id). Required.
             * @member {string} senderId
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.senderId = "";

            /**
             * Epoch of the sender: increases on every restart; a lower epoch than one
             * already seen is stale [P8]. Required (> 0).
             * @member {number} senderEpoch
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.senderEpoch = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Handshake: the sender's role, capabilities, fingerprint, transport
             * metadata and heartbeat interval (SPEC.md section 4.1).
             * @member {ectp.v1.Hello.$Properties|null|undefined} hello
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.hello = null;

            /**
             * Handshake refusal.
             * @member {ectp.v1.HandshakeReject.$Properties|null|undefined} handshakeReject
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.handshakeReject = null;

            /**
             * Read request (consumer to producer).
             * @member {ectp.v1.ReadRequest.$Properties|null|undefined} readRequest
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.readRequest = null;

            /**
             * Read grant (producer to consumer).
             * @member {ectp.v1.ReadGrant.$Properties|null|undefined} readGrant
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.readGrant = null;

            /**
             * Read refusal (producer to consumer).
             * @member {ectp.v1.ReadReject.$Properties|null|undefined} readReject
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.readReject = null;

            /**
             * Grant release, the ACK (consumer to producer).
             * @member {ectp.v1.ReadComplete.$Properties|null|undefined} readComplete
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.readComplete = null;

            /**
             * Liveness signal, sent every heartbeat interval [P8].
             * @member {ectp.v1.Heartbeat.$Properties|null|undefined} heartbeat
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.heartbeat = null;

            /**
             * Events (producer to subscriber).
             * @member {ectp.v1.EventBatch.$Properties|null|undefined} eventBatch
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.eventBatch = null;

            /**
             * Replay request (subscriber to producer).
             * @member {ectp.v1.ReplayRequest.$Properties|null|undefined} replayRequest
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.replayRequest = null;

            /**
             * Replay not possible (producer to subscriber).
             * @member {ectp.v1.ReplayUnavailable.$Properties|null|undefined} replayUnavailable
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.replayUnavailable = null;

            /**
             * Snapshot request (subscriber to producer).
             * @member {ectp.v1.SnapshotRequest.$Properties|null|undefined} snapshotRequest
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.snapshotRequest = null;

            /**
             * Snapshot (producer to subscriber).
             * @member {ectp.v1.Snapshot.$Properties|null|undefined} snapshot
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.snapshot = null;

            /**
             * An announcement forwarded over the control plane (optional use).
             * @member {ectp.v1.Announcement.$Properties|null|undefined} announcement
             * @memberof ectp.v1.Envelope
             * @instance
             */
            Envelope.prototype.announcement = null;

            // OneOf field names bound to virtual getters and setters
            let $oneOfFields;

            /**
             * The message. Exactly one is set. An envelope with none set (a message
             * from a newer minor version) is ignored and counted [C10].
             * @member {"hello"|"handshakeReject"|"readRequest"|"readGrant"|"readReject"|"readComplete"|"heartbeat"|"eventBatch"|"replayRequest"|"replayUnavailable"|"snapshotRequest"|"snapshot"|"announcement"|undefined} body
             * @memberof ectp.v1.Envelope
             * @instance
             */
            $Object.defineProperty(Envelope.prototype, "body", {
                get: $util.oneOfGetter($oneOfFields = ["hello", "handshakeReject", "readRequest", "readGrant", "readReject", "readComplete", "heartbeat", "eventBatch", "replayRequest", "replayUnavailable", "snapshotRequest", "snapshot", "announcement"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            /**
             * Creates a new Envelope instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Envelope
             * @static
             * @param {ectp.v1.Envelope.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Envelope} Envelope instance
             * @type {{
             *   (properties: ectp.v1.Envelope.$Shape): ectp.v1.Envelope & ectp.v1.Envelope.$Shape;
             *   (properties?: ectp.v1.Envelope.$Properties): ectp.v1.Envelope;
             * }}
             */
            Envelope.create = function(properties) {
                return new Envelope(properties);
            };

            /**
             * Encodes the specified Envelope message. Does not implicitly {@link ectp.v1.Envelope.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Envelope
             * @static
             * @param {ectp.v1.Envelope.$Properties} message Envelope message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Envelope.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                    $root.ectp.v1.SpecVersion.encode($check_message(message.version, "version"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.senderId != null && $Object.hasOwnProperty.call(message, "senderId") && message.senderId !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string($check_string(message.senderId, "senderId"));
                if (message.senderEpoch != null && $Object.hasOwnProperty.call(message, "senderEpoch") && $check_uint64(message.senderEpoch, "senderEpoch") !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint64($check_uint64(message.senderEpoch, "senderEpoch"));
                if (message.hello != null && $Object.hasOwnProperty.call(message, "hello"))
                    $root.ectp.v1.Hello.encode($check_message(message.hello, "hello"), writer.uint32(/* id 10, wireType 2 =*/82).fork(), _depth + 1).ldelim();
                if (message.handshakeReject != null && $Object.hasOwnProperty.call(message, "handshakeReject"))
                    $root.ectp.v1.HandshakeReject.encode($check_message(message.handshakeReject, "handshakeReject"), writer.uint32(/* id 11, wireType 2 =*/90).fork(), _depth + 1).ldelim();
                if (message.readRequest != null && $Object.hasOwnProperty.call(message, "readRequest"))
                    $root.ectp.v1.ReadRequest.encode($check_message(message.readRequest, "readRequest"), writer.uint32(/* id 12, wireType 2 =*/98).fork(), _depth + 1).ldelim();
                if (message.readGrant != null && $Object.hasOwnProperty.call(message, "readGrant"))
                    $root.ectp.v1.ReadGrant.encode($check_message(message.readGrant, "readGrant"), writer.uint32(/* id 13, wireType 2 =*/106).fork(), _depth + 1).ldelim();
                if (message.readReject != null && $Object.hasOwnProperty.call(message, "readReject"))
                    $root.ectp.v1.ReadReject.encode($check_message(message.readReject, "readReject"), writer.uint32(/* id 14, wireType 2 =*/114).fork(), _depth + 1).ldelim();
                if (message.readComplete != null && $Object.hasOwnProperty.call(message, "readComplete"))
                    $root.ectp.v1.ReadComplete.encode($check_message(message.readComplete, "readComplete"), writer.uint32(/* id 15, wireType 2 =*/122).fork(), _depth + 1).ldelim();
                if (message.heartbeat != null && $Object.hasOwnProperty.call(message, "heartbeat"))
                    $root.ectp.v1.Heartbeat.encode($check_message(message.heartbeat, "heartbeat"), writer.uint32(/* id 16, wireType 2 =*/130).fork(), _depth + 1).ldelim();
                if (message.eventBatch != null && $Object.hasOwnProperty.call(message, "eventBatch"))
                    $root.ectp.v1.EventBatch.encode($check_message(message.eventBatch, "eventBatch"), writer.uint32(/* id 17, wireType 2 =*/138).fork(), _depth + 1).ldelim();
                if (message.replayRequest != null && $Object.hasOwnProperty.call(message, "replayRequest"))
                    $root.ectp.v1.ReplayRequest.encode($check_message(message.replayRequest, "replayRequest"), writer.uint32(/* id 18, wireType 2 =*/146).fork(), _depth + 1).ldelim();
                if (message.replayUnavailable != null && $Object.hasOwnProperty.call(message, "replayUnavailable"))
                    $root.ectp.v1.ReplayUnavailable.encode($check_message(message.replayUnavailable, "replayUnavailable"), writer.uint32(/* id 19, wireType 2 =*/154).fork(), _depth + 1).ldelim();
                if (message.snapshotRequest != null && $Object.hasOwnProperty.call(message, "snapshotRequest"))
                    $root.ectp.v1.SnapshotRequest.encode($check_message(message.snapshotRequest, "snapshotRequest"), writer.uint32(/* id 20, wireType 2 =*/162).fork(), _depth + 1).ldelim();
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot"))
                    $root.ectp.v1.Snapshot.encode($check_message(message.snapshot, "snapshot"), writer.uint32(/* id 21, wireType 2 =*/170).fork(), _depth + 1).ldelim();
                if (message.announcement != null && $Object.hasOwnProperty.call(message, "announcement"))
                    $root.ectp.v1.Announcement.encode($check_message(message.announcement, "announcement"), writer.uint32(/* id 22, wireType 2 =*/178).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Envelope message, length delimited. Does not implicitly {@link ectp.v1.Envelope.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Envelope
             * @static
             * @param {ectp.v1.Envelope.$Properties} message Envelope message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Envelope.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an Envelope message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Envelope
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Envelope & ectp.v1.Envelope.$Shape} Envelope
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Envelope.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Envelope();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("version");
                            $seen |= 2;
                            message.version = $root.ectp.v1.SpecVersion.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("senderId");
                            $seen |= 4;
                            if ((value = reader.stringVerify()).length)
                                message.senderId = value;
                            else
                                delete message.senderId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("senderEpoch");
                            $seen |= 8;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.senderEpoch = value;
                            else
                                delete message.senderEpoch;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("hello", "body");
                            $seen |= 1;
                            message.hello = $root.ectp.v1.Hello.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "hello";
                            continue;
                        }
                    case 11: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("handshakeReject", "body");
                            $seen |= 1;
                            message.handshakeReject = $root.ectp.v1.HandshakeReject.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "handshakeReject";
                            continue;
                        }
                    case 12: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("readRequest", "body");
                            $seen |= 1;
                            message.readRequest = $root.ectp.v1.ReadRequest.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "readRequest";
                            continue;
                        }
                    case 13: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("readGrant", "body");
                            $seen |= 1;
                            message.readGrant = $root.ectp.v1.ReadGrant.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "readGrant";
                            continue;
                        }
                    case 14: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("readReject", "body");
                            $seen |= 1;
                            message.readReject = $root.ectp.v1.ReadReject.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "readReject";
                            continue;
                        }
                    case 15: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("readComplete", "body");
                            $seen |= 1;
                            message.readComplete = $root.ectp.v1.ReadComplete.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "readComplete";
                            continue;
                        }
                    case 16: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("heartbeat", "body");
                            $seen |= 1;
                            message.heartbeat = $root.ectp.v1.Heartbeat.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "heartbeat";
                            continue;
                        }
                    case 17: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("eventBatch", "body");
                            $seen |= 1;
                            message.eventBatch = $root.ectp.v1.EventBatch.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "eventBatch";
                            continue;
                        }
                    case 18: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("replayRequest", "body");
                            $seen |= 1;
                            message.replayRequest = $root.ectp.v1.ReplayRequest.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "replayRequest";
                            continue;
                        }
                    case 19: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("replayUnavailable", "body");
                            $seen |= 1;
                            message.replayUnavailable = $root.ectp.v1.ReplayUnavailable.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "replayUnavailable";
                            continue;
                        }
                    case 20: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("snapshotRequest", "body");
                            $seen |= 1;
                            message.snapshotRequest = $root.ectp.v1.SnapshotRequest.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "snapshotRequest";
                            continue;
                        }
                    case 21: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("snapshot", "body");
                            $seen |= 1;
                            message.snapshot = $root.ectp.v1.Snapshot.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "snapshot";
                            continue;
                        }
                    case 22: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("announcement", "body");
                            $seen |= 1;
                            message.announcement = $root.ectp.v1.Announcement.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.body = "announcement";
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an Envelope message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Envelope
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Envelope & ectp.v1.Envelope.$Shape} Envelope
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Envelope.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an Envelope message.
             * @function verify
             * @memberof ectp.v1.Envelope
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Envelope.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                let properties = {};
                if (message.version != null && $Object.hasOwnProperty.call(message, "version")) {
                    let error = $root.ectp.v1.SpecVersion.verify(message.version, _depth + 1);
                    if (error)
                        return "version." + error;
                }
                if (message.senderId != null && $Object.hasOwnProperty.call(message, "senderId"))
                    if (!$util.isString(message.senderId))
                        return "senderId: string expected";
                if (message.senderEpoch != null && $Object.hasOwnProperty.call(message, "senderEpoch"))
                    if (!$util.isInteger(message.senderEpoch) && !(message.senderEpoch && $util.isInteger(message.senderEpoch.low) && $util.isInteger(message.senderEpoch.high)))
                        return "senderEpoch: integer|Long expected";
                if (message.hello != null && $Object.hasOwnProperty.call(message, "hello")) {
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.Hello.verify(message.hello, _depth + 1);
                        if (error)
                            return "hello." + error;
                    }
                }
                if (message.handshakeReject != null && $Object.hasOwnProperty.call(message, "handshakeReject")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.HandshakeReject.verify(message.handshakeReject, _depth + 1);
                        if (error)
                            return "handshakeReject." + error;
                    }
                }
                if (message.readRequest != null && $Object.hasOwnProperty.call(message, "readRequest")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReadRequest.verify(message.readRequest, _depth + 1);
                        if (error)
                            return "readRequest." + error;
                    }
                }
                if (message.readGrant != null && $Object.hasOwnProperty.call(message, "readGrant")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReadGrant.verify(message.readGrant, _depth + 1);
                        if (error)
                            return "readGrant." + error;
                    }
                }
                if (message.readReject != null && $Object.hasOwnProperty.call(message, "readReject")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReadReject.verify(message.readReject, _depth + 1);
                        if (error)
                            return "readReject." + error;
                    }
                }
                if (message.readComplete != null && $Object.hasOwnProperty.call(message, "readComplete")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReadComplete.verify(message.readComplete, _depth + 1);
                        if (error)
                            return "readComplete." + error;
                    }
                }
                if (message.heartbeat != null && $Object.hasOwnProperty.call(message, "heartbeat")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.Heartbeat.verify(message.heartbeat, _depth + 1);
                        if (error)
                            return "heartbeat." + error;
                    }
                }
                if (message.eventBatch != null && $Object.hasOwnProperty.call(message, "eventBatch")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.EventBatch.verify(message.eventBatch, _depth + 1);
                        if (error)
                            return "eventBatch." + error;
                    }
                }
                if (message.replayRequest != null && $Object.hasOwnProperty.call(message, "replayRequest")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReplayRequest.verify(message.replayRequest, _depth + 1);
                        if (error)
                            return "replayRequest." + error;
                    }
                }
                if (message.replayUnavailable != null && $Object.hasOwnProperty.call(message, "replayUnavailable")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.ReplayUnavailable.verify(message.replayUnavailable, _depth + 1);
                        if (error)
                            return "replayUnavailable." + error;
                    }
                }
                if (message.snapshotRequest != null && $Object.hasOwnProperty.call(message, "snapshotRequest")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.SnapshotRequest.verify(message.snapshotRequest, _depth + 1);
                        if (error)
                            return "snapshotRequest." + error;
                    }
                }
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.Snapshot.verify(message.snapshot, _depth + 1);
                        if (error)
                            return "snapshot." + error;
                    }
                }
                if (message.announcement != null && $Object.hasOwnProperty.call(message, "announcement")) {
                    if (properties.body === 1)
                        return "body: multiple values";
                    properties.body = 1;
                    {
                        let error = $root.ectp.v1.Announcement.verify(message.announcement, _depth + 1);
                        if (error)
                            return "announcement." + error;
                    }
                }
                return null;
            };

            /**
             * Creates an Envelope message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Envelope
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Envelope} Envelope
             */
            Envelope.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Envelope)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Envelope: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Envelope();
                if (object.version != null) {
                    if (!$util.isObject(object.version))
                        throw $TypeError(".ectp.v1.Envelope.version: object expected");
                    message.version = $root.ectp.v1.SpecVersion.fromObject(object.version, _depth + 1);
                }
                if (object.senderId != null)
                    if (typeof object.senderId !== "string" || object.senderId.length)
                        message.senderId = $String(object.senderId);
                if (object.senderEpoch != null)
                    if (typeof object.senderEpoch === "object" ? object.senderEpoch.low || object.senderEpoch.high : $Number(object.senderEpoch) !== 0)
                        if ($util.Long)
                            message.senderEpoch = $util.Long.fromValue(object.senderEpoch, true);
                        else if (typeof object.senderEpoch === "string")
                            message.senderEpoch = $parseInt(object.senderEpoch, 10);
                        else if (typeof object.senderEpoch === "number")
                            message.senderEpoch = object.senderEpoch;
                        else if (typeof object.senderEpoch === "object")
                            message.senderEpoch = new $util.LongBits(object.senderEpoch.low >>> 0, object.senderEpoch.high >>> 0).toNumber(true);
                if (object.hello != null) {
                    if (!$util.isObject(object.hello))
                        throw $TypeError(".ectp.v1.Envelope.hello: object expected");
                    message.hello = $root.ectp.v1.Hello.fromObject(object.hello, _depth + 1);
                }
                if (object.handshakeReject != null) {
                    if (!$util.isObject(object.handshakeReject))
                        throw $TypeError(".ectp.v1.Envelope.handshakeReject: object expected");
                    message.handshakeReject = $root.ectp.v1.HandshakeReject.fromObject(object.handshakeReject, _depth + 1);
                }
                if (object.readRequest != null) {
                    if (!$util.isObject(object.readRequest))
                        throw $TypeError(".ectp.v1.Envelope.readRequest: object expected");
                    message.readRequest = $root.ectp.v1.ReadRequest.fromObject(object.readRequest, _depth + 1);
                }
                if (object.readGrant != null) {
                    if (!$util.isObject(object.readGrant))
                        throw $TypeError(".ectp.v1.Envelope.readGrant: object expected");
                    message.readGrant = $root.ectp.v1.ReadGrant.fromObject(object.readGrant, _depth + 1);
                }
                if (object.readReject != null) {
                    if (!$util.isObject(object.readReject))
                        throw $TypeError(".ectp.v1.Envelope.readReject: object expected");
                    message.readReject = $root.ectp.v1.ReadReject.fromObject(object.readReject, _depth + 1);
                }
                if (object.readComplete != null) {
                    if (!$util.isObject(object.readComplete))
                        throw $TypeError(".ectp.v1.Envelope.readComplete: object expected");
                    message.readComplete = $root.ectp.v1.ReadComplete.fromObject(object.readComplete, _depth + 1);
                }
                if (object.heartbeat != null) {
                    if (!$util.isObject(object.heartbeat))
                        throw $TypeError(".ectp.v1.Envelope.heartbeat: object expected");
                    message.heartbeat = $root.ectp.v1.Heartbeat.fromObject(object.heartbeat, _depth + 1);
                }
                if (object.eventBatch != null) {
                    if (!$util.isObject(object.eventBatch))
                        throw $TypeError(".ectp.v1.Envelope.eventBatch: object expected");
                    message.eventBatch = $root.ectp.v1.EventBatch.fromObject(object.eventBatch, _depth + 1);
                }
                if (object.replayRequest != null) {
                    if (!$util.isObject(object.replayRequest))
                        throw $TypeError(".ectp.v1.Envelope.replayRequest: object expected");
                    message.replayRequest = $root.ectp.v1.ReplayRequest.fromObject(object.replayRequest, _depth + 1);
                }
                if (object.replayUnavailable != null) {
                    if (!$util.isObject(object.replayUnavailable))
                        throw $TypeError(".ectp.v1.Envelope.replayUnavailable: object expected");
                    message.replayUnavailable = $root.ectp.v1.ReplayUnavailable.fromObject(object.replayUnavailable, _depth + 1);
                }
                if (object.snapshotRequest != null) {
                    if (!$util.isObject(object.snapshotRequest))
                        throw $TypeError(".ectp.v1.Envelope.snapshotRequest: object expected");
                    message.snapshotRequest = $root.ectp.v1.SnapshotRequest.fromObject(object.snapshotRequest, _depth + 1);
                }
                if (object.snapshot != null) {
                    if (!$util.isObject(object.snapshot))
                        throw $TypeError(".ectp.v1.Envelope.snapshot: object expected");
                    message.snapshot = $root.ectp.v1.Snapshot.fromObject(object.snapshot, _depth + 1);
                }
                if (object.announcement != null) {
                    if (!$util.isObject(object.announcement))
                        throw $TypeError(".ectp.v1.Envelope.announcement: object expected");
                    message.announcement = $root.ectp.v1.Announcement.fromObject(object.announcement, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from an Envelope message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Envelope
             * @static
             * @param {ectp.v1.Envelope} message Envelope
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Envelope.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.version = null;
                    object.senderId = "";
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.senderEpoch = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.senderEpoch = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                    object.version = $root.ectp.v1.SpecVersion.toObject(message.version, options, _depth + 1);
                if (message.senderId != null && $Object.hasOwnProperty.call(message, "senderId"))
                    object.senderId = message.senderId;
                if (message.senderEpoch != null && $Object.hasOwnProperty.call(message, "senderEpoch"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.senderEpoch = typeof message.senderEpoch === "number" ? $BigInt(message.senderEpoch) : $util.Long.fromBits(message.senderEpoch.low >>> 0, message.senderEpoch.high >>> 0, true).toBigInt();
                    else if (typeof message.senderEpoch === "number")
                        object.senderEpoch = options.longs === $String ? $String(message.senderEpoch) : message.senderEpoch;
                    else
                        object.senderEpoch = options.longs === $String ? $util.Long.prototype.toString.call(message.senderEpoch) : options.longs === $Number ? new $util.LongBits(message.senderEpoch.low >>> 0, message.senderEpoch.high >>> 0).toNumber(true) : message.senderEpoch;
                if (message.hello != null && $Object.hasOwnProperty.call(message, "hello")) {
                    object.hello = $root.ectp.v1.Hello.toObject(message.hello, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "hello";
                }
                if (message.handshakeReject != null && $Object.hasOwnProperty.call(message, "handshakeReject")) {
                    object.handshakeReject = $root.ectp.v1.HandshakeReject.toObject(message.handshakeReject, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "handshakeReject";
                }
                if (message.readRequest != null && $Object.hasOwnProperty.call(message, "readRequest")) {
                    object.readRequest = $root.ectp.v1.ReadRequest.toObject(message.readRequest, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "readRequest";
                }
                if (message.readGrant != null && $Object.hasOwnProperty.call(message, "readGrant")) {
                    object.readGrant = $root.ectp.v1.ReadGrant.toObject(message.readGrant, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "readGrant";
                }
                if (message.readReject != null && $Object.hasOwnProperty.call(message, "readReject")) {
                    object.readReject = $root.ectp.v1.ReadReject.toObject(message.readReject, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "readReject";
                }
                if (message.readComplete != null && $Object.hasOwnProperty.call(message, "readComplete")) {
                    object.readComplete = $root.ectp.v1.ReadComplete.toObject(message.readComplete, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "readComplete";
                }
                if (message.heartbeat != null && $Object.hasOwnProperty.call(message, "heartbeat")) {
                    object.heartbeat = $root.ectp.v1.Heartbeat.toObject(message.heartbeat, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "heartbeat";
                }
                if (message.eventBatch != null && $Object.hasOwnProperty.call(message, "eventBatch")) {
                    object.eventBatch = $root.ectp.v1.EventBatch.toObject(message.eventBatch, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "eventBatch";
                }
                if (message.replayRequest != null && $Object.hasOwnProperty.call(message, "replayRequest")) {
                    object.replayRequest = $root.ectp.v1.ReplayRequest.toObject(message.replayRequest, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "replayRequest";
                }
                if (message.replayUnavailable != null && $Object.hasOwnProperty.call(message, "replayUnavailable")) {
                    object.replayUnavailable = $root.ectp.v1.ReplayUnavailable.toObject(message.replayUnavailable, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "replayUnavailable";
                }
                if (message.snapshotRequest != null && $Object.hasOwnProperty.call(message, "snapshotRequest")) {
                    object.snapshotRequest = $root.ectp.v1.SnapshotRequest.toObject(message.snapshotRequest, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "snapshotRequest";
                }
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot")) {
                    object.snapshot = $root.ectp.v1.Snapshot.toObject(message.snapshot, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "snapshot";
                }
                if (message.announcement != null && $Object.hasOwnProperty.call(message, "announcement")) {
                    object.announcement = $root.ectp.v1.Announcement.toObject(message.announcement, options, _depth + 1);
                    if (options.oneofs)
                        object.body = "announcement";
                }
                return object;
            };

            /**
             * Converts this Envelope to JSON.
             * @function toJSON
             * @memberof ectp.v1.Envelope
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Envelope.prototype.toJSON = function() {
                return Envelope.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Envelope
             * @function getTypeUrl
             * @memberof ectp.v1.Envelope
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Envelope.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Envelope";
            };

            return Envelope;
        })();

        /**
         * Why an item left the producer.
         * @name ectp.v1.RemovedCause
         * @enum {number}
         * @property {number} REMOVED_CAUSE_UNSPECIFIED=0 Not given; treat as EVICTED (as are unknown values).
         * @property {number} REMOVED_CAUSE_EVICTED=1 Evicted to make room (it was ready and unpinned) [P6].
         * @property {number} REMOVED_CAUSE_DISCARDED=2 Discarded before it became ready (a failed or abandoned write).
         */
        v1.RemovedCause = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "REMOVED_CAUSE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "REMOVED_CAUSE_EVICTED"] = 1;
            values[valuesById[2] = "REMOVED_CAUSE_DISCARDED"] = 2;
            return values;
        })();

        /**
         * Why a producer dropped everything.
         * @name ectp.v1.ClearedCause
         * @enum {number}
         * @property {number} CLEARED_CAUSE_UNSPECIFIED=0 Not given; treat as RESET (as are unknown values).
         * @property {number} CLEARED_CAUSE_RESET=1 The region was reset (every item dropped).
         * @property {number} CLEARED_CAUSE_SHUTDOWN=2 The producer is shutting down [P7].
         */
        v1.ClearedCause = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "CLEARED_CAUSE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "CLEARED_CAUSE_RESET"] = 1;
            values[valuesById[2] = "CLEARED_CAUSE_SHUTDOWN"] = 2;
            return values;
        })();

        v1.Stored = (function() {

            /**
             * Properties of a Stored.
             * @typedef {Object} ectp.v1.Stored.$Properties
             * @property {ectp.v1.ItemDescriptor.$Properties|null} [item] The item as it would be announced.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Stored.
             * @memberof ectp.v1
             * @interface IStored
             * @augments ectp.v1.Stored.$Properties
             * @deprecated Use ectp.v1.Stored.$Properties instead.
             */

            /**
             * Shape of a Stored.
             * @typedef {ectp.v1.Stored.$Properties} ectp.v1.Stored.$Shape
             */

            /**
             * Constructs a new Stored.
             * @memberof ectp.v1
             * @classdesc An item became ready.
             * @constructor
             * @param {ectp.v1.Stored.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Stored = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * The item as it would be announced.
             * @member {ectp.v1.ItemDescriptor.$Properties|null|undefined} item
             * @memberof ectp.v1.Stored
             * @instance
             */
            Stored.prototype.item = null;

            /**
             * Creates a new Stored instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Stored
             * @static
             * @param {ectp.v1.Stored.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Stored} Stored instance
             * @type {{
             *   (properties: ectp.v1.Stored.$Shape): ectp.v1.Stored & ectp.v1.Stored.$Shape;
             *   (properties?: ectp.v1.Stored.$Properties): ectp.v1.Stored;
             * }}
             */
            Stored.create = function(properties) {
                return new Stored(properties);
            };

            /**
             * Encodes the specified Stored message. Does not implicitly {@link ectp.v1.Stored.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Stored
             * @static
             * @param {ectp.v1.Stored.$Properties} message Stored message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Stored.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    $root.ectp.v1.ItemDescriptor.encode($check_message(message.item, "item"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Stored message, length delimited. Does not implicitly {@link ectp.v1.Stored.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Stored
             * @static
             * @param {ectp.v1.Stored.$Properties} message Stored message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Stored.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Stored message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Stored
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Stored & ectp.v1.Stored.$Shape} Stored
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Stored.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Stored();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("item");
                            $seen |= 2;
                            message.item = $root.ectp.v1.ItemDescriptor.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Stored message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Stored
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Stored & ectp.v1.Stored.$Shape} Stored
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Stored.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Stored message.
             * @function verify
             * @memberof ectp.v1.Stored
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Stored.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.item != null && $Object.hasOwnProperty.call(message, "item")) {
                    let error = $root.ectp.v1.ItemDescriptor.verify(message.item, _depth + 1);
                    if (error)
                        return "item." + error;
                }
                return null;
            };

            /**
             * Creates a Stored message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Stored
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Stored} Stored
             */
            Stored.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Stored)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Stored: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Stored();
                if (object.item != null) {
                    if (!$util.isObject(object.item))
                        throw $TypeError(".ectp.v1.Stored.item: object expected");
                    message.item = $root.ectp.v1.ItemDescriptor.fromObject(object.item, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from a Stored message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Stored
             * @static
             * @param {ectp.v1.Stored} message Stored
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Stored.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.item = null;
                if (message.item != null && $Object.hasOwnProperty.call(message, "item"))
                    object.item = $root.ectp.v1.ItemDescriptor.toObject(message.item, options, _depth + 1);
                return object;
            };

            /**
             * Converts this Stored to JSON.
             * @function toJSON
             * @memberof ectp.v1.Stored
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Stored.prototype.toJSON = function() {
                return Stored.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Stored
             * @function getTypeUrl
             * @memberof ectp.v1.Stored
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Stored.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Stored";
            };

            return Stored;
        })();

        v1.Removed = (function() {

            /**
             * Properties of a Removed.
             * @typedef {Object} ectp.v1.Removed.$Properties
             * @property {ectp.v1.ItemKey.$Properties|null} [key] The item's key.
             * @property {ectp.v1.RemovedCause|null} [cause] Why it left (RemovedCause): EVICTED to make room, or DISCARDED before it
             * became ready; UNSPECIFIED and unknown values read as EVICTED.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Removed.
             * @memberof ectp.v1
             * @interface IRemoved
             * @augments ectp.v1.Removed.$Properties
             * @deprecated Use ectp.v1.Removed.$Properties instead.
             */

            /**
             * Shape of a Removed.
             * @typedef {ectp.v1.Removed.$Properties} ectp.v1.Removed.$Shape
             */

            /**
             * Constructs a new Removed.
             * @memberof ectp.v1
             * @classdesc An item was evicted or discarded.
             * @constructor
             * @param {ectp.v1.Removed.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Removed = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * The item's key.
             * @member {ectp.v1.ItemKey.$Properties|null|undefined} key
             * @memberof ectp.v1.Removed
             * @instance
             */
            Removed.prototype.key = null;

            /**
             * Why it left (RemovedCause): EVICTED to make room, or DISCARDED before it
             * became ready; UNSPECIFIED and unknown values read as EVICTED.
             * @member {ectp.v1.RemovedCause} cause
             * @memberof ectp.v1.Removed
             * @instance
             */
            Removed.prototype.cause = 0;

            /**
             * Creates a new Removed instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Removed
             * @static
             * @param {ectp.v1.Removed.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Removed} Removed instance
             * @type {{
             *   (properties: ectp.v1.Removed.$Shape): ectp.v1.Removed & ectp.v1.Removed.$Shape;
             *   (properties?: ectp.v1.Removed.$Properties): ectp.v1.Removed;
             * }}
             */
            Removed.create = function(properties) {
                return new Removed(properties);
            };

            /**
             * Encodes the specified Removed message. Does not implicitly {@link ectp.v1.Removed.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Removed
             * @static
             * @param {ectp.v1.Removed.$Properties} message Removed message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Removed.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    $root.ectp.v1.ItemKey.encode($check_message(message.key, "key"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause") && message.cause !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).int32($check_int32(message.cause, "cause"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Removed message, length delimited. Does not implicitly {@link ectp.v1.Removed.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Removed
             * @static
             * @param {ectp.v1.Removed.$Properties} message Removed message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Removed.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Removed message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Removed
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Removed & ectp.v1.Removed.$Shape} Removed
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Removed.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Removed();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("key");
                            $seen |= 2;
                            message.key = $root.ectp.v1.ItemKey.decode(reader, reader.size(), $undefined, _depth + 1);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("cause");
                            $seen |= 4;
                            if (value = reader.int32())
                                message.cause = value;
                            else
                                delete message.cause;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Removed message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Removed
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Removed & ectp.v1.Removed.$Shape} Removed
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Removed.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Removed message.
             * @function verify
             * @memberof ectp.v1.Removed
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Removed.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.key != null && $Object.hasOwnProperty.call(message, "key")) {
                    let error = $root.ectp.v1.ItemKey.verify(message.key, _depth + 1);
                    if (error)
                        return "key." + error;
                }
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause"))
                    if (typeof message.cause !== "number" || (message.cause | 0) !== message.cause)
                        return "cause: enum value expected";
                return null;
            };

            /**
             * Creates a Removed message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Removed
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Removed} Removed
             */
            Removed.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Removed)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Removed: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Removed();
                if (object.key != null) {
                    if (!$util.isObject(object.key))
                        throw $TypeError(".ectp.v1.Removed.key: object expected");
                    message.key = $root.ectp.v1.ItemKey.fromObject(object.key, _depth + 1);
                }
                if (object.cause !== 0 && (typeof object.cause !== "string" || $root.ectp.v1.RemovedCause[object.cause] !== 0))
                    switch (object.cause) {
                    case "REMOVED_CAUSE_UNSPECIFIED":
                    case 0:
                        message.cause = 0;
                        break;
                    case "REMOVED_CAUSE_EVICTED":
                    case 1:
                        message.cause = 1;
                        break;
                    case "REMOVED_CAUSE_DISCARDED":
                    case 2:
                        message.cause = 2;
                        break;
                    default:
                        if (typeof object.cause === "number" && (object.cause | 0) === object.cause)
                            message.cause = object.cause;
                    }
                return message;
            };

            /**
             * Creates a plain object from a Removed message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Removed
             * @static
             * @param {ectp.v1.Removed} message Removed
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Removed.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.key = null;
                    object.cause = options.enums === $String ? "REMOVED_CAUSE_UNSPECIFIED" : 0;
                }
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    object.key = $root.ectp.v1.ItemKey.toObject(message.key, options, _depth + 1);
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause"))
                    object.cause = options.enums === $String ? $root.ectp.v1.RemovedCause[message.cause] === $undefined ? message.cause : $root.ectp.v1.RemovedCause[message.cause] : message.cause;
                return object;
            };

            /**
             * Converts this Removed to JSON.
             * @function toJSON
             * @memberof ectp.v1.Removed
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Removed.prototype.toJSON = function() {
                return Removed.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Removed
             * @function getTypeUrl
             * @memberof ectp.v1.Removed
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Removed.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Removed";
            };

            return Removed;
        })();

        v1.Cleared = (function() {

            /**
             * Properties of a Cleared.
             * @typedef {Object} ectp.v1.Cleared.$Properties
             * @property {ectp.v1.ClearedCause|null} [cause] Why everything left (ClearedCause): RESET of the region, or SHUTDOWN of
             * the producer; UNSPECIFIED and unknown values read as RESET.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Cleared.
             * @memberof ectp.v1
             * @interface ICleared
             * @augments ectp.v1.Cleared.$Properties
             * @deprecated Use ectp.v1.Cleared.$Properties instead.
             */

            /**
             * Shape of a Cleared.
             * @typedef {ectp.v1.Cleared.$Properties} ectp.v1.Cleared.$Shape
             */

            /**
             * Constructs a new Cleared.
             * @memberof ectp.v1
             * @classdesc Every item was dropped.
             * @constructor
             * @param {ectp.v1.Cleared.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Cleared = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Why everything left (ClearedCause): RESET of the region, or SHUTDOWN of
             * the producer; UNSPECIFIED and unknown values read as RESET.
             * @member {ectp.v1.ClearedCause} cause
             * @memberof ectp.v1.Cleared
             * @instance
             */
            Cleared.prototype.cause = 0;

            /**
             * Creates a new Cleared instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Cleared
             * @static
             * @param {ectp.v1.Cleared.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Cleared} Cleared instance
             * @type {{
             *   (properties: ectp.v1.Cleared.$Shape): ectp.v1.Cleared & ectp.v1.Cleared.$Shape;
             *   (properties?: ectp.v1.Cleared.$Properties): ectp.v1.Cleared;
             * }}
             */
            Cleared.create = function(properties) {
                return new Cleared(properties);
            };

            /**
             * Encodes the specified Cleared message. Does not implicitly {@link ectp.v1.Cleared.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Cleared
             * @static
             * @param {ectp.v1.Cleared.$Properties} message Cleared message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Cleared.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause") && message.cause !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).int32($check_int32(message.cause, "cause"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Cleared message, length delimited. Does not implicitly {@link ectp.v1.Cleared.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Cleared
             * @static
             * @param {ectp.v1.Cleared.$Properties} message Cleared message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Cleared.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Cleared message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Cleared
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Cleared & ectp.v1.Cleared.$Shape} Cleared
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Cleared.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Cleared();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("cause");
                            $seen |= 2;
                            if (value = reader.int32())
                                message.cause = value;
                            else
                                delete message.cause;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Cleared message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Cleared
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Cleared & ectp.v1.Cleared.$Shape} Cleared
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Cleared.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Cleared message.
             * @function verify
             * @memberof ectp.v1.Cleared
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Cleared.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause"))
                    if (typeof message.cause !== "number" || (message.cause | 0) !== message.cause)
                        return "cause: enum value expected";
                return null;
            };

            /**
             * Creates a Cleared message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Cleared
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Cleared} Cleared
             */
            Cleared.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Cleared)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Cleared: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Cleared();
                if (object.cause !== 0 && (typeof object.cause !== "string" || $root.ectp.v1.ClearedCause[object.cause] !== 0))
                    switch (object.cause) {
                    case "CLEARED_CAUSE_UNSPECIFIED":
                    case 0:
                        message.cause = 0;
                        break;
                    case "CLEARED_CAUSE_RESET":
                    case 1:
                        message.cause = 1;
                        break;
                    case "CLEARED_CAUSE_SHUTDOWN":
                    case 2:
                        message.cause = 2;
                        break;
                    default:
                        if (typeof object.cause === "number" && (object.cause | 0) === object.cause)
                            message.cause = object.cause;
                    }
                return message;
            };

            /**
             * Creates a plain object from a Cleared message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Cleared
             * @static
             * @param {ectp.v1.Cleared} message Cleared
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Cleared.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.cause = options.enums === $String ? "CLEARED_CAUSE_UNSPECIFIED" : 0;
                if (message.cause != null && $Object.hasOwnProperty.call(message, "cause"))
                    object.cause = options.enums === $String ? $root.ectp.v1.ClearedCause[message.cause] === $undefined ? message.cause : $root.ectp.v1.ClearedCause[message.cause] : message.cause;
                return object;
            };

            /**
             * Converts this Cleared to JSON.
             * @function toJSON
             * @memberof ectp.v1.Cleared
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Cleared.prototype.toJSON = function() {
                return Cleared.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Cleared
             * @function getTypeUrl
             * @memberof ectp.v1.Cleared
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Cleared.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Cleared";
            };

            return Cleared;
        })();

        v1.Event = (function() {

            /**
             * Properties of an Event.
             * @typedef {Object} ectp.v1.Event.$Properties
             * @property {ectp.v1.Stored.$Properties|null} [stored] An item became ready.
             * @property {ectp.v1.Removed.$Properties|null} [removed] An item left: evicted or discarded.
             * @property {ectp.v1.Cleared.$Properties|null} [cleared] Everything left.
             * @property {"stored"|"removed"|"cleared"} [kind] What happened. Exactly one is set; an Event with none set (a kind from a
             * newer minor version) MUST be ignored by the subscriber.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an Event.
             * @memberof ectp.v1
             * @interface IEvent
             * @augments ectp.v1.Event.$Properties
             * @deprecated Use ectp.v1.Event.$Properties instead.
             */

            /**
             * Narrowed shape of an Event.
             * @typedef {{
             *   stored?: ectp.v1.Stored.$Shape|null;
             *   removed?: ectp.v1.Removed.$Shape|null;
             *   cleared?: ectp.v1.Cleared.$Shape|null;
             *   $unknowns?: Array.<Uint8Array>;
             * } & (
             *   ({ kind?: undefined; stored?: null; removed?: null; cleared?: null }|{ kind?: "stored"; stored: ectp.v1.Stored.$Shape; removed?: null; cleared?: null }|{ kind?: "removed"; stored?: null; removed: ectp.v1.Removed.$Shape; cleared?: null }|{ kind?: "cleared"; stored?: null; removed?: null; cleared: ectp.v1.Cleared.$Shape })
             * )} ectp.v1.Event.$Shape
             */

            /**
             * Constructs a new Event.
             * @memberof ectp.v1
             * @classdesc One change to the producer's set of ready items; an EventBatch carries
             * them in order [E1].
             * @constructor
             * @param {ectp.v1.Event.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Event = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * An item became ready.
             * @member {ectp.v1.Stored.$Properties|null|undefined} stored
             * @memberof ectp.v1.Event
             * @instance
             */
            Event.prototype.stored = null;

            /**
             * An item left: evicted or discarded.
             * @member {ectp.v1.Removed.$Properties|null|undefined} removed
             * @memberof ectp.v1.Event
             * @instance
             */
            Event.prototype.removed = null;

            /**
             * Everything left.
             * @member {ectp.v1.Cleared.$Properties|null|undefined} cleared
             * @memberof ectp.v1.Event
             * @instance
             */
            Event.prototype.cleared = null;

            // OneOf field names bound to virtual getters and setters
            let $oneOfFields;

            /**
             * What happened. Exactly one is set; an Event with none set (a kind from a
             * newer minor version) MUST be ignored by the subscriber.
             * @member {"stored"|"removed"|"cleared"|undefined} kind
             * @memberof ectp.v1.Event
             * @instance
             */
            $Object.defineProperty(Event.prototype, "kind", {
                get: $util.oneOfGetter($oneOfFields = ["stored", "removed", "cleared"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            /**
             * Creates a new Event instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Event
             * @static
             * @param {ectp.v1.Event.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Event} Event instance
             * @type {{
             *   (properties: ectp.v1.Event.$Shape): ectp.v1.Event & ectp.v1.Event.$Shape;
             *   (properties?: ectp.v1.Event.$Properties): ectp.v1.Event;
             * }}
             */
            Event.create = function(properties) {
                return new Event(properties);
            };

            /**
             * Encodes the specified Event message. Does not implicitly {@link ectp.v1.Event.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Event
             * @static
             * @param {ectp.v1.Event.$Properties} message Event message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Event.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.stored != null && $Object.hasOwnProperty.call(message, "stored"))
                    $root.ectp.v1.Stored.encode($check_message(message.stored, "stored"), writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
                if (message.removed != null && $Object.hasOwnProperty.call(message, "removed"))
                    $root.ectp.v1.Removed.encode($check_message(message.removed, "removed"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.cleared != null && $Object.hasOwnProperty.call(message, "cleared"))
                    $root.ectp.v1.Cleared.encode($check_message(message.cleared, "cleared"), writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Event message, length delimited. Does not implicitly {@link ectp.v1.Event.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Event
             * @static
             * @param {ectp.v1.Event.$Properties} message Event message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Event.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an Event message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Event
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Event & ectp.v1.Event.$Shape} Event
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Event.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Event();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("stored", "kind");
                            $seen |= 1;
                            message.stored = $root.ectp.v1.Stored.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.kind = "stored";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("removed", "kind");
                            $seen |= 1;
                            message.removed = $root.ectp.v1.Removed.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.kind = "removed";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ($seen & 1)
                                $refuseRepeat("cleared", "kind");
                            $seen |= 1;
                            message.cleared = $root.ectp.v1.Cleared.decode(reader, reader.size(), $undefined, _depth + 1);
                            message.kind = "cleared";
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an Event message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Event
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Event & ectp.v1.Event.$Shape} Event
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Event.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an Event message.
             * @function verify
             * @memberof ectp.v1.Event
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Event.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                let properties = {};
                if (message.stored != null && $Object.hasOwnProperty.call(message, "stored")) {
                    properties.kind = 1;
                    {
                        let error = $root.ectp.v1.Stored.verify(message.stored, _depth + 1);
                        if (error)
                            return "stored." + error;
                    }
                }
                if (message.removed != null && $Object.hasOwnProperty.call(message, "removed")) {
                    if (properties.kind === 1)
                        return "kind: multiple values";
                    properties.kind = 1;
                    {
                        let error = $root.ectp.v1.Removed.verify(message.removed, _depth + 1);
                        if (error)
                            return "removed." + error;
                    }
                }
                if (message.cleared != null && $Object.hasOwnProperty.call(message, "cleared")) {
                    if (properties.kind === 1)
                        return "kind: multiple values";
                    properties.kind = 1;
                    {
                        let error = $root.ectp.v1.Cleared.verify(message.cleared, _depth + 1);
                        if (error)
                            return "cleared." + error;
                    }
                }
                return null;
            };

            /**
             * Creates an Event message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Event
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Event} Event
             */
            Event.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Event)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Event: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Event();
                if (object.stored != null) {
                    if (!$util.isObject(object.stored))
                        throw $TypeError(".ectp.v1.Event.stored: object expected");
                    message.stored = $root.ectp.v1.Stored.fromObject(object.stored, _depth + 1);
                }
                if (object.removed != null) {
                    if (!$util.isObject(object.removed))
                        throw $TypeError(".ectp.v1.Event.removed: object expected");
                    message.removed = $root.ectp.v1.Removed.fromObject(object.removed, _depth + 1);
                }
                if (object.cleared != null) {
                    if (!$util.isObject(object.cleared))
                        throw $TypeError(".ectp.v1.Event.cleared: object expected");
                    message.cleared = $root.ectp.v1.Cleared.fromObject(object.cleared, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from an Event message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Event
             * @static
             * @param {ectp.v1.Event} message Event
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Event.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (message.stored != null && $Object.hasOwnProperty.call(message, "stored")) {
                    object.stored = $root.ectp.v1.Stored.toObject(message.stored, options, _depth + 1);
                    if (options.oneofs)
                        object.kind = "stored";
                }
                if (message.removed != null && $Object.hasOwnProperty.call(message, "removed")) {
                    object.removed = $root.ectp.v1.Removed.toObject(message.removed, options, _depth + 1);
                    if (options.oneofs)
                        object.kind = "removed";
                }
                if (message.cleared != null && $Object.hasOwnProperty.call(message, "cleared")) {
                    object.cleared = $root.ectp.v1.Cleared.toObject(message.cleared, options, _depth + 1);
                    if (options.oneofs)
                        object.kind = "cleared";
                }
                return object;
            };

            /**
             * Converts this Event to JSON.
             * @function toJSON
             * @memberof ectp.v1.Event
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Event.prototype.toJSON = function() {
                return Event.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Event
             * @function getTypeUrl
             * @memberof ectp.v1.Event
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Event.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Event";
            };

            return Event;
        })();

        v1.EventBatch = (function() {

            /**
             * Properties of an EventBatch.
             * @typedef {Object} ectp.v1.EventBatch.$Properties
             * @property {number|null} [sequence] Sequence number of this batch: strictly increasing by exactly 1 per batch
             * within one producer epoch, starting at 1. A subscriber that sees a gap
             * replays from the first missing number [E2].
             * @property {Array.<ectp.v1.Event.$Properties>|null} [events] The events. A batch holds at least one event.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an EventBatch.
             * @memberof ectp.v1
             * @interface IEventBatch
             * @augments ectp.v1.EventBatch.$Properties
             * @deprecated Use ectp.v1.EventBatch.$Properties instead.
             */

            /**
             * Shape of an EventBatch.
             * @typedef {{
             *   sequence?: number|null;
             *   events?: Array.<ectp.v1.Event.$Shape>|null;
             *   $unknowns?: Array.<Uint8Array>;
             * }} ectp.v1.EventBatch.$Shape
             */

            /**
             * Constructs a new EventBatch.
             * @memberof ectp.v1
             * @classdesc A batch of events, in the order they happened [E1].
             * @constructor
             * @param {ectp.v1.EventBatch.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const EventBatch = function (properties) {
                this.events = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Sequence number of this batch: strictly increasing by exactly 1 per batch
             * within one producer epoch, starting at 1. A subscriber that sees a gap
             * replays from the first missing number [E2].
             * @member {number} sequence
             * @memberof ectp.v1.EventBatch
             * @instance
             */
            EventBatch.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * The events. A batch holds at least one event.
             * @member {Array.<ectp.v1.Event.$Properties>} events
             * @memberof ectp.v1.EventBatch
             * @instance
             */
            EventBatch.prototype.events = $util.emptyArray;

            /**
             * Creates a new EventBatch instance using the specified properties.
             * @function create
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {ectp.v1.EventBatch.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.EventBatch} EventBatch instance
             * @type {{
             *   (properties: ectp.v1.EventBatch.$Shape): ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape;
             *   (properties?: ectp.v1.EventBatch.$Properties): ectp.v1.EventBatch;
             * }}
             */
            EventBatch.create = function(properties) {
                return new EventBatch(properties);
            };

            /**
             * Encodes the specified EventBatch message. Does not implicitly {@link ectp.v1.EventBatch.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {ectp.v1.EventBatch.$Properties} message EventBatch message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            EventBatch.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence") && $check_uint64(message.sequence, "sequence") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.sequence, "sequence"));
                if (message.events != null && $check_list(message.events, "events").length)
                    for (let i = 0; i < message.events.length; ++i)
                        $root.ectp.v1.Event.encode($check_message(message.events[i], "events"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified EventBatch message, length delimited. Does not implicitly {@link ectp.v1.EventBatch.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {ectp.v1.EventBatch.$Properties} message EventBatch message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            EventBatch.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes an EventBatch message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape} EventBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            EventBatch.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.EventBatch();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("sequence");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.sequence = value;
                            else
                                delete message.sequence;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.events && message.events.length))
                                message.events = [];
                            $countElement(reader, "events");
                            message.events.push($root.ectp.v1.Event.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes an EventBatch message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape} EventBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            EventBatch.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies an EventBatch message.
             * @function verify
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            EventBatch.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (!$util.isInteger(message.sequence) && !(message.sequence && $util.isInteger(message.sequence.low) && $util.isInteger(message.sequence.high)))
                        return "sequence: integer|Long expected";
                if (message.events != null && $Object.hasOwnProperty.call(message, "events")) {
                    if (!$Array.isArray(message.events))
                        return "events: array expected";
                    for (let i = 0; i < message.events.length; ++i) {
                        let error = $root.ectp.v1.Event.verify(message.events[i], _depth + 1);
                        if (error)
                            return "events." + error;
                    }
                }
                return null;
            };

            /**
             * Creates an EventBatch message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.EventBatch} EventBatch
             */
            EventBatch.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.EventBatch)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.EventBatch: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.EventBatch();
                if (object.sequence != null)
                    if (typeof object.sequence === "object" ? object.sequence.low || object.sequence.high : $Number(object.sequence) !== 0)
                        if ($util.Long)
                            message.sequence = $util.Long.fromValue(object.sequence, true);
                        else if (typeof object.sequence === "string")
                            message.sequence = $parseInt(object.sequence, 10);
                        else if (typeof object.sequence === "number")
                            message.sequence = object.sequence;
                        else if (typeof object.sequence === "object")
                            message.sequence = new $util.LongBits(object.sequence.low >>> 0, object.sequence.high >>> 0).toNumber(true);
                if (object.events) {
                    if (!$Array.isArray(object.events))
                        throw $TypeError(".ectp.v1.EventBatch.events: array expected");
                    message.events = $Array(object.events.length);
                    for (let i = 0; i < object.events.length; ++i) {
                        if (!$util.isObject(object.events[i]))
                            throw $TypeError(".ectp.v1.EventBatch.events: object expected");
                        message.events[i] = $root.ectp.v1.Event.fromObject(object.events[i], _depth + 1);
                    }
                }
                return message;
            };

            /**
             * Creates a plain object from an EventBatch message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {ectp.v1.EventBatch} message EventBatch
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            EventBatch.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.events = [];
                if (options.defaults)
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.sequence = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.sequence = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.sequence = typeof message.sequence === "number" ? $BigInt(message.sequence) : $util.Long.fromBits(message.sequence.low >>> 0, message.sequence.high >>> 0, true).toBigInt();
                    else if (typeof message.sequence === "number")
                        object.sequence = options.longs === $String ? $String(message.sequence) : message.sequence;
                    else
                        object.sequence = options.longs === $String ? $util.Long.prototype.toString.call(message.sequence) : options.longs === $Number ? new $util.LongBits(message.sequence.low >>> 0, message.sequence.high >>> 0).toNumber(true) : message.sequence;
                if (message.events && message.events.length) {
                    object.events = $Array(message.events.length);
                    for (let j = 0; j < message.events.length; ++j)
                        object.events[j] = $root.ectp.v1.Event.toObject(message.events[j], options, _depth + 1);
                }
                return object;
            };

            /**
             * Converts this EventBatch to JSON.
             * @function toJSON
             * @memberof ectp.v1.EventBatch
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            EventBatch.prototype.toJSON = function() {
                return EventBatch.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for EventBatch
             * @function getTypeUrl
             * @memberof ectp.v1.EventBatch
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            EventBatch.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.EventBatch";
            };

            return EventBatch;
        })();

        v1.ReplayRequest = (function() {

            /**
             * Properties of a ReplayRequest.
             * @typedef {Object} ectp.v1.ReplayRequest.$Properties
             * @property {number|null} [fromSequence] First batch sequence wanted. 0 is treated as 1. Greater than the latest
             * published sequence: nothing is sent (the subscriber is up to date).
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReplayRequest.
             * @memberof ectp.v1
             * @interface IReplayRequest
             * @augments ectp.v1.ReplayRequest.$Properties
             * @deprecated Use ectp.v1.ReplayRequest.$Properties instead.
             */

            /**
             * Shape of a ReplayRequest.
             * @typedef {ectp.v1.ReplayRequest.$Properties} ectp.v1.ReplayRequest.$Shape
             */

            /**
             * Constructs a new ReplayRequest.
             * @memberof ectp.v1
             * @classdesc Subscriber to producer: resend batches from `from_sequence` on [E2].
             * @constructor
             * @param {ectp.v1.ReplayRequest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReplayRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * First batch sequence wanted. 0 is treated as 1. Greater than the latest
             * published sequence: nothing is sent (the subscriber is up to date).
             * @member {number} fromSequence
             * @memberof ectp.v1.ReplayRequest
             * @instance
             */
            ReplayRequest.prototype.fromSequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Creates a new ReplayRequest instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {ectp.v1.ReplayRequest.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReplayRequest} ReplayRequest instance
             * @type {{
             *   (properties: ectp.v1.ReplayRequest.$Shape): ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape;
             *   (properties?: ectp.v1.ReplayRequest.$Properties): ectp.v1.ReplayRequest;
             * }}
             */
            ReplayRequest.create = function(properties) {
                return new ReplayRequest(properties);
            };

            /**
             * Encodes the specified ReplayRequest message. Does not implicitly {@link ectp.v1.ReplayRequest.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {ectp.v1.ReplayRequest.$Properties} message ReplayRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReplayRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.fromSequence != null && $Object.hasOwnProperty.call(message, "fromSequence") && $check_uint64(message.fromSequence, "fromSequence") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.fromSequence, "fromSequence"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReplayRequest message, length delimited. Does not implicitly {@link ectp.v1.ReplayRequest.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {ectp.v1.ReplayRequest.$Properties} message ReplayRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReplayRequest.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReplayRequest message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape} ReplayRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReplayRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReplayRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("fromSequence");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.fromSequence = value;
                            else
                                delete message.fromSequence;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReplayRequest message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape} ReplayRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReplayRequest.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReplayRequest message.
             * @function verify
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReplayRequest.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.fromSequence != null && $Object.hasOwnProperty.call(message, "fromSequence"))
                    if (!$util.isInteger(message.fromSequence) && !(message.fromSequence && $util.isInteger(message.fromSequence.low) && $util.isInteger(message.fromSequence.high)))
                        return "fromSequence: integer|Long expected";
                return null;
            };

            /**
             * Creates a ReplayRequest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReplayRequest} ReplayRequest
             */
            ReplayRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReplayRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReplayRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReplayRequest();
                if (object.fromSequence != null)
                    if (typeof object.fromSequence === "object" ? object.fromSequence.low || object.fromSequence.high : $Number(object.fromSequence) !== 0)
                        if ($util.Long)
                            message.fromSequence = $util.Long.fromValue(object.fromSequence, true);
                        else if (typeof object.fromSequence === "string")
                            message.fromSequence = $parseInt(object.fromSequence, 10);
                        else if (typeof object.fromSequence === "number")
                            message.fromSequence = object.fromSequence;
                        else if (typeof object.fromSequence === "object")
                            message.fromSequence = new $util.LongBits(object.fromSequence.low >>> 0, object.fromSequence.high >>> 0).toNumber(true);
                return message;
            };

            /**
             * Creates a plain object from a ReplayRequest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {ectp.v1.ReplayRequest} message ReplayRequest
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReplayRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.fromSequence = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.fromSequence = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if (message.fromSequence != null && $Object.hasOwnProperty.call(message, "fromSequence"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.fromSequence = typeof message.fromSequence === "number" ? $BigInt(message.fromSequence) : $util.Long.fromBits(message.fromSequence.low >>> 0, message.fromSequence.high >>> 0, true).toBigInt();
                    else if (typeof message.fromSequence === "number")
                        object.fromSequence = options.longs === $String ? $String(message.fromSequence) : message.fromSequence;
                    else
                        object.fromSequence = options.longs === $String ? $util.Long.prototype.toString.call(message.fromSequence) : options.longs === $Number ? new $util.LongBits(message.fromSequence.low >>> 0, message.fromSequence.high >>> 0).toNumber(true) : message.fromSequence;
                return object;
            };

            /**
             * Converts this ReplayRequest to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReplayRequest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReplayRequest.prototype.toJSON = function() {
                return ReplayRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReplayRequest
             * @function getTypeUrl
             * @memberof ectp.v1.ReplayRequest
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReplayRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReplayRequest";
            };

            return ReplayRequest;
        })();

        v1.ReplayUnavailable = (function() {

            /**
             * Properties of a ReplayUnavailable.
             * @typedef {Object} ectp.v1.ReplayUnavailable.$Properties
             * @property {number|null} [oldestAvailable] Oldest batch sequence still buffered. 0: the buffer is empty.
             * @property {number|null} [latest] Sequence of the newest batch published so far in this epoch. 0: none yet.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a ReplayUnavailable.
             * @memberof ectp.v1
             * @interface IReplayUnavailable
             * @augments ectp.v1.ReplayUnavailable.$Properties
             * @deprecated Use ectp.v1.ReplayUnavailable.$Properties instead.
             */

            /**
             * Shape of a ReplayUnavailable.
             * @typedef {ectp.v1.ReplayUnavailable.$Properties} ectp.v1.ReplayUnavailable.$Shape
             */

            /**
             * Constructs a new ReplayUnavailable.
             * @memberof ectp.v1
             * @classdesc Producer to subscriber: the requested replay is not in the bounded buffer;
             * the subscriber MUST ask for a snapshot, unless `latest` is not greater than
             * the last sequence it applied (a late answer about a gap since filled) [E2].
             * @constructor
             * @param {ectp.v1.ReplayUnavailable.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const ReplayUnavailable = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Oldest batch sequence still buffered. 0: the buffer is empty.
             * @member {number} oldestAvailable
             * @memberof ectp.v1.ReplayUnavailable
             * @instance
             */
            ReplayUnavailable.prototype.oldestAvailable = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Sequence of the newest batch published so far in this epoch. 0: none yet.
             * @member {number} latest
             * @memberof ectp.v1.ReplayUnavailable
             * @instance
             */
            ReplayUnavailable.prototype.latest = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Creates a new ReplayUnavailable instance using the specified properties.
             * @function create
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {ectp.v1.ReplayUnavailable.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.ReplayUnavailable} ReplayUnavailable instance
             * @type {{
             *   (properties: ectp.v1.ReplayUnavailable.$Shape): ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape;
             *   (properties?: ectp.v1.ReplayUnavailable.$Properties): ectp.v1.ReplayUnavailable;
             * }}
             */
            ReplayUnavailable.create = function(properties) {
                return new ReplayUnavailable(properties);
            };

            /**
             * Encodes the specified ReplayUnavailable message. Does not implicitly {@link ectp.v1.ReplayUnavailable.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {ectp.v1.ReplayUnavailable.$Properties} message ReplayUnavailable message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReplayUnavailable.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.oldestAvailable != null && $Object.hasOwnProperty.call(message, "oldestAvailable") && $check_uint64(message.oldestAvailable, "oldestAvailable") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.oldestAvailable, "oldestAvailable"));
                if (message.latest != null && $Object.hasOwnProperty.call(message, "latest") && $check_uint64(message.latest, "latest") !== 0)
                    writer.uint32(/* id 2, wireType 0 =*/16).uint64($check_uint64(message.latest, "latest"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified ReplayUnavailable message, length delimited. Does not implicitly {@link ectp.v1.ReplayUnavailable.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {ectp.v1.ReplayUnavailable.$Properties} message ReplayUnavailable message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReplayUnavailable.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a ReplayUnavailable message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape} ReplayUnavailable
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReplayUnavailable.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.ReplayUnavailable();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("oldestAvailable");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.oldestAvailable = value;
                            else
                                delete message.oldestAvailable;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 4)
                                $refuseRepeat("latest");
                            $seen |= 4;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.latest = value;
                            else
                                delete message.latest;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a ReplayUnavailable message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape} ReplayUnavailable
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReplayUnavailable.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a ReplayUnavailable message.
             * @function verify
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReplayUnavailable.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.oldestAvailable != null && $Object.hasOwnProperty.call(message, "oldestAvailable"))
                    if (!$util.isInteger(message.oldestAvailable) && !(message.oldestAvailable && $util.isInteger(message.oldestAvailable.low) && $util.isInteger(message.oldestAvailable.high)))
                        return "oldestAvailable: integer|Long expected";
                if (message.latest != null && $Object.hasOwnProperty.call(message, "latest"))
                    if (!$util.isInteger(message.latest) && !(message.latest && $util.isInteger(message.latest.low) && $util.isInteger(message.latest.high)))
                        return "latest: integer|Long expected";
                return null;
            };

            /**
             * Creates a ReplayUnavailable message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.ReplayUnavailable} ReplayUnavailable
             */
            ReplayUnavailable.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.ReplayUnavailable)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.ReplayUnavailable: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.ReplayUnavailable();
                if (object.oldestAvailable != null)
                    if (typeof object.oldestAvailable === "object" ? object.oldestAvailable.low || object.oldestAvailable.high : $Number(object.oldestAvailable) !== 0)
                        if ($util.Long)
                            message.oldestAvailable = $util.Long.fromValue(object.oldestAvailable, true);
                        else if (typeof object.oldestAvailable === "string")
                            message.oldestAvailable = $parseInt(object.oldestAvailable, 10);
                        else if (typeof object.oldestAvailable === "number")
                            message.oldestAvailable = object.oldestAvailable;
                        else if (typeof object.oldestAvailable === "object")
                            message.oldestAvailable = new $util.LongBits(object.oldestAvailable.low >>> 0, object.oldestAvailable.high >>> 0).toNumber(true);
                if (object.latest != null)
                    if (typeof object.latest === "object" ? object.latest.low || object.latest.high : $Number(object.latest) !== 0)
                        if ($util.Long)
                            message.latest = $util.Long.fromValue(object.latest, true);
                        else if (typeof object.latest === "string")
                            message.latest = $parseInt(object.latest, 10);
                        else if (typeof object.latest === "number")
                            message.latest = object.latest;
                        else if (typeof object.latest === "object")
                            message.latest = new $util.LongBits(object.latest.low >>> 0, object.latest.high >>> 0).toNumber(true);
                return message;
            };

            /**
             * Creates a plain object from a ReplayUnavailable message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {ectp.v1.ReplayUnavailable} message ReplayUnavailable
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReplayUnavailable.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.oldestAvailable = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.oldestAvailable = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.latest = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.latest = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.oldestAvailable != null && $Object.hasOwnProperty.call(message, "oldestAvailable"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.oldestAvailable = typeof message.oldestAvailable === "number" ? $BigInt(message.oldestAvailable) : $util.Long.fromBits(message.oldestAvailable.low >>> 0, message.oldestAvailable.high >>> 0, true).toBigInt();
                    else if (typeof message.oldestAvailable === "number")
                        object.oldestAvailable = options.longs === $String ? $String(message.oldestAvailable) : message.oldestAvailable;
                    else
                        object.oldestAvailable = options.longs === $String ? $util.Long.prototype.toString.call(message.oldestAvailable) : options.longs === $Number ? new $util.LongBits(message.oldestAvailable.low >>> 0, message.oldestAvailable.high >>> 0).toNumber(true) : message.oldestAvailable;
                if (message.latest != null && $Object.hasOwnProperty.call(message, "latest"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.latest = typeof message.latest === "number" ? $BigInt(message.latest) : $util.Long.fromBits(message.latest.low >>> 0, message.latest.high >>> 0, true).toBigInt();
                    else if (typeof message.latest === "number")
                        object.latest = options.longs === $String ? $String(message.latest) : message.latest;
                    else
                        object.latest = options.longs === $String ? $util.Long.prototype.toString.call(message.latest) : options.longs === $Number ? new $util.LongBits(message.latest.low >>> 0, message.latest.high >>> 0).toNumber(true) : message.latest;
                return object;
            };

            /**
             * Converts this ReplayUnavailable to JSON.
             * @function toJSON
             * @memberof ectp.v1.ReplayUnavailable
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReplayUnavailable.prototype.toJSON = function() {
                return ReplayUnavailable.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for ReplayUnavailable
             * @function getTypeUrl
             * @memberof ectp.v1.ReplayUnavailable
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            ReplayUnavailable.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.ReplayUnavailable";
            };

            return ReplayUnavailable;
        })();

        v1.SnapshotRequest = (function() {

            /**
             * Properties of a SnapshotRequest.
             * @typedef {Object} ectp.v1.SnapshotRequest.$Properties
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a SnapshotRequest.
             * @memberof ectp.v1
             * @interface ISnapshotRequest
             * @augments ectp.v1.SnapshotRequest.$Properties
             * @deprecated Use ectp.v1.SnapshotRequest.$Properties instead.
             */

            /**
             * Shape of a SnapshotRequest.
             * @typedef {ectp.v1.SnapshotRequest.$Properties} ectp.v1.SnapshotRequest.$Shape
             */

            /**
             * Constructs a new SnapshotRequest.
             * @memberof ectp.v1
             * @classdesc Subscriber to producer: send what you hold now. A subscriber MUST send one to
             * each producer epoch it follows, unless a snapshot of that epoch reached it
             * first: a Hello alone leaves its view empty [E2].
             * @constructor
             * @param {ectp.v1.SnapshotRequest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const SnapshotRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Creates a new SnapshotRequest instance using the specified properties.
             * @function create
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {ectp.v1.SnapshotRequest.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.SnapshotRequest} SnapshotRequest instance
             * @type {{
             *   (properties: ectp.v1.SnapshotRequest.$Shape): ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape;
             *   (properties?: ectp.v1.SnapshotRequest.$Properties): ectp.v1.SnapshotRequest;
             * }}
             */
            SnapshotRequest.create = function(properties) {
                return new SnapshotRequest(properties);
            };

            /**
             * Encodes the specified SnapshotRequest message. Does not implicitly {@link ectp.v1.SnapshotRequest.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {ectp.v1.SnapshotRequest.$Properties} message SnapshotRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SnapshotRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified SnapshotRequest message, length delimited. Does not implicitly {@link ectp.v1.SnapshotRequest.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {ectp.v1.SnapshotRequest.$Properties} message SnapshotRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SnapshotRequest.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a SnapshotRequest message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape} SnapshotRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SnapshotRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.SnapshotRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    $skipField(reader, tag & 7, _depth, tag >>> 3);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a SnapshotRequest message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape} SnapshotRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SnapshotRequest.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a SnapshotRequest message.
             * @function verify
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            SnapshotRequest.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                return null;
            };

            /**
             * Creates a SnapshotRequest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.SnapshotRequest} SnapshotRequest
             */
            SnapshotRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.SnapshotRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.SnapshotRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.ectp.v1.SnapshotRequest();
            };

            /**
             * Creates a plain object from a SnapshotRequest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {ectp.v1.SnapshotRequest} message SnapshotRequest
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            SnapshotRequest.toObject = function () {
                return {};
            };

            /**
             * Converts this SnapshotRequest to JSON.
             * @function toJSON
             * @memberof ectp.v1.SnapshotRequest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            SnapshotRequest.prototype.toJSON = function() {
                return SnapshotRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for SnapshotRequest
             * @function getTypeUrl
             * @memberof ectp.v1.SnapshotRequest
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            SnapshotRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.SnapshotRequest";
            };

            return SnapshotRequest;
        })();

        v1.Snapshot = (function() {

            /**
             * Properties of a Snapshot.
             * @typedef {Object} ectp.v1.Snapshot.$Properties
             * @property {number|null} [sequence] Sequence of the newest batch reflected in the snapshot. 0: none yet.
             * @property {Array.<ectp.v1.ItemDescriptor.$Properties>|null} [items] Every ready item the producer holds (this part's share of them when
             * `parts` is greater than 1).
             * @property {number|null} [part] Index of this part, from 0 to `parts` - 1. Absent: 0.
             * @property {number|null} [parts] Number of parts of this snapshot. Absent (0) or 1: this message is the
             * whole snapshot.
             * @property {number|null} [snapshotId] Which answer this is: every Snapshot answer of a producer epoch has a
             * greater id than the one before (the first is at least 1), and all parts of
             * one answer carry the same id, so parts of two answers are never combined
             * [E2]. Always set: a producer MUST NOT send 0 (absent); a subscriber reads a 0
             * as the lowest id.
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Snapshot.
             * @memberof ectp.v1
             * @interface ISnapshot
             * @augments ectp.v1.Snapshot.$Properties
             * @deprecated Use ectp.v1.Snapshot.$Properties instead.
             */

            /**
             * Shape of a Snapshot.
             * @typedef {ectp.v1.Snapshot.$Properties} ectp.v1.Snapshot.$Shape
             */

            /**
             * Constructs a new Snapshot.
             * @memberof ectp.v1
             * @classdesc Producer to subscriber: every ready item held, as of batch `sequence`.
             * Events with a higher sequence follow the snapshot. A snapshot too large for
             * one message is sent in parts: `parts` messages with the same `sequence`,
             * numbered by `part`, whose `items` together are the snapshot [E2].
             * @constructor
             * @param {ectp.v1.Snapshot.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Snapshot = function (properties) {
                this.items = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Sequence of the newest batch reflected in the snapshot. 0: none yet.
             * @member {number} sequence
             * @memberof ectp.v1.Snapshot
             * @instance
             */
            Snapshot.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Every ready item the producer holds (this part's share of them when
             * `parts` is greater than 1).
             * @member {Array.<ectp.v1.ItemDescriptor.$Properties>} items
             * @memberof ectp.v1.Snapshot
             * @instance
             */
            Snapshot.prototype.items = $util.emptyArray;

            /**
             * Index of this part, from 0 to `parts` - 1. Absent: 0.
             * @member {number} part
             * @memberof ectp.v1.Snapshot
             * @instance
             */
            Snapshot.prototype.part = 0;

            /**
             * Number of parts of this snapshot. Absent (0) or 1: this message is the
             * whole snapshot.
             * @member {number} parts
             * @memberof ectp.v1.Snapshot
             * @instance
             */
            Snapshot.prototype.parts = 0;

            /**
             * Which answer this is: every Snapshot answer of a producer epoch has a
             * greater id than the one before (the first is at least 1), and all parts of
             * one answer carry the same id, so parts of two answers are never combined
             * [E2]. Always set: a producer MUST NOT send 0 (absent); a subscriber reads a 0
             * as the lowest id.
             * @member {number} snapshotId
             * @memberof ectp.v1.Snapshot
             * @instance
             */
            Snapshot.prototype.snapshotId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * Creates a new Snapshot instance using the specified properties.
             * @function create
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {ectp.v1.Snapshot.$Properties=} [properties] Properties to set
             * @returns {ectp.v1.Snapshot} Snapshot instance
             * @type {{
             *   (properties: ectp.v1.Snapshot.$Shape): ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape;
             *   (properties?: ectp.v1.Snapshot.$Properties): ectp.v1.Snapshot;
             * }}
             */
            Snapshot.create = function(properties) {
                return new Snapshot(properties);
            };

            /**
             * Encodes the specified Snapshot message. Does not implicitly {@link ectp.v1.Snapshot.verify|verify} messages.
             * @function encode
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {ectp.v1.Snapshot.$Properties} message Snapshot message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Snapshot.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence") && $check_uint64(message.sequence, "sequence") !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint64($check_uint64(message.sequence, "sequence"));
                if (message.items != null && $check_list(message.items, "items").length)
                    for (let i = 0; i < message.items.length; ++i)
                        $root.ectp.v1.ItemDescriptor.encode($check_message(message.items[i], "items"), writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
                if (message.part != null && $Object.hasOwnProperty.call(message, "part") && message.part !== 0)
                    writer.uint32(/* id 3, wireType 0 =*/24).uint32($check_uint32(message.part, "part"));
                if (message.parts != null && $Object.hasOwnProperty.call(message, "parts") && message.parts !== 0)
                    writer.uint32(/* id 4, wireType 0 =*/32).uint32($check_uint32(message.parts, "parts"));
                if (message.snapshotId != null && $Object.hasOwnProperty.call(message, "snapshotId") && $check_uint64(message.snapshotId, "snapshotId") !== 0)
                    writer.uint32(/* id 5, wireType 0 =*/40).uint64($check_uint64(message.snapshotId, "snapshotId"));
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Encodes the specified Snapshot message, length delimited. Does not implicitly {@link ectp.v1.Snapshot.verify|verify} messages.
             * @function encodeDelimited
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {ectp.v1.Snapshot.$Properties} message Snapshot message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Snapshot.encodeDelimited = function(message, writer) {
                return this.encode(message, (writer || $Writer.create()).fork()).ldelim();
            };

            /**
             * Decodes a Snapshot message from the specified reader or buffer.
             * @function decode
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape} Snapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Snapshot.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined) {
                    _depth = 0;
                    reader.$elements = 0;
                }
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                let $seen = 0;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ectp.v1.Snapshot();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 2)
                                $refuseRepeat("sequence");
                            $seen |= 2;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.sequence = value;
                            else
                                delete message.sequence;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.items && message.items.length))
                                message.items = [];
                            $countElement(reader, "items");
                            message.items.push($root.ectp.v1.ItemDescriptor.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 8)
                                $refuseRepeat("part");
                            $seen |= 8;
                            if (value = reader.uint32())
                                message.part = value;
                            else
                                delete message.part;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 16)
                                $refuseRepeat("parts");
                            $seen |= 16;
                            if (value = reader.uint32())
                                message.parts = value;
                            else
                                delete message.parts;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if ($seen & 32)
                                $refuseRepeat("snapshotId");
                            $seen |= 32;
                            if (typeof (value = $uint64(reader)) === "object" ? value.low || value.high : value !== 0)
                                message.snapshotId = value;
                            else
                                delete message.snapshotId;
                            continue;
                        }
                    }
                    $skipField(reader, wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Decodes a Snapshot message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape} Snapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Snapshot.decodeDelimited = function(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.size());
            };

            /**
             * Verifies a Snapshot message.
             * @function verify
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {Object.<string,*>} message Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Snapshot.verify = function (message, _depth) {
                if (typeof message !== "object" || message === null)
                    return "object expected";
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    return "max depth exceeded";
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (!$util.isInteger(message.sequence) && !(message.sequence && $util.isInteger(message.sequence.low) && $util.isInteger(message.sequence.high)))
                        return "sequence: integer|Long expected";
                if (message.items != null && $Object.hasOwnProperty.call(message, "items")) {
                    if (!$Array.isArray(message.items))
                        return "items: array expected";
                    for (let i = 0; i < message.items.length; ++i) {
                        let error = $root.ectp.v1.ItemDescriptor.verify(message.items[i], _depth + 1);
                        if (error)
                            return "items." + error;
                    }
                }
                if (message.part != null && $Object.hasOwnProperty.call(message, "part"))
                    if (!$util.isInteger(message.part))
                        return "part: integer expected";
                if (message.parts != null && $Object.hasOwnProperty.call(message, "parts"))
                    if (!$util.isInteger(message.parts))
                        return "parts: integer expected";
                if (message.snapshotId != null && $Object.hasOwnProperty.call(message, "snapshotId"))
                    if (!$util.isInteger(message.snapshotId) && !(message.snapshotId && $util.isInteger(message.snapshotId.low) && $util.isInteger(message.snapshotId.high)))
                        return "snapshotId: integer|Long expected";
                return null;
            };

            /**
             * Creates a Snapshot message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ectp.v1.Snapshot} Snapshot
             */
            Snapshot.fromObject = function (object, _depth) {
                if (object instanceof $root.ectp.v1.Snapshot)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ectp.v1.Snapshot: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ectp.v1.Snapshot();
                if (object.sequence != null)
                    if (typeof object.sequence === "object" ? object.sequence.low || object.sequence.high : $Number(object.sequence) !== 0)
                        if ($util.Long)
                            message.sequence = $util.Long.fromValue(object.sequence, true);
                        else if (typeof object.sequence === "string")
                            message.sequence = $parseInt(object.sequence, 10);
                        else if (typeof object.sequence === "number")
                            message.sequence = object.sequence;
                        else if (typeof object.sequence === "object")
                            message.sequence = new $util.LongBits(object.sequence.low >>> 0, object.sequence.high >>> 0).toNumber(true);
                if (object.items) {
                    if (!$Array.isArray(object.items))
                        throw $TypeError(".ectp.v1.Snapshot.items: array expected");
                    message.items = $Array(object.items.length);
                    for (let i = 0; i < object.items.length; ++i) {
                        if (!$util.isObject(object.items[i]))
                            throw $TypeError(".ectp.v1.Snapshot.items: object expected");
                        message.items[i] = $root.ectp.v1.ItemDescriptor.fromObject(object.items[i], _depth + 1);
                    }
                }
                if (object.part != null)
                    if ($Number(object.part) !== 0)
                        message.part = object.part >>> 0;
                if (object.parts != null)
                    if ($Number(object.parts) !== 0)
                        message.parts = object.parts >>> 0;
                if (object.snapshotId != null)
                    if (typeof object.snapshotId === "object" ? object.snapshotId.low || object.snapshotId.high : $Number(object.snapshotId) !== 0)
                        if ($util.Long)
                            message.snapshotId = $util.Long.fromValue(object.snapshotId, true);
                        else if (typeof object.snapshotId === "string")
                            message.snapshotId = $parseInt(object.snapshotId, 10);
                        else if (typeof object.snapshotId === "number")
                            message.snapshotId = object.snapshotId;
                        else if (typeof object.snapshotId === "object")
                            message.snapshotId = new $util.LongBits(object.snapshotId.low >>> 0, object.snapshotId.high >>> 0).toNumber(true);
                return message;
            };

            /**
             * Creates a plain object from a Snapshot message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {ectp.v1.Snapshot} message Snapshot
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Snapshot.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.items = [];
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.sequence = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.sequence = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.part = 0;
                    object.parts = 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.snapshotId = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.snapshotId = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.sequence = typeof message.sequence === "number" ? $BigInt(message.sequence) : $util.Long.fromBits(message.sequence.low >>> 0, message.sequence.high >>> 0, true).toBigInt();
                    else if (typeof message.sequence === "number")
                        object.sequence = options.longs === $String ? $String(message.sequence) : message.sequence;
                    else
                        object.sequence = options.longs === $String ? $util.Long.prototype.toString.call(message.sequence) : options.longs === $Number ? new $util.LongBits(message.sequence.low >>> 0, message.sequence.high >>> 0).toNumber(true) : message.sequence;
                if (message.items && message.items.length) {
                    object.items = $Array(message.items.length);
                    for (let j = 0; j < message.items.length; ++j)
                        object.items[j] = $root.ectp.v1.ItemDescriptor.toObject(message.items[j], options, _depth + 1);
                }
                if (message.part != null && $Object.hasOwnProperty.call(message, "part"))
                    object.part = message.part;
                if (message.parts != null && $Object.hasOwnProperty.call(message, "parts"))
                    object.parts = message.parts;
                if (message.snapshotId != null && $Object.hasOwnProperty.call(message, "snapshotId"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.snapshotId = typeof message.snapshotId === "number" ? $BigInt(message.snapshotId) : $util.Long.fromBits(message.snapshotId.low >>> 0, message.snapshotId.high >>> 0, true).toBigInt();
                    else if (typeof message.snapshotId === "number")
                        object.snapshotId = options.longs === $String ? $String(message.snapshotId) : message.snapshotId;
                    else
                        object.snapshotId = options.longs === $String ? $util.Long.prototype.toString.call(message.snapshotId) : options.longs === $Number ? new $util.LongBits(message.snapshotId.low >>> 0, message.snapshotId.high >>> 0).toNumber(true) : message.snapshotId;
                return object;
            };

            /**
             * Converts this Snapshot to JSON.
             * @function toJSON
             * @memberof ectp.v1.Snapshot
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Snapshot.prototype.toJSON = function() {
                return Snapshot.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the type url for Snapshot
             * @function getTypeUrl
             * @memberof ectp.v1.Snapshot
             * @static
             * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns {string} The type url
             */
            Snapshot.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/ectp.v1.Snapshot";
            };

            return Snapshot;
        })();

        return v1;
    })();

    return ectp;
})();

export {
  $root as default
};
